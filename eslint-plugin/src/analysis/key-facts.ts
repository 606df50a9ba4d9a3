import type { EffectKey } from './effect-keys.js';
import { sqlFunctionFacts } from './effect-keys.js';
import type { Leaf } from './facts.js';
import type { OriginTracer } from './origin.js';

/** Everything an effect key is built from, as facts. */
export function keyFacts(key: EffectKey, tracer: OriginTracer): Leaf[] {
  if (key.knownFacts) return key.knownFacts;
  return [...key.values.flatMap((value) => tracer.scalars(value)), ...sqlFunctionFacts(key.functions)];
}

/** "the Kafka offset 'message.offset'": how a fact is named in a message (plain text, quoted as ESLint's own messages quote names). */
export function describeFact(fact: Leaf): string {
  const named = fact.what && !fact.what.startsWith('named ') ? `${fact.what} '${fact.code}'` : `'${fact.code}'`;
  return fact.at ? `${named} on line ${fact.at.line}` : named;
}

/** `12:4`: where the first located fact was read, for the `origin` of a report's data (1-based line and column). */
export function originOf(facts: readonly Leaf[]): string | undefined {
  const at = facts.find((fact) => fact.at)?.at;
  return at ? `${at.line}:${at.column + 1}` : undefined;
}

/**
 * Messages start with the description of what they are about: "The key `effect_id` of …". Only
 * our own words are capitalised; a description that starts with code (`prisma.user.create()`)
 * keeps the code as written.
 */
export function capitalised(text: string): string {
  return /^(the|a|an) /.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

/** "a", "a and b", "a, b and c" (at most three, then "and others"). */
export function listed(items: readonly string[]): string {
  const shown = items.length > 3 ? [...items.slice(0, 3), 'others'] : items;
  return shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}
