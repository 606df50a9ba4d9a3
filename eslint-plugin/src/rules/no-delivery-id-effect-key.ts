import { effectKeyListeners } from '../lint/effect-key-listeners.js';
import { analysisFor, type TracedKey } from '../lint/file-analysis.js';
import type { Leaf } from '../analysis/origin/facts.js';
import { describeFacts, originOf } from '../analysis/keys/key-facts.js';
import { createRule } from '../create-rule.js';

export const noDeliveryIdEffectKey = createRule({
  name: 'no-delivery-id-effect-key',
  meta: {
    type: 'problem',
    messages: {
      deliveryKey: "Effect key from the delivery, not the operation: {{key}} comes from {{source}}.",
      mintedKey: "Effect key made fresh on every attempt: {{key}} comes from {{source}}, so a retry never matches the first try.",
      workerKey: "Effect key from the worker: {{key}} comes from {{source}}, so another worker makes another key for the same message.",
    },

    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const analysis = analysisFor(context);
    // Where a value comes from makes a finding. A name (`messageId`) alone never does, unless the
    // code itself claims that value in its inbox, which says it identifies the delivery.
    // The claims are known once every call of the file has been seen, so keys are judged at the end.
    const certain = (fact: Leaf) => !fact.guessed || analysis.claimedValues().has(fact.code);
    const keys: TracedKey[] = [];
    const judge = (key: TracedKey) => {
      const facts = key.facts;
      // A fresh random id is an ordinary row id; it is wrong only where it is meant to catch
      // repeats: as another system's idempotency key handed to a call anywhere, as any dedupe key
      // while a delivery is handled. Options returned to callers are judged where they are used.
      const mintedMatters = () => key.strength === 'explicit' && ((key.external && !key.givenBack) || analysis.servesDelivery(key.node));
      const kind = (['delivery', 'worker', 'minted'] as const).find(
        (candidate) => facts.some((fact) => fact.kind === candidate && certain(fact) && !fact.fallback) && (candidate !== 'minted' || mintedMatters()),
      );
      // A claim records which deliveries were handled: there, the delivery's id is the right key.
      if (!kind || key.isClaim()) return;
      const origins = facts.filter((fact) => fact.kind === kind && certain(fact) && !fact.fallback);
      context.report({
        node: key.node,
        messageId: kind === 'delivery' ? 'deliveryKey' : kind === 'worker' ? 'workerKey' : 'mintedKey',
        // `origin` and `originNote` are for tools that show where the value was read (the editor's related information).
        data: { key: key.description, source: describeFacts(origins), origin: originOf(origins) ?? '', originNote: 'the value is read here' },
      });
    };
    return {
      ...effectKeyListeners(context, (key) => keys.push(key)),
      'Program:exit'() {
        for (const key of keys) judge(key);
      },
    };
  },
});
