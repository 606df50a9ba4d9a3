import type { TSESTree } from '@typescript-eslint/utils';

import {
  fieldsOf,
  link,
  literalArgument,
  normaliseTarget,
  type AdapterFile,
  type Chain,
  type DataAdapter,
  type DataOperation,
} from '../analysis/index.js';
import { atChainEnd, chainEnds } from './shared/query-chains.js';

/** Kysely: `db.insertInto('refunds').values(row).onConflict(…)`, `db.selectFrom('refunds')`. */

function kyselyChain(chain: Chain, end: TSESTree.CallExpression, { scopeOf }: AdapterFile): DataOperation | undefined {
  const insertInto = link(chain, 'insertInto', 'replaceInto');
  if (insertInto) {
    const table = literalArgument(insertInto.call);
    if (!table) return undefined;
    const conflict = link(chain, 'onConflict', 'ignore', 'onDuplicateKeyUpdate');
    return {
      kind: 'insert',
      library: 'kysely' as const,
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
  if (table)
    return {
      kind: 'read',
      library: 'kysely' as const,
      targets: [normaliseTarget(table)],
      node: end,
      label: `a Kysely select from ${table}`,
      fields: [],
      arbitrated: false,
    };
  return undefined;
}

export const kysely: DataAdapter = {
  kind: 'data',
  name: 'kysely',
  label: 'Kysely',
  modules: ['kysely'],
  methods: chainEnds,
  recognise: atChainEnd(kyselyChain),
  remedy: '.onConflict((oc) => oc.doNothing()) and check the result',
  // A migration's `` await sql`CREATE UNIQUE INDEX …`.execute(db) ``.
  ddlCalls: [{ tag: 'sql' }],
};
