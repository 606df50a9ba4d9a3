import path from 'node:path';

import type { EffectKey } from './effect-keys.js';
import { sqlFunctionFacts } from './effect-keys.js';
import { leaf, type Leaf } from '../origin/facts.js';
import { type LeafKind } from '../contract/adapter.js';
import type { FileContext } from '../context/file-context.js';
import { fieldsOf, objectLiteral } from '../operations/fields.js';
import type { Field } from '../contract/operation.js';
import type { OriginTracer } from '../origin/origin.js';

/** Everything an effect key is built from, as facts. */
export function keyFacts(key: EffectKey, tracer: OriginTracer): Leaf[] {
  if (key.knownFacts) return key.knownFacts;
  const facts: Leaf[] = [];
  for (const value of key.values) for (const fact of tracer.scalars(value)) facts.push(fact);
  if (key.functions.length > 0) for (const fact of sqlFunctionFacts(key.functions)) facts.push(fact);
  return facts;
}

/** Column meanings that say what a check matches on, whatever value it is given. */
const columnKinds = new Set<string>(['amount', 'currency', 'time', 'scope']);
/** Prisma-like operators: `{ gte: from, lte: to }` compares the column itself. */
const operators = /^(equals|not|in|notIn|lt|lte|gt|gte|between|contains|startsWith|endsWith)$/;

/**
 * What a check matches one column on, as facts: the column's own meaning when it names an
 * amount, a currency, a time or a scope (`createdAt: { gte, lte }` is a time window); a relation
 * (`customer: { stripeCustomerId }`) names its related row; otherwise the values matched.
 */
export function matchedFacts(field: Field, tracer: OriginTracer, file: FileContext, depth = 0): Leaf[] {
  const names = file.libraries.names;
  const meaning = names.meaning(field.name);
  if (columnKinds.has(meaning)) return [leaf(meaning as LeafKind, field.name)];
  if (field.values.length === 0) return [leaf('unknown', field.name)];
  return field.values.flatMap((value) => {
    const object = objectLiteral(value, file.scopeOf);
    if (!object) return tracer.scalars(value);
    const nested = fieldsOf(object, file.scopeOf);
    if (nested.length > 0 && nested.every((inner) => operators.test(inner.name)))
      return nested.flatMap((inner) => inner.values.flatMap((v) => tracer.scalars(v)));
    if (names.meaning(`${field.name}_id`) === 'scope') return [leaf('scope', field.name)];
    return depth < 2 && nested.length > 0
      ? nested.flatMap((inner) => matchedFacts(inner, tracer, file, depth + 1))
      : [leaf('unknown', field.name)];
  });
}

/**
 * "the Kafka offset 'message.offset' on line 19", "… on line 2 of keys.ts" when it was read in
 * another module: how a fact is named in a message (plain text, quoted as ESLint's own messages
 * quote names). An amount is named alone: its name is what the message is about.
 */
export function describeFact(fact: Leaf): string {
  const named = namedFact(fact);
  return fact.at && fact.kind !== 'amount' ? `${named} ${lineOf(fact.at)}` : named;
}

function namedFact(fact: Leaf): string {
  return fact.what && !fact.what.startsWith('named ') ? `${fact.what} '${fact.code}'` : `'${fact.code}'`;
}

function lineOf(at: NonNullable<Leaf['at']>): string {
  return at.file ? `on line ${at.line} of ${path.basename(at.file)}` : `on line ${at.line}`;
}

/** The facts as a list, the line said once when all were read on the same one: "the Kafka topic 'topic' and the Kafka offset 'message.offset' on line 19". */
export function describeFacts(facts: readonly Leaf[]): string {
  const lines = new Set(facts.map((fact) => fact.at && lineOf(fact.at)));
  const [line] = lines;
  if (lines.size === 1 && line !== undefined && facts.length > 1)
    return `${listed([...new Set(facts.map(namedFact))])} ${line}`;
  return listed([...new Set(facts.map(describeFact))]);
}

/**
 * Where the first located fact was read, as a report's data for tools that show it (the editor's
 * related information): `origin` (`12:4`, 1-based line and column, empty when no fact says),
 * `originFile` (an absolute path) when the place is in another module, and `originNote`.
 */
export function originOf(facts: readonly Leaf[], note: string): Record<string, string> {
  const at = facts.find((fact) => fact.at)?.at;
  if (!at) return { origin: '', originNote: note };
  return { origin: originAt({ loc: { start: at } }), ...(at.file ? { originFile: at.file } : {}), originNote: note };
}

/** `12:4` for where `node` starts, in the form of `originOf`. */
export function originAt(node: { loc: { start: { line: number; column: number } } }): string {
  return `${node.loc.start.line}:${node.loc.start.column + 1}`;
}

/** "a", "a and b", "a, b and c" (at most three, then "and others"). */
export function listed(items: readonly string[]): string {
  const shown = items.length > 3 ? [...items.slice(0, 3), 'others'] : items;
  return shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}
