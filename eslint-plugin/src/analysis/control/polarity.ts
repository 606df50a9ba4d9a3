import type { TSESTree } from '@typescript-eslint/utils';

/**
 * Which way a condition points: true when the thing asked about is there (`present`), when it is
 * not (`absent`), or either way. `!x`, `x === null` and `x.length === 0` each turn it around.
 */
export type Presence = 'present' | 'absent';
export type Polarity = Presence | 'either';

export function flip(polarity: Presence): Presence;
export function flip(polarity: Polarity): Polarity;
export function flip(polarity: Polarity): Polarity {
  return polarity === 'present' ? 'absent' : polarity === 'absent' ? 'present' : 'either';
}

/** `null`, `undefined` or `false`: what a lookup gives when nothing is there. */
export function isNothing(node: TSESTree.Node): boolean {
  return (
    (node.type === 'Literal' && (node.value === null || node.value === false)) ||
    (node.type === 'Identifier' && node.name === 'undefined')
  );
}

/** `0` or `'0'`: a count of nothing. */
export function isZero(node: TSESTree.Node): boolean {
  return node.type === 'Literal' && (node.value === 0 || node.value === '0');
}
