import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../analysis/file-context.js';
import { chainOf, isChainEnd, link, literalArgument, type Chain } from '../analysis/operations/chain.js';
import { fieldsOf, objectLiteral, showsEveryField } from '../analysis/operations/fields.js';
import { normaliseTarget, type DataOperation } from '../analysis/operations/types.js';
import { memberPath, objectProperty, unwrapExpression } from '../analysis/scope.js';
import type { ScopeOf } from '../analysis/static-text.js';
import type { DataAdapter } from './types.js';
import { atChainEnd, chainEnds, tableName } from './shared/query-chains.js';

/** Drizzle: `db.insert(refunds).values(row).onConflictDoNothing()`, `db.select().from(refunds)`. */

function drizzleTarget(argument: TSESTree.Node | undefined): string[] {
  const object = argument && unwrapExpression(argument);
  if (!object) return [];
  if (object.type === 'ArrayExpression') return object.elements.map((element) => (element ? tableName(element) ?? '' : '')).filter(Boolean);
  return [tableName(object) ?? ''].filter(Boolean);
}

function targetCount(argument: TSESTree.Node): number {
  const object = unwrapExpression(argument);
  return object.type === 'ArrayExpression' ? object.elements.length : 1;
}

function drizzleChain(chain: Chain, end: TSESTree.CallExpression, { scopeOf }: FileContext): DataOperation | undefined {
  const insert = link(chain, 'insert');
  const values = link(chain, 'values');
  if (insert && values && insert.call.arguments.length === 1 && insert.call.arguments[0]?.type !== 'ObjectExpression') {
    const table = tableName(insert.call.arguments[0]);
    if (!table) return undefined;
    const conflict = link(chain, 'onConflictDoNothing', 'onConflictDoUpdate');
    const options = conflict && objectLiteral(conflict.call.arguments[0], scopeOf);
    const targetOption = options && objectProperty(options, 'target')?.value;
    const target = targetOption ? drizzleTarget(targetOption) : [];
    // No target: any unique key. A target of columns written out: exactly that key. Anything
    // else (a variable, a `where`, a constraint name) is not ours to judge.
    const plain = options && !objectProperty(options, 'where') && !objectProperty(options, 'targetWhere') && !objectProperty(options, 'setWhere');
    const arbiter = !conflict
      ? undefined
      : conflict.call.arguments.length === 0
        ? ('any' as const)
        : plain && targetOption && target.length === targetCount(targetOption)
          ? ('exact' as const)
          : undefined;
    return {
      kind: 'insert',
      library: 'drizzle' as const,
      targets: [normaliseTarget(table)],
      node: end,
      label: `the Drizzle insert into ${table}`,
      fields: fieldsOf(values.call.arguments[0], scopeOf),
      fieldsComplete: showsEveryField(values.call.arguments[0], scopeOf),
      conflictTarget: target.length > 0 ? target : undefined,
      ...(arbiter ? { arbiter } : {}),
      arbitrated: Boolean(conflict),
      skipsDuplicates: conflict?.name === 'onConflictDoNothing',
      fix: conflict
        ? undefined
        : { edit: 'on-conflict-do-nothing-call' as const, apply: (fixer) => fixer.insertTextAfter(values.call, '.onConflictDoNothing()') },
    };
  }
  const from = link(chain, 'from');
  if (from && link(chain, 'select', 'selectDistinct')) {
    const table = tableName(from.call.arguments[0]);
    if (table) return { kind: 'read', library: 'drizzle' as const, targets: [normaliseTarget(table)], node: end, label: `a Drizzle select from ${table}`, fields: [], arbitrated: false };
  }
  return undefined;
}

export const drizzle: DataAdapter = {
  kind: 'data',
  name: 'drizzle',
  label: 'Drizzle',
  modules: [/^drizzle-orm/],
  methods: chainEnds,
  recognise: atChainEnd(drizzleChain),
  remedy: '.onConflictDoNothing() and check the returned rows',
};
