import path from 'node:path';

import type { TSESTree } from '@typescript-eslint/utils';

import { effectKeyListeners, handedKeys, type HandedKey } from '../lint/effect-key-listeners.js';
import { analysisFor, type TracedKey } from '../lint/file-analysis.js';
import type { Leaf } from '../analysis/origin/facts.js';
import { describeFacts, originOf } from '../analysis/keys/key-facts.js';
import { namesIdempotencyKey } from '../analysis/keys/named-keys.js';
import { reusedByRetries } from '../analysis/control/retries.js';
import { besideSingleUseBill, freshKeyMatters } from '../lint/stakes.js';
import { namesRecipientOrCatalogue, readName } from '../analysis/naming/names.js';
import { createRule } from '../create-rule.js';
import { spans } from '../analysis/syntax/nodes.js';
import type { OriginTracer } from '../analysis/origin/origin.js';

export const noDeliveryIdEffectKey = createRule({
  name: 'no-delivery-id-effect-key',
  meta: {
    type: 'problem',
    messages: {
      deliveryKey: 'Effect key from the delivery, not the operation: {{key}} comes from {{source}}.',
      mintedKey:
        'Effect key made fresh on every attempt: {{key}} comes from {{source}}, so a retry never matches the first try.',
      mixedKey:
        'Effect key with a fresh part: {{key}} names the operation ({{named}}) but adds {{source}}, so a retry never matches the first try.',
      workerKey:
        'Effect key from the worker: {{key}} comes from {{source}}, so another worker makes another key for the same message.',
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
    // A row another unique key keeps to one per operation (`@@unique([reservationId])` beside
    // `idempotencyKey: \`payout_${Date.now()}_${reservationId}\``) is written once: its fresh key is
    // minted once and stored, and whatever sends it later sends the same one.
    const rowKeptOnce = (key: TracedKey, tracer: OriginTracer) => {
      const operation = key.operation;
      if (!operation || key.name === undefined) return false;
      // A schema file that could not be read may hold that key: unknown, so no finding rests on it.
      if (operation.targets.some((target) => analysis.schema().unreadableMayDeclare(target))) return true;
      const steady = operation.fields
        .filter((field) => field.name !== key.name && field.values.length > 0)
        .filter((field) => field.values.every((value) => !tracer.scalars(value).some((fact) => fact.kind === 'minted')))
        .map((field) => field.name);
      return (
        steady.length > 0 &&
        operation.targets.some((target) => analysis.schema().keyWithin(target, steady) !== undefined)
      );
    };
    const keys: TracedKey[] = [];
    const calls: TSESTree.CallExpression[] = [];
    // A fresh value is reported once, where it is first used as a key: one value, one fix.
    const reported = new Set<string>();
    const place = (fact: Leaf) =>
      fact.at && !fact.at.file ? `${fact.at.line}:${fact.at.column}:${fact.code}` : undefined;
    const judge = (key: TracedKey, handed?: HandedKey) => {
      const facts = key.facts;
      const fresh = facts.filter((fact) => fact.kind === 'minted' && certain(fact) && !fact.fallback);
      // A fresh value joined to what names the operation (`refund-${paymentId}-${Date.now()}`) in
      // a key meant to catch repeats: the business part says the key should be the same on a
      // retry, the fresh part makes it differ. Who the operation is for counts as naming it only
      // where the name says idempotency; a unique column needs the operation itself, and what is
      // bought or who receives it does not name one (two purchases of one item share the item):
      // joined with a fresh value, it makes each new row's own id.
      const meant = key.name !== undefined && namesIdempotencyKey(key.name);
      const naming = facts.filter(
        (fact) =>
          (fact.kind === 'business' && (meant || !namesRecipientOrCatalogue(readName(fact.code)))) ||
          (meant && fact.kind === 'scope'),
      );
      const mixed =
        key.strength === 'explicit' &&
        fresh.length > 0 &&
        naming.length > 0 &&
        !rowKeptOnce(key, handed?.tracer ?? analysis.tracer);
      // A fresh random id is an ordinary row id; it is wrong only where it is meant to catch
      // repeats: as another system's idempotency key handed to a call anywhere, as any dedupe key
      // while a delivery is handled, as a key that also names the operation. Options returned to
      // callers are judged where they are used; a key the code's own retry loop sends again is the
      // same for each of its tries. Outside a delivery, a second request with another key matters
      // where the effect moves money or takes a seat. A Lightning invoice beside the key settles
      // repeats itself: it can be paid once.
      const mintedMatters = () => {
        if (key.strength !== 'explicit' || besideSingleUseBill(key)) return false;
        if (analysis.servesDelivery(handed?.call ?? key.node)) return !key.named || mixed;
        const sent = mixed || (!key.named && key.external && !key.givenBack);
        const retried = handed
          ? handed.call.arguments.some((argument) => reusedByRetries(argument, fresh, analysis.file))
          : reusedByRetries(key.node, fresh, analysis.file);
        return sent && !retried && freshKeyMatters(key, handed?.module ?? analysis.file);
      };
      const kind = (['delivery', 'worker', 'minted'] as const).find(
        (candidate) =>
          facts.some((fact) => fact.kind === candidate && certain(fact) && !fact.fallback) &&
          (candidate !== 'minted' || mintedMatters()),
      );
      // A claim records which deliveries were handled: there, the delivery's id is the right key.
      // A binding named as a key is judged only for what it mixes: its use decides the rest.
      if (!kind || key.isClaim() || (key.named && kind !== 'minted')) return;
      const origins = facts.filter((fact) => fact.kind === kind && certain(fact) && !fact.fallback);
      // A key another module builds from what this call hands it is this file's finding only
      // for values made here: that module reports what it makes itself.
      if (handed && origins.some((fact) => !fact.at || fact.at.file)) return;
      if (kind === 'minted') {
        const places = origins.map(place);
        if (places.every((at) => at !== undefined && reported.has(at))) return;
        for (const at of places) if (at) reported.add(at);
      }
      const messageId =
        kind === 'delivery' ? 'deliveryKey' : kind === 'worker' ? 'workerKey' : mixed ? 'mixedKey' : 'mintedKey';
      context.report({
        node: handed ? argumentHolding(handed.call, origins) : key.node,
        messageId,
        data: {
          key: handed ? handedDescription(handed, analysis.file.code(handed.call.callee)) : key.description,
          source: describeFacts(origins),
          named: describeFacts(naming),
          ...originOf(origins, 'the value is read here'),
        },
      });
    };
    return {
      ...effectKeyListeners(context, (key) => keys.push(key)),
      'CallExpression:exit'(node) {
        if (node.arguments.length > 0) calls.push(node);
      },
      'Program:exit'() {
        for (const key of keys) judge(key);
        for (const call of calls) for (const handed of handedKeys(call, analysis)) judge(handed.key, handed);
      },
    };
  },
});

/** The argument of `call` that holds the first of `facts`, and in an object the property that does. */
function argumentHolding(call: TSESTree.CallExpression, facts: readonly Leaf[]): TSESTree.Node {
  const at = facts.find((fact) => fact.at)?.at;
  const holds = (node: TSESTree.Node) => at !== undefined && spans(node, at);
  let found: TSESTree.Node = call.arguments.find(holds) ?? call;
  while (found.type === 'ObjectExpression') {
    const property: TSESTree.Node | undefined = found.properties.find(holds);
    if (!property) break;
    found = property;
  }
  return found;
}

/** "the 'idempotencyKey' option of reverseTax() on line 985 of stripe.ts": a key in the function a call runs. */
function handedDescription(handed: HandedKey, callee: string): string {
  const line = handed.key.node.loc.start.line;
  return `${handed.key.description} of ${callee}() on line ${line} of ${path.basename(handed.module.filename)}`;
}
