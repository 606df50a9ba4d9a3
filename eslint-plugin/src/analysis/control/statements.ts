import type { TSESTree } from '@typescript-eslint/utils';

import { isFunction, type FunctionNode } from '../context/file-context.js';

/** Where a statement sits and whether it falls through: the shape of the code between a check and a write. */

/** What leaves a block (`any`), the function (`function`), or the function past a `catch` (`return`). */
const exitStatements = {
  any: new Set(['ReturnStatement', 'ThrowStatement', 'ContinueStatement', 'BreakStatement']),
  function: new Set(['ReturnStatement', 'ThrowStatement']),
  return: new Set(['ReturnStatement']),
};

/**
 * Statements that never fall through: `return`, `throw`, `continue`, `break`, or a block ending in
 * one. With `function`, only those that leave the function (`return`, `throw`): the rest of it,
 * past the blocks around them, runs only when they do not; with `return`, only a `return`, which
 * no `catch` stops.
 */
export function exits(
  statement: TSESTree.Statement | null | undefined,
  leaving: keyof typeof exitStatements = 'any',
): boolean {
  if (!statement) return false;
  if (exitStatements[leaving].has(statement.type)) return true;
  if (statement.type === 'BlockStatement') return exits(statement.body[statement.body.length - 1], leaving);
  if (statement.type === 'IfStatement')
    return exits(statement.consequent, leaving) && exits(statement.alternate, leaving);
  return false;
}

/** Whether `inner` lies within `outer`. */
export function contains(outer: TSESTree.Node | null | undefined, inner: TSESTree.Node): boolean {
  return Boolean(outer) && outer!.range[0] <= inner.range[0] && inner.range[1] <= outer!.range[1];
}

/**
 * The statement of a block (or switch case) that holds `node`: code after the guard is what
 * follows that statement in the same block.
 */
export function statementInBlock(node: TSESTree.Node): TSESTree.Node | undefined {
  let current: TSESTree.Node = node;
  while (current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (
      parent.type === 'BlockStatement' ||
      parent.type === 'Program' ||
      parent.type === 'StaticBlock' ||
      parent.type === 'SwitchCase'
    )
      return current;
    if (isFunction(parent)) return undefined;
    current = parent;
  }
  return undefined;
}

export function enclosingFunction(node: TSESTree.Node): FunctionNode | undefined {
  let current = node.parent;
  while (current) {
    if (isFunction(current)) return current;
    current = current.parent;
  }
  return undefined;
}

/** The catch clause the node is in, within its function. */
export function catchAround(node: TSESTree.Node): TSESTree.CatchClause | undefined {
  for (let current = node.parent; current && !isFunction(current); current = current.parent)
    if (current.type === 'CatchClause') return current;
  return undefined;
}
