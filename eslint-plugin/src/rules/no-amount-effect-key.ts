import { insertDecidedBy } from '../lint/checked-writes.js';
import { effectKeyListeners } from '../lint/effect-key-listeners.js';
import type { Leaf } from '../analysis/origin/facts.js';
import type { LeafKind } from '../analysis/contract/adapter.js';
import { analysisFor } from '../lint/file-analysis.js';
import { describeFact, listed, matchedFacts, originAt, originOf } from '../analysis/keys/key-facts.js';
import { namesRecipientOrCatalogue, readName } from '../analysis/naming/names.js';
import { createRule } from '../create-rule.js';

/** Parts that narrow a key without naming an operation: who it is for, in what currency, when. */
const narrowing = new Set<LeafKind>(['scope', 'currency', 'time', 'constant']);

/**
 * Parts that narrow a key without naming an operation: who it is for, in what currency, when,
 * and who receives it or which catalogue entry it buys (two top-ups of one phone share both).
 */
function narrows(fact: Leaf): boolean {
  return (
    narrowing.has(fact.kind) ||
    ((fact.kind === 'business' || fact.kind === 'unknown') && namesRecipientOrCatalogue(readName(fact.code)))
  );
}

/** The amount of an identity made of nothing but an amount and what narrows it, if it is one. */
function amountIdentity(facts: readonly Leaf[]): Leaf | undefined {
  const amount = facts.find((fact) => fact.kind === 'amount');
  return amount && facts.every((fact) => fact.kind === 'amount' || narrows(fact)) ? amount : undefined;
}

/** ", narrowed only by 'customerId' and 'createdAt'": what else the identity holds, for messages. */
function narrowedBy(facts: readonly Leaf[]): string {
  const others = [
    ...new Set(facts.filter((fact) => fact.kind !== 'amount' && fact.kind !== 'constant').map(describeFact)),
  ];
  return others.length > 0 ? `, narrowed only by ${listed(others)}` : '';
}

export const noAmountEffectKey = createRule({
  name: 'no-amount-effect-key',
  meta: {
    type: 'problem',
    messages: {
      amountKey:
        'Effect key made of an amount: {{key}} is built from {{amount}}{{others}}, so two operations of the same amount share it.',
      amountCheck:
        'Duplicate check by amount: {{read}} looks for an earlier {{write}} by {{amount}}{{others}}, so another operation of the same amount passes for a repeat.',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const analysis = analysisFor(context);
    const names = analysis.file.libraries.names;
    return {
      ...effectKeyListeners(context, (key) => {
        // Each value the key may take is judged on its own: a given key or, without one, a fingerprint of the amount.
        const alternatives =
          key.knownFacts || key.values.length !== 1
            ? [key.facts]
            : [key.facts, ...analysis.tracer.alternatives(key.values[0])];
        const facts = alternatives.find((candidate) => amountIdentity(candidate)) ?? key.facts;
        const amount = amountIdentity(facts);
        // Anything that could name the operation (or a delivery, which the other rule reports) clears the key.
        // A binding named as a key is judged where it is used.
        if (!amount || key.named || key.isClaim()) return;
        context.report({
          node: key.node,
          messageId: 'amountKey',
          data: {
            key: key.description,
            amount: describeFact(amount),
            others: narrowedBy(facts),
            ...originOf([amount], 'the amount is read here'),
          },
        });
      }),
      // A check that looks for an earlier operation by its amount, its owner and its time: the
      // identity of "already done" is the amount, wherever the key of the write comes from.
      'Program:exit'() {
        const operations = analysis.allOperations();
        if (!operations.some((operation) => operation.kind === 'insert' || operation.kind === 'upsert')) return;
        for (const read of operations) {
          // Cheapest first: whether the read decides an insert, and only then what it matches
          // (which may mean parsing its SQL).
          if (read.kind !== 'read') continue;
          const write = insertDecidedBy(read, analysis);
          if (!write || !read.filters || read.filters.length < 2) continue;
          const facts = read.filters.flatMap((filter) => matchedFacts(filter, analysis.tracer, analysis.file));
          const amount = amountIdentity(facts);
          // An amount alone may be a value looked up (a price of 500); a row that is an amount (a price, a fee) is found by it.
          if (
            !amount ||
            !facts.some((fact) => fact.kind === 'scope' || fact.kind === 'time') ||
            read.targets.some((target) => names.meaning(target) === 'amount')
          )
            continue;
          context.report({
            node: read.node,
            messageId: 'amountCheck',
            data: {
              read: read.label,
              write: write.label,
              amount: describeFact(amount),
              others: narrowedBy(facts),
              origin: originAt(write.node),
              originNote: 'the insert it decides is here',
            },
          });
        }
      },
    };
  },
});
