import type { TSESTree } from '@typescript-eslint/utils';

import { memberPath, objectProperty, unwrapExpression } from '../scope.js';
import type { ScopeOf } from '../static-text.js';
import { chainOf, isChainEnd, link, literalArgument, type Chain } from './chain.js';
import { fieldsOf, objectLiteral } from './fields.js';
import { normaliseTarget, type DataOperation } from './types.js';

/**
 * Query builders, read from the end of their call chains so that a trailing `.onConflict()` is
 * seen: knex, Drizzle, Kysely and TypeORM's query builder.
 */

const knexReads = new Set(['first', 'select', 'where', 'andWhere', 'whereIn', 'count', 'pluck', 'exists', 'limit']);

function tableName(node: TSESTree.Node | undefined): string | undefined {
  if (!node) return undefined;
  const path = memberPath(node);
  return path ? path[path.length - 1] : undefined;
}

function knex(chain: Chain, end: TSESTree.CallExpression, scopeOf: ScopeOf): DataOperation | undefined {
  const [first, second] = chain.links;
  let table: string | undefined;
  // knex('refunds')…, this.knex('refunds')…, or knex.table('refunds') / .from(…) / .into(…)
  if (first && first.call.callee.type === 'Identifier') table = literalArgument(first.call);
  else if (first && /^(knex|db|trx|database|connection|queryBuilder|qb)$/.test(first.name)) table = literalArgument(first.call);
  else if (first && ['table', 'from', 'into'].includes(first.name)) table = literalArgument(first.call);
  if (!table || !second) return undefined;
  const base = { library: 'knex', targets: [normaliseTarget(table)], node: end, fields: [], arbitrated: false };
  const insert = link(chain, 'insert');
  if (insert) {
    const conflict = link(chain, 'onConflict');
    return {
      ...base,
      kind: 'insert',
      label: `the knex insert into ${table}`,
      fields: fieldsOf(insert.call.arguments[0], scopeOf),
      conflictTarget: conflict ? conflict.call.arguments.map((argument) => (argument.type === 'Literal' ? String(argument.value) : '')).filter(Boolean) : undefined,
      arbitrated: Boolean(conflict),
      skipsDuplicates: Boolean(link(chain, 'ignore')),
    };
  }
  if (link(chain, 'upsert')) return { ...base, kind: 'upsert', label: `the knex upsert into ${table}`, arbitrated: true };
  if (link(chain, 'update', 'increment', 'decrement')) return { ...base, kind: 'update', label: `the knex update of ${table}` };
  if (link(chain, 'del', 'delete', 'truncate')) return { ...base, kind: 'delete', label: `the knex delete from ${table}` };
  if (chain.links.slice(1).some((candidate) => knexReads.has(candidate.name))) return { ...base, kind: 'read', label: `a knex query on ${table}` };
  return undefined;
}

function drizzleTarget(argument: TSESTree.Node | undefined): string[] {
  const object = argument && unwrapExpression(argument);
  if (!object) return [];
  if (object.type === 'ArrayExpression') return object.elements.map((element) => (element ? tableName(element) ?? '' : '')).filter(Boolean);
  return [tableName(object) ?? ''].filter(Boolean);
}

function drizzle(chain: Chain, end: TSESTree.CallExpression, scopeOf: ScopeOf): DataOperation | undefined {
  const insert = link(chain, 'insert');
  const values = link(chain, 'values');
  if (insert && values && insert.call.arguments.length === 1 && insert.call.arguments[0]?.type !== 'ObjectExpression') {
    const table = tableName(insert.call.arguments[0]);
    if (!table) return undefined;
    const conflict = link(chain, 'onConflictDoNothing', 'onConflictDoUpdate');
    const options = conflict && objectLiteral(conflict.call.arguments[0], scopeOf);
    const target = options ? drizzleTarget(objectProperty(options, 'target')?.value) : [];
    return {
      kind: 'insert',
      library: 'Drizzle',
      targets: [normaliseTarget(table)],
      node: end,
      label: `the Drizzle insert into ${table}`,
      fields: fieldsOf(values.call.arguments[0], scopeOf),
      conflictTarget: target.length > 0 ? target : undefined,
      arbitrated: Boolean(conflict),
      skipsDuplicates: conflict?.name === 'onConflictDoNothing',
      fix: conflict
        ? undefined
        : { message: 'addOnConflictDoNothing', apply: (fixer) => fixer.insertTextAfter(values.call, '.onConflictDoNothing()') },
    };
  }
  const from = link(chain, 'from');
  if (from && link(chain, 'select', 'selectDistinct')) {
    const table = tableName(from.call.arguments[0]);
    if (table) return { kind: 'read', library: 'Drizzle', targets: [normaliseTarget(table)], node: end, label: `a Drizzle select from ${table}`, fields: [], arbitrated: false };
  }
  return undefined;
}

function kysely(chain: Chain, end: TSESTree.CallExpression, scopeOf: ScopeOf): DataOperation | undefined {
  const insertInto = link(chain, 'insertInto', 'replaceInto');
  if (insertInto) {
    const table = literalArgument(insertInto.call);
    if (!table) return undefined;
    const conflict = link(chain, 'onConflict', 'ignore', 'onDuplicateKeyUpdate');
    return {
      kind: 'insert',
      library: 'Kysely',
      targets: [normaliseTarget(table)],
      node: end,
      label: `the Kysely insert into ${table}`,
      fields: fieldsOf(link(chain, 'values')?.call.arguments[0], scopeOf),
      arbitrated: Boolean(conflict),
      skipsDuplicates: conflict?.name === 'ignore',
    };
  }
  const selectFrom = link(chain, 'selectFrom');
  const table = selectFrom && literalArgument(selectFrom.call);
  if (table) return { kind: 'read', library: 'Kysely', targets: [normaliseTarget(table)], node: end, label: `a Kysely select from ${table}`, fields: [], arbitrated: false };
  return undefined;
}

/** TypeORM: `manager.createQueryBuilder().insert().into(Refund).values(row).orIgnore()`. */
function typeormBuilder(chain: Chain, end: TSESTree.CallExpression, scopeOf: ScopeOf): DataOperation | undefined {
  const insert = link(chain, 'insert');
  const into = link(chain, 'into');
  const values = link(chain, 'values');
  if (!insert || !into || !values || insert.call.arguments.length > 0) return undefined;
  const entity = tableName(into.call.arguments[0]);
  if (!entity) return undefined;
  return {
    kind: 'insert',
    library: 'TypeORM',
    targets: [normaliseTarget(entity)],
    node: end,
    label: `the TypeORM insert into ${entity}`,
    fields: fieldsOf(values.call.arguments[0], scopeOf),
    arbitrated: Boolean(link(chain, 'orIgnore', 'orUpdate')),
    skipsDuplicates: Boolean(link(chain, 'orIgnore')),
  };
}

/** The names a query-builder chain can end with; any other call is turned away at once. */
export const builderChainEnds: ReadonlySet<string> = new Set([
  'first', 'select', 'where', 'andWhere', 'orWhere', 'whereIn', 'whereNot', 'count', 'pluck', 'exists', 'limit', 'offset',
  'orderBy', 'insert', 'values', 'onConflict', 'ignore', 'merge', 'onConflictDoNothing', 'onConflictDoUpdate',
  'onDuplicateKeyUpdate', 'returning', 'returningAll', 'execute', 'executeTakeFirst', 'executeTakeFirstOrThrow', 'then',
  'orIgnore', 'orUpdate', 'update', 'increment', 'decrement', 'del', 'delete', 'upsert', 'truncate', 'into', 'from',
  'table', 'set', 'selectAll', 'innerJoin', 'leftJoin', 'groupBy', 'having', 'forUpdate', 'transacting', 'timeout',
]);

export function builderOperation(call: TSESTree.CallExpression, scopeOf: ScopeOf): DataOperation | undefined {
  if (!isChainEnd(call)) return undefined;
  const chain = chainOf(call);
  if (chain.links.length < 2) return undefined;
  return typeormBuilder(chain, call, scopeOf) ?? drizzle(chain, call, scopeOf) ?? kysely(chain, call, scopeOf) ?? knex(chain, call, scopeOf);
}
