import type { TSESTree } from '@typescript-eslint/utils';

import {
  fieldsOf,
  link,
  literalArgument,
  normaliseTarget,
  showsEveryField,
  type AdapterFile,
  type Chain,
  type DataAdapter,
  type DataOperation,
} from '../analysis/index.js';
import { knexMigrations } from './shared/model-readers.js';
import { atChainEnd, chainEnds, whereFilters } from './shared/query-chains.js';

/** knex: `knex('refunds').where({ id }).first()`, `.insert(row).onConflict('id').ignore()`. */

const knexReads = new Set(['first', 'select', 'where', 'andWhere', 'whereIn', 'count', 'pluck', 'exists', 'limit']);

/** The columns `.onConflict('a')`, `.onConflict(['a', 'b'])` names; undefined when they are not all written out. */
function conflictColumns(args: readonly TSESTree.CallExpressionArgument[]): string[] | undefined {
  const items = args.length === 1 && args[0].type === 'ArrayExpression' ? args[0].elements : args;
  const columns = items.map((item) =>
    item?.type === 'Literal' && typeof item.value === 'string' ? item.value : undefined,
  );
  return columns.every((column) => column !== undefined) ? columns : undefined;
}

function knexChain(chain: Chain, end: TSESTree.CallExpression, { scopeOf }: AdapterFile): DataOperation | undefined {
  const [first, second] = chain.links;
  let table: string | undefined;
  // knex('refunds')…, this.knex('refunds')…, or knex.table('refunds') / .from(…) / .into(…)
  if (first && first.call.callee.type === 'Identifier') table = literalArgument(first.call);
  else if (first && /^(knex|db|trx|database|connection|queryBuilder|qb)$/.test(first.name))
    table = literalArgument(first.call);
  else if (first && ['table', 'from', 'into'].includes(first.name)) table = literalArgument(first.call);
  if (!table || !second) return undefined;
  // Completed with Object.assign, not `{ ...base, kind }`: V8 (Node 20) builds a spread followed by new keys very slowly.
  const base = {
    library: 'knex' as const,
    targets: [normaliseTarget(table)],
    node: end,
    fields: [],
    arbitrated: false,
  };
  const insert = link(chain, 'insert');
  if (insert) {
    const conflict = link(chain, 'onConflict');
    const columns = conflict && conflictColumns(conflict.call.arguments);
    return Object.assign(base, {
      kind: 'insert' as const,
      label: `the knex insert into ${table}`,
      fields: fieldsOf(insert.call.arguments[0], scopeOf),
      fieldsComplete: showsEveryField(insert.call.arguments[0], scopeOf),
      conflictTarget: conflict
        ? conflict.call.arguments
            .map((argument) => (argument.type === 'Literal' ? String(argument.value) : ''))
            .filter(Boolean)
        : undefined,
      arbitrated: Boolean(conflict),
      skipsDuplicates: Boolean(link(chain, 'ignore')),
      // .onConflict() with no columns: any unique key; .onConflict(['a', 'b']): exactly that one (last: keys
      // added after a spread are slow to build in V8).
      ...(conflict && columns
        ? {
            arbiter: columns.length === 0 ? ('any' as const) : ('exact' as const),
            conflictTarget: columns.length > 0 ? columns : undefined,
          }
        : {}),
    });
  }
  if (link(chain, 'upsert'))
    return Object.assign(base, { kind: 'upsert' as const, label: `the knex upsert into ${table}`, arbitrated: true });
  if (link(chain, 'update', 'increment', 'decrement'))
    return Object.assign(base, { kind: 'update' as const, label: `the knex update of ${table}` });
  if (link(chain, 'del', 'delete', 'truncate'))
    return Object.assign(base, { kind: 'delete' as const, label: `the knex delete from ${table}` });
  if (chain.links.slice(1).some((candidate) => knexReads.has(candidate.name)))
    return Object.assign(base, {
      kind: 'read' as const,
      label: `a knex query on ${table}`,
      filters: whereFilters(chain, scopeOf),
      ...(link(chain, 'forUpdate', 'forShare') && { locksRows: true }),
    });
  return undefined;
}

export const knex: DataAdapter = {
  kind: 'data',
  name: 'knex',
  label: 'knex',
  modules: ['knex'],
  methods: chainEnds,
  recognise: atChainEnd(knexChain),
  remedy: '.onConflict(…).ignore() and check the returned rows',
  increments: { methods: ['increment', 'decrement'] },
  models: { mentions: /\.(createTable|createTableIfNotExists|alterTable)\s*\(/, read: knexMigrations },
  // `knex.raw('ALTER TABLE … ADD CONSTRAINT … UNIQUE …')`, `knex.schema.raw(…)`, and a migration's
  // `up = (db) => db.raw(…)`.
  ddlCalls: [{ method: 'raw', receiver: /^(knex|db|schema|trx)$/ }],
};
