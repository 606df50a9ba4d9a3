import type { TSESTree } from '@typescript-eslint/utils';

import type { LibraryTable } from '../context/library-table.js';
import { words } from '../naming/names.js';
import type { EffectKey } from './effect-keys.js';
import { providerKeyField } from './provider-calls.js';
import { calleeName, enclosingLiteral, keyName, memberPath, propertyName } from '../syntax/nodes.js';
import { variableOf } from '../syntax/scope.js';
import type { ScopeOf } from '../syntax/static-text.js';

/**
 * Keys the code names outside a database write: an `idempotencyKey` option or a provider's own
 * key field, an `Idempotency-Key` header, a binding named as a key. The keys of writes themselves
 * are effect-keys.ts's.
 */

export const idempotencyKeyName = /^(x-)?(idempotency|idempotent|dedupe?|deduplication)[-_ ]?(key|id|token)$/i;

/**
 * Is this property a field a service settles repeats by: an `idempotencyKey` option or header
 * by its name, or a provider's own field from the providers' table (`sender_batch_id` in a PayPal
 * payout's batch header)? The one answer for every rule that asks whether a request is keyed.
 */
export function isIdempotencyField(property: TSESTree.Property, table: LibraryTable): boolean {
  const name = keyName(property);
  return name !== undefined && (idempotencyKeyName.test(name) || providerKeyField(property, table) !== undefined);
}

/**
 * Is this object a message being sent rather than the options of an effect? A producer that mints
 * an idempotency key into the message it publishes does the right thing: the key is made once, at
 * the source, and every delivery of that message carries the same one.
 */
function isOutgoingMessage(object: TSESTree.ObjectExpression, table: LibraryTable): boolean {
  let current: TSESTree.Node = object;
  for (let depth = 0; depth < 8 && current.parent; depth += 1) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === 'NewExpression') {
      const name = calleeName(parent.callee) ?? '';
      return table.sendCommands.some((pattern) => pattern.test(name));
    }
    if (parent.type === 'CallExpression') {
      const name = calleeName(parent.callee);
      if (!name) return false;
      if (table.sendMethods.has(name)) return true;
      const receivers = table.sendReceiverMethods.get(name);
      if (!receivers) return false;
      // A producer's send, a queue client's send: the receiver says what sends.
      const receiver =
        parent.callee.type === 'MemberExpression' ? (memberPath(parent.callee.object)?.join('.') ?? '') : '';
      return receivers.some((pattern) => pattern.test(receiver));
    }
    if (parent.type !== 'Property' && parent.type !== 'ObjectExpression' && parent.type !== 'ArrayExpression')
      return false;
    current = parent;
  }
  return false;
}

const logMethods =
  /^(log|info|debug|warn|warning|error|trace|fatal|verbose|notice|captureMessage|captureException|addBreadcrumb)$/;

/** `logger.info({ idempotencyKey, … })`: an object written to a log describes an effect, it does not make one. */
function isLogLine(object: TSESTree.ObjectExpression): boolean {
  let current: TSESTree.Node = object;
  for (let depth = 0; depth < 6 && current.parent; depth += 1) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === 'CallExpression') return logMethods.test(calleeName(parent.callee) ?? '');
    if (parent.type !== 'Property' && parent.type !== 'ObjectExpression' && parent.type !== 'ArrayExpression')
      return false;
    current = parent;
  }
  return false;
}

/** Is this object, or the literal it sits in, what its function returns? */
function isGivenBack(object: TSESTree.ObjectExpression): boolean {
  const current = enclosingLiteral(object);
  const parent = current.parent;
  return parent?.type === 'ReturnStatement' || (parent?.type === 'ArrowFunctionExpression' && parent.body === current);
}

/**
 * Is this object one of a list of records handed over together (`addRaw([{ idempotency_key, … }])`)?
 * Then its key is the record's own, made where the record is made and carried by every retry of
 * the hand-over, as a producer's key travels with its message; options are never list elements.
 */
function isRecordOfBatch(object: TSESTree.ObjectExpression): boolean {
  return object.parent?.type === 'ArrayExpression';
}

/**
 * `{ idempotencyKey: … }` and `{ 'Idempotency-Key': … }`, in options and headers alike, and the
 * fields providers settle repeats by (`sender_batch_id` in a PayPal payout's batch header).
 */
export function effectKeyOfProperty(property: TSESTree.Property, table: LibraryTable): EffectKey | undefined {
  const name = keyName(property);
  if (!name || property.value.type === 'AssignmentPattern' || !isIdempotencyField(property, table)) return undefined;
  const provider = idempotencyKeyName.test(name) ? undefined : providerKeyField(property, table);
  if (
    property.parent?.type !== 'ObjectExpression' ||
    isOutgoingMessage(property.parent, table) ||
    isLogLine(property.parent) ||
    isRecordOfBatch(property.parent)
  )
    return undefined;
  return {
    node: property.value,
    values: [property.value],
    functions: [],
    description: provider
      ? `the '${name}' field (${provider.label})`
      : /-/.test(name)
        ? `the '${name}' header`
        : `the '${name}' option`,
    name,
    strength: 'explicit',
    external: true,
    givenBack: isGivenBack(property.parent),
    ...(provider ? { providerField: provider } : {}),
    isClaim: () => false,
  };
}

const headerSetters = new Set(['set', 'append', 'setHeader', 'header']);

/** `headers.set('Idempotency-Key', …)`, `request.setHeader(…)`, `headers['Idempotency-Key'] = …`. */
export function effectKeyOfHeaderCall(
  node: TSESTree.CallExpression | TSESTree.AssignmentExpression,
  scopeOf: ScopeOf,
): EffectKey | undefined {
  let name: string | undefined;
  let value: TSESTree.Node | undefined;
  let what = 'header';
  if (node.type === 'CallExpression') {
    const [header, argument] = node.arguments;
    if (
      !headerSetters.has(calleeName(node.callee) ?? '') ||
      header?.type !== 'Literal' ||
      typeof header.value !== 'string'
    )
      return undefined;
    name = header.value;
    value = argument;
  } else if (node.left.type === 'MemberExpression' && node.operator === '=') {
    // Headers are handed to another system; any other object only when the code passes it on.
    const headers = /header/i.test(memberPath(node.left.object)?.join('.') ?? '');
    if (!headers && !passedOnAfter(node.left, scopeOf)) return undefined;
    name = propertyName(node.left);
    value = node.right;
    if (!headers) what = 'field';
  }
  if (!name || !value || value.type === 'SpreadElement' || !idempotencyKeyName.test(name)) return undefined;
  return {
    node: value,
    values: [value],
    functions: [],
    description: `the '${name}' ${what}`,
    name,
    strength: 'explicit',
    external: true,
    isClaim: () => false,
  };
}

/**
 * Does the code pass the object a key is assigned into on, whole, after the assignment (as an
 * argument, a returned value, a property of another object)? A record kept in the function
 * (`result.idempotency_key = key`) sends nothing.
 */
function passedOnAfter(target: TSESTree.MemberExpression, scopeOf: ScopeOf): boolean {
  let root: TSESTree.Node = target.object;
  let steps = 0;
  for (; root.type === 'MemberExpression'; steps += 1) root = root.object;
  if (root.type !== 'Identifier') return true;
  const variable = variableOf(root, scopeOf(root));
  if (!variable) return true;
  return variable.references.some((reference) => {
    if (reference.identifier.range[0] <= target.range[1]) return false;
    // The same object again (`payload` for `payload.key = …`, `req.body` for `req.body.key = …`).
    let used: TSESTree.Node = reference.identifier;
    for (let step = 0; step < steps; step += 1) {
      if (used.parent?.type !== 'MemberExpression' || used.parent.object !== used) return false;
      used = used.parent;
    }
    // `result.jobId = …`, `result.status`: a field of it read or written, the object kept here.
    return !(used.parent?.type === 'MemberExpression' && used.parent.object === used);
  });
}

/** `idempotencyKey`, `refundDedupeKey`, `idem_token`: a name that says its value is meant to catch repeats. */
export function namesIdempotencyKey(name: string): boolean {
  if (idempotencyKeyName.test(name)) return true;
  const parts = words(name);
  const last = parts[parts.length - 1];
  return (
    parts.length > 1 &&
    (last === 'key' || last === 'id' || last === 'token') &&
    parts.some((word) => /^(idempoten|idem$|dedupe?$|deduplication)/.test(word))
  );
}

/**
 * `const idempotencyKey = …`, or `idempotencyKey = …` of a `let` (one value in a `try`, a
 * fallback in its `catch`): a key the code names, judged by what each value is built from.
 */
export function effectKeyOfBinding(
  binding: TSESTree.VariableDeclarator | TSESTree.AssignmentExpression,
): EffectKey | undefined {
  const [id, value] =
    binding.type === 'VariableDeclarator'
      ? [binding.id, binding.init]
      : binding.operator === '='
        ? [binding.left, binding.right]
        : [];
  if (id?.type !== 'Identifier' || !value || !namesIdempotencyKey(id.name)) return undefined;
  return {
    node: value,
    values: [value],
    functions: [],
    description: `the idempotency key '${id.name}'`,
    name: id.name,
    strength: 'explicit',
    external: false,
    named: true,
    isClaim: () => false,
  };
}
