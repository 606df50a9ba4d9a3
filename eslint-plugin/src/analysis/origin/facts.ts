import type { TSESTree } from '@typescript-eslint/utils';

import type { LeafKind, ShapeId } from '../contract/adapter.js';

/**
 * What is known about where a value comes from. A key is judged by the facts of everything it
 * is built from: `${refund.id}:${message.offset}` has a business fact and a delivery fact.
 */

export interface Leaf {
  kind: LeafKind;
  /**
   * Known only from a name (`messageId`, a parameter called `message`), not from where the value
   * comes from. Names may support a finding; they never make one.
   */
  guessed?: true;
  /** Used only when the value before it is missing (`given ?? randomUUID()`): a default, not the rule. */
  fallback?: true;
  /** The source text the value was read from, e.g. `message.offset`. */
  code: string;
  /** What it is, for messages: "the Kafka offset". */
  what?: string;
  /**
   * Where the value was read (1-based line, 0-based column), for the origin of a finding: in the
   * linted file, or in the project module `file` (an absolute path) when it was read there.
   */
  at?: { line: number; column: number; file?: string };
}

/** A value whose shape is known: a Kafka message, a parsed payload, a Lambda event. */
export interface Shaped {
  kind: 'shaped';
  /** Owned by the adapter that knows the shape (`kafkajs:message`), or one of the analysis's own (`payload`). */
  shape: ShapeId;
  code: string;
  guessed?: true;
}

export function shaped(shape: ShapeId, code: string): Shaped {
  return { kind: 'shaped', shape, code };
}

export function listOf(shape: ShapeId, code: string): ListOf {
  return { kind: 'list', elements: [shaped(shape, `${code}[]`)], code };
}

/** An object literal written in the code: its properties can be followed, in the module it is written in. */
export interface LiteralObject {
  kind: 'object';
  object: TSESTree.ObjectExpression;
  code: string;
  /** The facts of a property's value, read where the literal is written (a caller's module may be another). */
  follow(node: TSESTree.Node, depth: number): Fact[];
  guessed?: true;
}

/** A list whose elements are known (`batch.messages`, `event.Records`, `[a, b]`). */
export interface ListOf {
  kind: 'list';
  elements: Fact[];
  code: string;
  guessed?: true;
}

export type Fact = Leaf | Shaped | LiteralObject | ListOf;

export function leaf(kind: LeafKind, code: string, what?: string): Leaf {
  return what === undefined ? { kind, code } : { kind, code, what };
}

/** The same fact, known only from a name. */
export function guessed<F extends Fact>(fact: F): F {
  // A copy, then the keys: V8 (Node 20) builds `{ ...fact, guessed: true }` very slowly.
  const copy: Fact = Object.assign({}, fact);
  copy.guessed = true;
  if (copy.kind === 'list') copy.elements = copy.elements.map(guessed);
  return copy as F;
}

/** Facts derived from `owner` are as certain as it is. */
export function asCertainAs<F extends Fact>(fact: F, owner: Fact): F {
  return owner.guessed ? guessed(fact) : fact;
}

export function isLeaf(fact: Fact): fact is Leaf {
  return fact.kind !== 'shaped' && fact.kind !== 'object' && fact.kind !== 'list';
}

/** The facts of a value used as a scalar (in a key): structured values say nothing certain. */
export function asScalars(facts: readonly Fact[]): Leaf[] {
  return facts.map((fact) => (isLeaf(fact) ? fact : asCertainAs(leaf('unknown', fact.code), fact)));
}
