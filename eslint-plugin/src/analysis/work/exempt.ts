import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../context/file-context.js';
import { isIdempotencyField } from '../keys/named-keys.js';
import { providerCallAt } from '../keys/provider-calls.js';
import { namesMessageIdentity } from '../naming/names.js';
import { objectLiteral } from '../operations/fields.js';
import { OriginTracer } from '../origin/origin.js';
import { rememberedThisLint } from '../project/files.js';
import { keyName, memberPath } from '../syntax/nodes.js';
import { constantInitializer } from '../syntax/scope.js';
import { sends } from './messages.js';
import { reachesOwnServer } from './requests.js';

/**
 * A call whose repeat the analysis never counts as work: it carries an idempotency key, it reaches
 * the project's own server (its handler's work, judged there), or it copies a message to a dead
 * letter.
 */
export function excluded(call: TSESTree.CallExpression, file: FileContext): boolean {
  return carriesIdempotencyKey(call, file) || reachesOwnServer(call, file) || toDeadLetter(call, file);
}

const deadLetter = /dead[\W_]?letter|(^|[^a-z])dlq([^a-z]|$)/i;
const destinationFields = /queue|topic|stream|subject|channel|exchange|destination/i;

/**
 * `xAdd(`${stream}:dead-letter`, …)`, `sendMessage({ QueueUrl: DLQ_URL, … })`: a message that
 * failed, copied where someone will inspect it. A second copy repeats nothing the message asked for.
 */
function toDeadLetter(call: TSESTree.CallExpression, file: FileContext): boolean {
  const names = (node: TSESTree.Node): boolean => {
    if (node.type === 'ObjectExpression')
      return node.properties.some(
        (property) =>
          property.type === 'Property' && destinationFields.test(file.code(property.key)) && names(property.value),
      );
    const value = node.type === 'Identifier' ? constantInitializer(node, file.scopeOf(node)) : undefined;
    return deadLetter.test(file.code(node)) || (value !== undefined && deadLetter.test(file.code(value)));
  };
  return call.arguments.some(names);
}

/**
 * `stripe.refunds.create(…, { idempotencyKey })`, a PayPal payout with its `sender_batch_id`: a
 * call that carries its own idempotency key is settled by the service it calls (whether that key
 * is right is no-delivery-id-effect-key's question), so a record written after it is bookkeeping.
 * The key is known as the effect-key finder knows it: by its name, or as the field the providers'
 * table names for the call or for the request body around it.
 */
function carriesIdempotencyKey(call: TSESTree.CallExpression, file: FileContext): boolean {
  if (providerCallAt(call, file)?.keyed === true) return true;
  let message: boolean | undefined;
  const keyed = (node: TSESTree.Node, depth: number): boolean => {
    // A batch of messages (`messages: [{ … }]`), and a payload written out as JSON, hold their fields.
    if (node.type === 'ArrayExpression')
      return node.elements.some((element) => element?.type !== 'SpreadElement' && element && keyed(element, depth));
    if (node.type === 'CallExpression' && memberPath(node.callee)?.join('.') === 'JSON.stringify' && node.arguments[0])
      return keyed(node.arguments[0], depth);
    return (
      objectLiteral(node, file.scopeOf)?.properties.some(
        (property) =>
          property.type === 'Property' &&
          (isIdempotencyField(property, file.libraries) ||
            (steadyMessageId(property, file) && (message ??= sends(call, file))) ||
            (depth < 2 && keyed(property.value, depth + 1))),
      ) === true
    );
  };
  return call.arguments.some((argument) => keyed(argument, 0));
}

/**
 * `eventId: \`reserve-stock-${orderId}\``: a message's own id made from the operation, or handed on
 * from the delivery being handled, the same on every run. A consumer that claims the ids of its
 * messages refuses the copy a repeat sends, as a provider refuses a repeated idempotency key; a
 * fresh id (`randomUUID()`) makes every copy a new message.
 */
function steadyMessageId(property: TSESTree.Property, file: FileContext): boolean {
  const name = keyName(property);
  if (name === undefined || !namesMessageIdentity(name)) return false;
  const facts = tracerOf(file).scalars(property.value);
  return (
    facts.some((fact) => fact.kind === 'business' || fact.kind === 'delivery') &&
    facts.every((fact) => fact.kind !== 'minted' && fact.kind !== 'worker' && fact.kind !== 'unknown')
  );
}

/** A tracer of each module asked, for one lint: its budget of steps is spent on that lint alone. */
const tracerOf = rememberedThisLint((file: FileContext) => new OriginTracer(file));
