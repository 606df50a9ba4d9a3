import type { TSESTree } from '@typescript-eslint/utils';

import {
  chainOf,
  fieldsOf,
  isChainEnd,
  memberPath,
  type AdapterFile,
  type Chain,
  type DataOperation,
  type Field,
  type ScopeOf,
} from '../../analysis/index.js';

/**
 * What the query builders (knex, Drizzle, Kysely, TypeORM's query builder) have in common: they
 * are read from the end of their call chains, so that a trailing `.onConflict()` is seen.
 */

/** The names a query-builder chain can end with; any other call is turned away at once. */
export const chainEnds: ReadonlySet<string> = new Set([
  'first',
  'select',
  'where',
  'andWhere',
  'orWhere',
  'whereIn',
  'whereNot',
  'count',
  'pluck',
  'exists',
  'limit',
  'offset',
  'orderBy',
  'insert',
  'values',
  'onConflict',
  'ignore',
  'merge',
  'onConflictDoNothing',
  'onConflictDoUpdate',
  'onDuplicateKeyUpdate',
  'returning',
  'returningAll',
  'execute',
  'executeTakeFirst',
  'executeTakeFirstOrThrow',
  'then',
  'orIgnore',
  'orUpdate',
  'update',
  'increment',
  'decrement',
  'del',
  'delete',
  'upsert',
  'truncate',
  'into',
  'from',
  'table',
  'set',
  'selectAll',
  'innerJoin',
  'leftJoin',
  'groupBy',
  'having',
  'forUpdate',
  'forShare',
  'for',
  'transacting',
  'timeout',
]);

/**
 * The chain a call ends, read once however many builders ask about it: they are asked in turn
 * about the same call, so the last answer is kept (a WeakMap of every call cost more than it saved).
 */
let lastEnd: TSESTree.CallExpression | undefined;
let lastChain: Chain | null = null;

function chainEndingAt(node: TSESTree.CallExpression): Chain | null {
  if (node !== lastEnd) {
    let chain = isChainEnd(node) ? chainOf(node) : null;
    if (chain && chain.links.length < 2) chain = null;
    lastEnd = node;
    lastChain = chain;
  }
  return lastChain;
}

/** Adapts a recogniser of whole chains to a data adapter's `recognise`: asked only at a chain's end. */
export function atChainEnd(
  recognise: (chain: Chain, end: TSESTree.CallExpression, file: AdapterFile) => DataOperation | undefined,
): (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression, file: AdapterFile) => DataOperation | undefined {
  return (node, file) => {
    if (node.type !== 'CallExpression') return undefined;
    const chain = chainEndingAt(node);
    return chain ? recognise(chain, node, file) : undefined;
  };
}

/** The last name of a table reference: `schema.refunds` → `refunds`. */
export function tableName(node: TSESTree.Node | undefined): string | undefined {
  if (!node) return undefined;
  const path = memberPath(node);
  return path ? path[path.length - 1] : undefined;
}

/**
 * The columns a knex-style builder matches, with their values: `.where({ url })`, `.where('url', url)`,
 * `.where('url', '=', url)`, and Objection's `.findOne({ url })`.
 */
export function whereFilters(chain: Chain, scopeOf: ScopeOf): Field[] {
  const filters: Field[] = [];
  for (const { name, call } of chain.links) {
    if (name !== 'where' && name !== 'andWhere' && name !== 'findOne') continue;
    const [first, second, third] = call.arguments;
    const column = first?.type === 'Literal' && typeof first.value === 'string' ? first.value : undefined;
    if (!column) filters.push(...fieldsOf(first, scopeOf));
    else if (call.arguments.length === 2 && second && second.type !== 'SpreadElement')
      filters.push({ name: column, values: [second], functions: [] });
    else if (second?.type === 'Literal' && second.value === '=' && third && third.type !== 'SpreadElement')
      filters.push({ name: column, values: [third], functions: [] });
  }
  return filters;
}
