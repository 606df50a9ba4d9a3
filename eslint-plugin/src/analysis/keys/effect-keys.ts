import type { TSESTree } from '@typescript-eslint/utils';

import { leaf, type Leaf } from '../origin/facts.js';
import type { ProviderKeyField } from '../contract/providers.js';
import type { FileContext } from '../context/file-context.js';
import type { LibraryTable } from '../context/library-table.js';
import { words, type NameJudge } from '../naming/names.js';
import { namesPlaceOrCredentialKey, soundsLikeClaimStore, storesDeliveries } from '../naming/stores.js';
import type { DataOperation, Field } from '../operations/index.js';
import type { OriginTracer } from '../origin/origin.js';
import { propertyName, resultIgnored, unwrapExpression } from '../syntax/nodes.js';

/**
 * The keys that make an effect repeat-safe, wherever the code writes them: the key column of an
 * INSERT or upsert, the unique `where` of an ORM upsert, a Redis key set with NX; an
 * `idempotencyKey` option or an `Idempotency-Key` header are named-keys.ts's. Writes that only
 * record which deliveries were handled (inbox claims) are told apart: a delivery id is the right
 * key there.
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
  /** The provider's field the key fills (PayPal's payout batch key), when it is one. */
  providerField?: ProviderKeyField;
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

const clockSqlFunctions = new Set(['now', 'clock_timestamp']);
/**
 * SQL functions that cut a time down to its period: `date_trunc('month', now())` is this month,
 * the same for every retry in it (`extract(epoch from now())` is no period).
 */
const periodSqlFunctions = new Set(['date_trunc', 'date_bin', 'date']);

/**
 * The SQL functions of a key as facts: `gen_random_uuid()` is new on every run, `now()` too unless
 * a period is cut from it.
 */
export function sqlFunctionFacts(functions: readonly string[]): Leaf[] {
  const period = functions.some((name) => periodSqlFunctions.has(name));
  return functions
    .filter((name) => mintingSqlFunctions.has(name) && !(period && clockSqlFunctions.has(name)))
    .map((name) =>
      leaf('minted', `${name}()`, clockSqlFunctions.has(name) ? 'the current time' : 'a new value on every run'),
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
  // A plain SET stores state under a key; only SET … NX uses its key to refuse repeats. An SADD
  // refuses a member twice, but one whose reply nobody reads only records it (a new crawl's id
  // in its team's set): it stores nothing under the key but the member.
  const member = operation.stored?.length === 0 && resultIgnored(operation.node);
  if (wholeKey(operation, table) && (!operation.arbitrated || member)) return [];
  if (operation.conflictTarget && operation.conflictTarget.length > 0) {
    // Each named key once: an upsert repeats its key in `where` and in `create`.
    const names = new Set(operation.conflictTarget.map((name) => name.toLowerCase()));
    const named: { field: Field; strength: EffectKey['strength'] }[] = [];
    for (const field of operation.fields)
      if (names.delete(field.name.toLowerCase())) named.push({ field, strength: 'explicit' });
    return named;
  }
  const found: { field: Field; strength: EffectKey['strength'] }[] = [];
  const fields = operation.fields;
  for (let index = 0; index < fields.length; index += 1) {
    const field = fields[index];
    // Where an object is stored, or a credential: a new one is new by design.
    if (namesPlaceOrCredentialKey(field.name)) continue;
    // A column the schema makes unique on its own refuses a second row with its value, whatever it is named.
    const strength =
      keyStrength(table.names, field.name, index, target) ??
      (operation.kind === 'insert' && referenceLike(table.names, field.name) && unique?.(target, field.name)
        ? 'explicit'
        : undefined);
    if (strength) found.push({ field, strength });
  }
  return found;
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

/** `JSON.stringify(record)`, as it is: not hashed into a fingerprint. */
function serialisedRecord(node: TSESTree.Node): boolean {
  const inner = unwrapExpression(node);
  return (
    inner.type === 'CallExpression' &&
    inner.callee.type === 'MemberExpression' &&
    inner.callee.object.type === 'Identifier' &&
    inner.callee.object.name === 'JSON' &&
    propertyName(inner.callee) === 'stringify'
  );
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
  const keys: EffectKey[] = [];
  for (const { field, strength } of fields) {
    if (field.values.length === 0 && field.functions.length === 0) continue;
    // A whole record serialised into a store (`sadd(key, JSON.stringify(position))`) is what it keeps, not a key.
    if (wholeKey(operation, table) && field.values.length === 1 && serialisedRecord(field.values[0])) continue;
    keys.push({
      node: field.values[0] ?? operation.node,
      values: field.values,
      functions: field.functions,
      description: describeField(operation, field, table),
      name: field.name,
      operation,
      strength,
      external: false,
      isClaim: claimOnce,
    });
  }
  return keys;
}
