import type { TSESTree } from '@typescript-eslint/utils';

import { leaf, type Leaf } from '../origin/facts.js';
import type { FileContext } from '../context/file-context.js';
import type { LibraryTable } from '../context/library-table.js';
import { soundsLikeClaimStore, storesDeliveries, words, type NameJudge } from '../naming/names.js';
import type { DataOperation, Field } from '../operations/index.js';
import type { OriginTracer } from '../origin/origin.js';
import { providerKeyField } from './provider-calls.js';
import { calleeName, keyName, memberPath, propertyName } from '../syntax/nodes.js';

/**
 * The keys that make an effect repeat-safe, wherever the code writes them: the key column of an
 * INSERT or upsert, the unique `where` of an ORM upsert, an `idempotencyKey` option, an
 * `Idempotency-Key` header, a Redis key set with NX. Writes that only record which deliveries
 * were handled (inbox claims) are told apart: a delivery id is the right key there.
 */

export interface EffectKey {
  /** Where a finding is reported: the expression that fills the key. */
  node: TSESTree.Node;
  /** The expressions the key is built from. */
  values: TSESTree.Node[];
  /** SQL functions that build the key (`gen_random_uuid()`). */
  functions: string[];
  /** "the key column `effect_id` of the INSERT into effects". */
  description: string;
  /**
   * `explicit`: the code says this key decides duplicates (a conflict target, an idempotency key).
   * `row`: the key of a row an effect writes (its id), which a repeat would duplicate.
   */
  strength: 'explicit' | 'row';
  /** An idempotency key handed to another system (an option, a header), not a column of our own. */
  external: boolean;
  /**
   * The object holding an external key is returned or yielded to the caller, not handed to a call
   * here: which request it reaches, and how often it is made for one, is the caller's to say.
   */
  givenBack?: boolean;
  /** Whether the write is an inbox claim (it records that a delivery was handled, nothing else); asked last, it traces every field. */
  isClaim(): boolean;
  /** What the key is built from when no expression holds it (a key named by a path): used instead of tracing `values`. */
  knownFacts?: Leaf[];
  /**
   * A binding the code names as an idempotency key (`const idempotencyKey = …`): what it keys is
   * decided where it is used, so only what the value itself shows is judged here.
   */
  named?: true;
  /** The name the code gives the key (a column, an option, a header, a binding), when it gives one. */
  name?: string;
  /** The write whose column the key is. */
  operation?: DataOperation;
}

const mintingSqlFunctions = new Set([
  'gen_random_uuid',
  'uuid_generate_v1',
  'uuid_generate_v4',
  'uuid_generate_v7',
  'uuidv4',
  'uuidv7',
  'random',
  'now',
  'clock_timestamp',
  'txid_current',
  'nextval',
]);
const bareKeyNames = new Set(['id', '_id', 'uuid', 'pk', 'key', '#1']);
const effectNouns = new Set(['effect', 'operation', 'entry', 'ledger', 'record', 'row']);

/** The SQL functions of a key as facts: `gen_random_uuid()` is new on every run. */
export function sqlFunctionFacts(functions: readonly string[]): Leaf[] {
  return functions
    .filter((name) => mintingSqlFunctions.has(name))
    .map((name) =>
      leaf(
        'minted',
        `${name}()`,
        name === 'now' || name === 'clock_timestamp' ? 'the current time' : 'a new value on every run',
      ),
    );
}

function singular(name: string): string {
  return name.replace(/ies$/, 'y').replace(/(?<!s)s$/, '');
}

/** Does a field name say it identifies the write itself (rather than pointing elsewhere)? */
function keyStrength(names: NameJudge, name: string, index: number, target: string): EffectKey['strength'] | undefined {
  const parts = words(name);
  if (parts.some((word) => /^(idempoten|dedup)/.test(word)) || (parts.length > 1 && parts[parts.length - 1] === 'key'))
    return 'explicit';
  if (bareKeyNames.has(name.toLowerCase())) return 'row';
  const meaning = names.meaning(name);
  // A column that names the delivery (message_id, job_id) records it for diagnosis.
  if (meaning === 'delivery' || meaning === 'worker' || meaning === 'scope') return undefined;
  if (meaning !== 'business') return undefined;
  const nouns = parts.slice(0, -1);
  if (nouns.join('_') === singular(target) || nouns.some((word) => effectNouns.has(word))) return 'row';
  return index === 0 ? 'row' : undefined;
}

/** Is `column` alone a unique key of `target` in the project's schema? Asked only of fields the names leave out. */
export type UniqueColumn = (target: string, column: string) => boolean;

/** A name that could hold a reference to the write itself (`reference`, `txRef`), not a delivery, a worker, an owner, an amount or a time. */
function referenceLike(names: NameJudge, name: string): boolean {
  const meaning = names.meaning(name);
  return meaning === 'business' || meaning === 'identifier';
}

function keyFields(
  operation: DataOperation,
  table: LibraryTable,
  unique?: UniqueColumn,
): { field: Field; strength: EffectKey['strength'] }[] {
  const target = operation.targets[0] ?? '';
  // A plain SET stores state under a key; only SET … NX uses its key to refuse repeats.
  if (wholeKey(operation, table) && !operation.arbitrated) return [];
  if (operation.conflictTarget && operation.conflictTarget.length > 0) {
    // Each named key once: an upsert repeats its key in `where` and in `create`.
    const names = new Set(operation.conflictTarget.map((name) => name.toLowerCase()));
    return operation.fields.flatMap((field) =>
      names.delete(field.name.toLowerCase()) ? [{ field, strength: 'explicit' as const }] : [],
    );
  }
  return operation.fields.flatMap((field, index) => {
    // A column the schema makes unique on its own refuses a second row with its value, whatever it is named.
    const strength =
      keyStrength(table.names, field.name, index, target) ??
      (operation.kind === 'insert' && referenceLike(table.names, field.name) && unique?.(target, field.name)
        ? 'explicit'
        : undefined);
    return strength ? [{ field, strength }] : [];
  });
}

const deliveryRecordKinds = new Set(['delivery', 'minted', 'worker', 'time']);
const contentMeanings = new Set(['amount', 'business', 'scope', 'currency']);

/**
 * An inbox claim: a write to a processed-messages store, or a row that records nothing but the
 * delivery (its id, when it arrived, who took it, a constant status).
 */
function isClaim(operation: DataOperation, tracer: OriginTracer, names: NameJudge): boolean {
  if (operation.claim) return true;
  if (operation.targets.some((target) => soundsLikeClaimStore(target) || storesDeliveries(target))) return true;
  let sawDelivery = false;
  for (const field of operation.fields) {
    const facts = [...field.values.flatMap((value) => tracer.scalars(value)), ...sqlFunctionFacts(field.functions)];
    sawDelivery ||= facts.some((fact) => fact.kind === 'delivery');
    const recordsDelivery = facts.every((fact) => deliveryRecordKinds.has(fact.kind));
    const constantStatus =
      facts.every((fact) => fact.kind === 'constant') && !contentMeanings.has(names.meaning(field.name));
    if (!recordsDelivery && !constantStatus) return false;
  }
  return sawDelivery;
}

/** Everything an inbox claim records, as facts; undefined when the write is not a claim. */
export function claimedFacts(operation: DataOperation, tracer: OriginTracer, file: FileContext): Leaf[] | undefined {
  if (operation.kind !== 'insert' && operation.kind !== 'upsert') return undefined;
  if (!isClaim(operation, tracer, file.libraries.names)) return undefined;
  return operation.fields.flatMap((field) => [
    ...field.values.flatMap((value) => tracer.scalars(value)),
    ...sqlFunctionFacts(field.functions),
  ]);
}

function wholeKey(operation: DataOperation, table: LibraryTable): boolean {
  return table.dataAdapter(operation.library)?.keyPolicy === 'whole-key';
}

function describeField(operation: DataOperation, field: Field, table: LibraryTable): string {
  if (wholeKey(operation, table)) return `the key of ${operation.label}`;
  const name = field.name.startsWith('#') ? `column ${field.name.slice(1)}` : `'${field.name}'`;
  return `the key ${name} of ${operation.label}`;
}

export function effectKeysOfOperation(
  operation: DataOperation,
  tracer: OriginTracer,
  file: FileContext,
  unique?: UniqueColumn,
): EffectKey[] {
  if (operation.kind !== 'insert' && operation.kind !== 'upsert') return [];
  const table = file.libraries;
  const fields = keyFields(operation, table, unique);
  if (fields.length === 0) return [];
  let claim: boolean | undefined;
  const claimOnce = () => (claim ??= isClaim(operation, tracer, table.names));
  return fields.flatMap(({ field, strength }) => {
    if (field.values.length === 0 && field.functions.length === 0) return [];
    return [
      {
        node: field.values[0] ?? operation.node,
        values: field.values,
        functions: field.functions,
        description: describeField(operation, field, table),
        name: field.name,
        operation,
        strength,
        external: false,
        isClaim: claimOnce,
      },
    ];
  });
}

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

const objectParts = new Set([
  'Property',
  'ObjectExpression',
  'ArrayExpression',
  'TSAsExpression',
  'TSSatisfiesExpression',
  'TSNonNullExpression',
]);

/** Is this object, or the literal it sits in, what its function returns? */
function isGivenBack(object: TSESTree.ObjectExpression): boolean {
  let current: TSESTree.Node = object;
  while (current.parent && objectParts.has(current.parent.type)) current = current.parent;
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
    isClaim: () => false,
  };
}

const headerSetters = new Set(['set', 'append', 'setHeader', 'header']);

/** `headers.set('Idempotency-Key', …)`, `request.setHeader(…)`, `headers['Idempotency-Key'] = …`. */
export function effectKeyOfHeaderCall(
  node: TSESTree.CallExpression | TSESTree.AssignmentExpression,
): EffectKey | undefined {
  let name: string | undefined;
  let value: TSESTree.Node | undefined;
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
    name = propertyName(node.left);
    value = node.right;
  }
  if (!name || !value || value.type === 'SpreadElement' || !idempotencyKeyName.test(name)) return undefined;
  return {
    node: value,
    values: [value],
    functions: [],
    description: `the '${name}' header`,
    name,
    strength: 'explicit',
    external: true,
    isClaim: () => false,
  };
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
