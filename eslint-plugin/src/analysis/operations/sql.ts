import type { TSESTree } from '@typescript-eslint/utils';

import type { ScopeOf } from '../static-text.js';
import { embeddedSql } from '../sql/embedded.js';
import { normaliseTarget, type DataOperation } from './types.js';

/** Operations written in SQL, in a query call or a tagged template. */
export function sqlOperations(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression, scopeOf: ScopeOf): DataOperation[] {
  const sql = embeddedSql(node, scopeOf);
  if (!sql) return [];
  return sql.summary.statements.map((statement): DataOperation => {
    switch (statement.kind) {
      case 'insert': {
        const clause = statement.conflictClauseAt;
        const at = clause && sql.sourceOffset(clause.offset);
        return {
          kind: statement.onConflict ? 'upsert' : 'insert',
          library: 'SQL',
          targets: [normaliseTarget(statement.table)],
          node,
          label: `the INSERT into ${statement.table}`,
          fields: statement.columns.map((column) => ({
            name: column.name,
            values: column.params.map((number) => sql.param(number)).filter((value): value is TSESTree.Node => value !== undefined),
            functions: column.functions,
          })),
          conflictTarget: statement.onConflict?.target.length ? statement.onConflict.target : undefined,
          arbitrated: Boolean(statement.onConflict) || statement.filtered,
          fix:
            !clause || at === undefined
              ? undefined
              : {
                  message: 'addOnConflict',
                  apply: (fixer) =>
                    fixer.insertTextAfterRange([at, at], clause.beforeReturning ? 'ON CONFLICT DO NOTHING ' : ' ON CONFLICT DO NOTHING'),
                },
        };
      }
      case 'read':
        return {
          kind: 'read',
          library: 'SQL',
          targets: statement.tables.map(normaliseTarget),
          node,
          label: `a SELECT on ${statement.tables.join(', ') || 'no table'}`,
          fields: [],
          arbitrated: false,
          locksRows: statement.locksRows,
        };
      case 'update':
      case 'delete':
        return { kind: statement.kind, library: 'SQL', targets: [normaliseTarget(statement.table)], node, label: `the ${statement.kind.toUpperCase()} of ${statement.table}`, fields: [], arbitrated: false };
      case 'serialisation':
        return { kind: 'serialisation', library: 'SQL', targets: [], node, label: statement.how, fields: [], arbitrated: false };
    }
  });
}
