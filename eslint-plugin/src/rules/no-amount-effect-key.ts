import { effectKeyListeners } from '../analysis/effect-key-listeners.js';
import type { LeafKind } from '../analysis/facts.js';
import { capitalised, describeFact, listed } from '../analysis/key-facts.js';
import { createRule } from '../create-rule.js';

/** Parts that narrow a key without naming an operation: who it is for, in what currency, when. */
const narrowing = new Set<LeafKind>(['scope', 'currency', 'time', 'constant']);

export const noAmountEffectKey = createRule({
  name: 'no-amount-effect-key',
  meta: {
    type: 'problem',
    messages: {
      amountKey: "{{key}} is made of an amount ({{amount}}){{others}}, so two operations of the same amount share it and the second is dropped; key it on the operation's own id.",
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    return effectKeyListeners(context, (key) => {
      const facts = key.facts;
      const amount = facts.find((fact) => fact.kind === 'amount');
      // Anything that could name the operation (or a delivery, which the other rule reports) clears the key.
      if (!amount || !facts.every((fact) => fact.kind === 'amount' || narrowing.has(fact.kind)) || key.isClaim()) return;
      const others = [...new Set(facts.filter((fact) => fact.kind !== 'amount' && fact.kind !== 'constant').map(describeFact))];
      context.report({
        node: key.node,
        messageId: 'amountKey',
        data: {
          key: capitalised(key.description),
          amount: describeFact(amount),
          others: others.length > 0 ? `, narrowed only by ${listed(others)}` : '',
        },
      });
    });
  },
});
