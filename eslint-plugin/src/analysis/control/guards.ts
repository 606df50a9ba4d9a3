import type { TSESTree } from '@typescript-eslint/utils';

import { isFunction } from '../context/file-context.js';
import { flip, type Polarity } from './polarity.js';
import { contains, enclosingFunction, exits, statementInBlock } from './statements.js';

/** A condition that guards code, and whether it is true when the row is present. */
export interface Guard {
  owner: TSESTree.IfStatement | TSESTree.ConditionalExpression | TSESTree.LogicalExpression;
  whenTrue: Polarity;
}

/** A branch taken when the row was `whenTaken` lets a write run unless it was found. */
function allows(whenTaken: Polarity): boolean {
  return whenTaken !== 'present';
}

/** Does `guard` make `write` run only on the side where the row was absent (or either side)? */
export function guards(guard: Guard, write: TSESTree.Node): boolean {
  const { owner, whenTrue } = guard;
  if (owner.type === 'LogicalExpression') {
    if (!contains(owner.right, write)) return false;
    // a || write(): runs when a is false; a && write(): runs when a is true.
    return allows(owner.operator === '&&' ? whenTrue : owner.operator === '||' ? flip(whenTrue) : 'either');
  }
  if (contains(owner.consequent, write)) return allows(whenTrue);
  if (contains(owner.alternate, write)) return allows(flip(whenTrue));
  if (owner.type === 'IfStatement' && write.range[0] >= owner.range[1] && exits(owner.consequent)) {
    const statement = statementInBlock(owner);
    if (statement && write.range[0] >= statement.range[1] && contains(statement.parent, write))
      return allows(flip(whenTrue));
    if (leavesBefore(owner, write)) return allows(flip(whenTrue));
  }
  return false;
}

/**
 * `if (locked) return;` nested in blocks: the rest of the function, past them, runs only when the
 * guard does not leave. A `throw` caught by a `try` around the guard but not around `write` lets
 * the code after the `try` run either way.
 */
function leavesBefore(owner: TSESTree.IfStatement, write: TSESTree.Node): boolean {
  if (enclosingFunction(owner) !== enclosingFunction(write)) return false;
  let caught = false;
  for (let node: TSESTree.Node = owner; node.parent && !isFunction(node.parent); node = node.parent) {
    const parent: TSESTree.Node = node.parent;
    if (parent.type === 'TryStatement' && node === parent.block && parent.handler && !contains(node, write))
      caught = true;
  }
  return exits(owner.consequent, caught ? 'return' : 'function');
}
