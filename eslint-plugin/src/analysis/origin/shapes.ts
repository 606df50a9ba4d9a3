import type { MemberSpec, ShapeId, ShapeSpec } from '../contract/adapter.js';
import { asCertainAs, guessed, leaf, listOf, shaped, type Fact, type Shaped } from './facts.js';
import { type LeafKind } from '../contract/adapter.js';
import type { LibraryTable } from '../context/library-table.js';
import type { NameMeaning } from '../naming/names.js';

/**
 * Members of shaped values. Adapters describe their shapes in tables (which members of a Kafka
 * message identify the delivery, which hold its content); the analysis's own shapes are the
 * content: a parsed `payload`, producer-set `headers` (both judged by their names) and a raw
 * `body` (opaque until parsed).
 */

const meaningToKind: Record<NameMeaning, LeafKind | undefined> = {
  delivery: 'delivery',
  worker: 'worker',
  amount: 'amount',
  currency: 'currency',
  time: 'time',
  scope: 'scope',
  business: 'business',
  identifier: undefined,
  other: undefined,
};

/** A value read by name only: `refund.id` is a business id, `event.cents` an amount. */
export function byName(table: LibraryTable, owner: string | undefined, name: string, code: string): Fact | undefined {
  const kind = meaningToKind[table.names.memberMeaning(owner, name)];
  if (!kind) return undefined;
  return kind === 'delivery' || kind === 'worker' ? guessed(leaf(kind, code, `named ${name}`)) : leaf(kind, code);
}

function lastWord(code: string): string | undefined {
  return /([A-Za-z_$][\w$]*)\s*$/.exec(code)?.[1];
}

/** The facts of a value an adapter's table describes. */
export function memberSpecFacts(spec: MemberSpec, code: string): Fact[] {
  return [fromSpec(spec, code)];
}

function fromSpec(spec: MemberSpec, code: string): Fact {
  if ('identity' in spec) return leaf('delivery', code, spec.identity);
  if ('shape' in spec) return shaped(spec.shape, code);
  if ('listOf' in spec) return listOf(spec.listOf, code);
  return leaf(spec.kind, code);
}

/** The member's spec in a shape's table, or in the tables it inherits from. */
function listedMember(table: LibraryTable, spec: ShapeSpec, name: string): MemberSpec | undefined {
  let current: ShapeSpec | undefined = spec;
  for (let depth = 0; current && depth < 4; depth += 1) {
    const member = Object.hasOwn(current.members ?? {}, name) ? current.members![name] : undefined;
    if (member) return member;
    current = current.inherits ? table.shape(current.inherits) : undefined;
  }
  return undefined;
}

/** `value.name` for a shaped value. */
export function memberOfShape(table: LibraryTable, owner: Shaped, name: string, code: string): Fact[] {
  const facts = memberOf(table, owner.shape, name, code, owner.code);
  const spec = owner.guessed ? table.shape(owner.shape) : undefined;
  const member = spec && listedMember(table, spec, name);
  // A member only the guessed platform has: the code spells its structure, the guess stands.
  if (member && 'listOf' in member && member.confirms) return facts;
  return facts.map((fact) => asCertainAs(fact, owner));
}

function memberOf(table: LibraryTable, shape: ShapeId, name: string, code: string, ownerCode: string): Fact[] {
  switch (shape) {
    case 'payload':
    case 'headers':
      // Anything not named like an id or an amount may be a nested object of the payload.
      return [byName(table, lastWord(ownerCode), name, code) ?? shaped('payload', code)];
    case 'body':
      return [leaf('unknown', code)];
  }
  const spec = table.shape(shape);
  if (!spec) return [leaf('unknown', code)];
  const member = listedMember(table, spec, name);
  if (member) return [fromSpec(member, code)];
  if (spec.otherMembers === 'opaque') return [leaf('unknown', code)];
  const named = byName(table, undefined, name, code);
  if (named) return [named];
  return [spec.otherMembers === 'unknown' ? leaf('unknown', code) : shaped('payload', code)];
}

/** `value.method(…)` for a shaped value, when the shape says what the method returns. */
export function callOnShape(table: LibraryTable, owner: Shaped, method: string, code: string): Fact[] | undefined {
  // Turning a raw body into text keeps it the body: JSON.parse of it is the payload.
  if (owner.shape === 'body')
    return method === 'toString' || method === 'toJSON' ? [asCertainAs(shaped('body', code), owner)] : undefined;
  const spec = table.shape(owner.shape)?.methods;
  const member = spec && Object.hasOwn(spec, method) ? spec[method] : undefined;
  return member ? [asCertainAs(fromSpec(member, code), owner)] : undefined;
}

/** An element of a shaped value: by position when the shape lists positions (`[id, fields]`). */
export function elementOfShape(table: LibraryTable, owner: Shaped, index: number | undefined, code: string): Fact[] {
  const spec = table.shape(owner.shape);
  const positioned = index !== undefined ? spec?.positions?.[index] : undefined;
  if (positioned) return [asCertainAs(fromSpec(positioned, code), owner)];
  if (spec?.elements) return [asCertainAs(fromSpec(spec.elements, code), owner)];
  return memberOfShape(table, owner, String(index ?? 0), code);
}
