import type { TSESTree } from '@typescript-eslint/utils';

import { propertyName, unwrapExpression } from '../syntax/nodes.js';

/**
 * A fluent call chain such as `knex('refunds').where({ id }).first()` or
 * `db.insert(refunds).values(row).onConflictDoNothing()`, read from its root outwards.
 */

export interface ChainLink {
  name: string;
  call: TSESTree.CallExpression;
}

export interface Chain {
  /** The expression the chain starts from: `knex`, `db`, `this.repository`. */
  root: TSESTree.Node;
  /** Method calls from the root outwards; a root call such as `knex('t')` is the first link. */
  links: ChainLink[];
}

/** The call that ends the chain `call` belongs to (the outermost link). */
export function isChainEnd(call: TSESTree.CallExpression): boolean {
  const parent = call.parent;
  return !(
    parent?.type === 'MemberExpression' &&
    parent.object === call &&
    parent.parent?.type === 'CallExpression' &&
    parent.parent.callee === parent
  );
}

export function chainOf(end: TSESTree.CallExpression): Chain {
  const links: ChainLink[] = [];
  let current: TSESTree.Node = end;
  for (let guard = 0; guard < 64; guard += 1) {
    current = unwrapExpression(current);
    if (current.type !== 'CallExpression') break;
    const callee = unwrapExpression(current.callee);
    if (callee.type === 'Identifier') {
      links.push({ name: callee.name, call: current });
      current = callee;
      break;
    }
    if (callee.type !== 'MemberExpression') break;
    const name = propertyName(callee);
    if (name === undefined) break;
    links.push({ name, call: current });
    current = callee.object;
  }
  return { root: current, links: links.reverse() };
}

export function link(chain: Chain, ...names: string[]): ChainLink | undefined {
  return chain.links.find((candidate) => names.includes(candidate.name));
}

/** The string literal a call starts with: the table in `knex('refunds')`. */
export function literalArgument(call: TSESTree.CallExpression, index = 0): string | undefined {
  const argument = call.arguments[index];
  return argument?.type === 'Literal' && typeof argument.value === 'string' ? argument.value : undefined;
}
