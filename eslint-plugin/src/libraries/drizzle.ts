import type { TSESTree } from '@typescript-eslint/utils';

import {
  calleeName,
  fieldsOf,
  keyName,
  link,
  memberPath,
  normaliseTarget,
  objectLiteral,
  objectProperty,
  propertyName,
  showsEveryField,
  staticString,
  unwrapExpression,
  walk,
  type AdapterFile,
  type Chain,
  type DataAdapter,
  type DataOperation,
  type DeclaredTable,
  type Field,
} from '../analysis/index.js';
import { atChainEnd, chainEnds, tableName } from './shared/query-chains.js';

/**
 * Drizzle: `db.insert(refunds).values(row).onConflictDoNothing()`, `db.select().from(refunds).where(eq(refunds.refundId, id))`,
 * `db.query.refunds.findFirst({ where: eq(refunds.refundId, id) })`, and the tables `pgTable` declares.
 */

/** A table as the code names it; an imported table by the name its module exports (`import { user as userTable }`). */
function drizzleTable(node: TSESTree.Node | undefined, file: AdapterFile): string | undefined {
  const bare = node && unwrapExpression(node);
  if (bare?.type === 'Identifier') {
    const exported = file.imports.names.get(bare.name);
    if (exported && exported !== 'default' && exported !== '*') return exported;
  }
  return tableName(node);
}

function drizzleTarget(argument: TSESTree.Node | undefined): string[] {
  const object = argument && unwrapExpression(argument);
  if (!object) return [];
  if (object.type === 'ArrayExpression')
    return object.elements.map((element) => (element ? (tableName(element) ?? '') : '')).filter(Boolean);
  return [tableName(object) ?? ''].filter(Boolean);
}

/** The columns a condition matches with their values: `eq(refunds.refundId, id)`, `and(eq(…), eq(…))`, or an object (`{ refundId: id }`). */
function conditionFields(node: TSESTree.Node | undefined, file: AdapterFile): Field[] {
  const condition = node && unwrapExpression(node);
  if (!condition) return [];
  if (condition.type === 'ObjectExpression') return fieldsOf(condition, file.scopeOf);
  // The relational API's `where: (t, { and, eq }) => and(eq(t.a, a), eq(t.b, b))`: the condition it returns.
  if (condition.type === 'ArrowFunctionExpression' || condition.type === 'FunctionExpression') {
    const body = condition.body;
    if (body.type !== 'BlockStatement') return conditionFields(body, file);
    const last = body.body[body.body.length - 1];
    return body.body.length === 1 && last?.type === 'ReturnStatement' && last.argument
      ? conditionFields(last.argument, file)
      : [];
  }
  if (condition.type !== 'CallExpression') return [];
  const name = calleeName(condition.callee);
  if (name === 'and') return condition.arguments.flatMap((argument) => conditionFields(argument, file));
  const [column, value] = condition.arguments;
  // `isNull(t.sentAt)`: rows whose field is still empty.
  if (name === 'isNull' && column?.type === 'MemberExpression') {
    const field = propertyName(column);
    return field ? [{ name: field, values: [], functions: [], constant: 'NULL' }] : [];
  }
  if (name !== 'eq' || column?.type !== 'MemberExpression' || !value || value.type === 'SpreadElement') return [];
  const field = propertyName(column);
  return field ? [{ name: field, values: [value], functions: [] }] : [];
}

function targetCount(argument: TSESTree.Node): number {
  const object = unwrapExpression(argument);
  return object.type === 'ArrayExpression' ? object.elements.length : 1;
}

/** What every operation of a chain on `table` has, before its kind says more. */
function onTable(table: string, end: TSESTree.CallExpression) {
  return {
    library: 'drizzle' as const,
    targets: [normaliseTarget(table)],
    node: end,
    fields: [],
    arbitrated: false,
  };
}

function drizzleChain(chain: Chain, end: TSESTree.CallExpression, file: AdapterFile): DataOperation | undefined {
  const { scopeOf } = file;
  const insert = link(chain, 'insert');
  const values = link(chain, 'values');
  if (insert && values && insert.call.arguments.length === 1 && insert.call.arguments[0]?.type !== 'ObjectExpression') {
    const table = drizzleTable(insert.call.arguments[0], file);
    if (!table) return undefined;
    const conflict = link(chain, 'onConflictDoNothing', 'onConflictDoUpdate');
    const options = conflict && objectLiteral(conflict.call.arguments[0], scopeOf);
    const targetOption = options && objectProperty(options, 'target')?.value;
    const target = targetOption ? drizzleTarget(targetOption) : [];
    // No target: any unique key. A target of columns written out: exactly that key. Anything
    // else (a variable, a `where`, a constraint name) is not ours to judge.
    const plain =
      options &&
      !objectProperty(options, 'where') &&
      !objectProperty(options, 'targetWhere') &&
      !objectProperty(options, 'setWhere');
    const arbiter = !conflict
      ? undefined
      : conflict.call.arguments.length === 0
        ? ('any' as const)
        : plain && targetOption && target.length === targetCount(targetOption)
          ? ('exact' as const)
          : undefined;
    return {
      ...onTable(table, end),
      kind: 'insert',
      label: `the Drizzle insert into ${table}`,
      fields: fieldsOf(values.call.arguments[0], scopeOf),
      fieldsComplete: showsEveryField(values.call.arguments[0], scopeOf),
      conflictTarget: target.length > 0 ? target : undefined,
      ...(arbiter ? { arbiter } : {}),
      arbitrated: Boolean(conflict),
      skipsDuplicates: conflict?.name === 'onConflictDoNothing',
      fix: conflict
        ? undefined
        : {
            edit: 'on-conflict-do-nothing-call' as const,
            apply: (fixer) => fixer.insertTextAfter(values.call, '.onConflictDoNothing()'),
          },
    };
  }
  // `db.update(orders).set({ paidAt }).where(eq(orders.id, id))`: the fields it sets, on the rows it names.
  const update = link(chain, 'update');
  const set = link(chain, 'set');
  if (update && set && update.call.arguments.length === 1) {
    const table = drizzleTable(update.call.arguments[0], file);
    if (!table) return undefined;
    const where = link(chain, 'where');
    return {
      ...onTable(table, end),
      kind: 'update',
      label: `the Drizzle update of ${table}`,
      fields: fieldsOf(set.call.arguments[0], scopeOf),
      filters: where ? conditionFields(where.call.arguments[0], file) : [],
    };
  }
  const from = link(chain, 'from');
  if (from && link(chain, 'select', 'selectDistinct')) {
    const table = drizzleTable(from.call.arguments[0], file);
    const where = link(chain, 'where');
    if (table) {
      return {
        ...onTable(table, end),
        kind: 'read',
        label: `a Drizzle select from ${table}`,
        filters: where ? conditionFields(where.call.arguments[0], file) : undefined,
        // `.for('update')`, `.for('share')`: the rows found are locked.
        ...(link(chain, 'for') && { locksRows: true }),
      };
    }
  }
  return undefined;
}

const relationalReads = new Set(['findFirst', 'findMany']);
const chainOperation = atChainEnd(drizzleChain);

/** The relational query API: `db.query.refunds.findFirst({ where })`. */
function relationalRead(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  file: AdapterFile,
): DataOperation | undefined {
  if (node.type !== 'CallExpression') return undefined;
  const path = memberPath(node.callee);
  if (!path || path.length < 4 || path[path.length - 3] !== 'query' || !relationalReads.has(path[path.length - 1]))
    return undefined;
  const table = path[path.length - 2];
  const options = objectLiteral(node.arguments[0], file.scopeOf);
  const where = options && objectProperty(options, 'where')?.value;
  return {
    kind: 'read',
    library: 'drizzle',
    targets: [normaliseTarget(table)],
    node,
    label: `${path.join('.')}()`,
    fields: [],
    filters: where ? conditionFields(where, file) : undefined,
    arbitrated: false,
  };
}

const tableBuilders = /^(pg|mysql|sqlite|singlestore)Table$/;

/** The columns a key lists: `unique().on(t.a, t.b)`, `primaryKey({ columns: [t.a, t.b] })`; undefined when one is not a plain column. */
function keyColumns(nodes: readonly TSESTree.Node[]): string[] | undefined {
  const columns = nodes.map((node) => {
    const column = unwrapExpression(node);
    return column.type === 'MemberExpression' ? propertyName(column) : undefined;
  });
  return columns.every((column): column is string => column !== undefined) && columns.length > 0 ? columns : undefined;
}

/** A column's chain: `text('email').notNull().unique()`: whether it is the primary key, unique, or neither. */
function columnKey(node: TSESTree.Node): 'primary' | 'unique' | undefined {
  let found: 'primary' | 'unique' | undefined;
  for (
    let current = unwrapExpression(node);
    current.type === 'CallExpression' && current.callee.type === 'MemberExpression';
    current = unwrapExpression(current.callee.object)
  ) {
    const name = propertyName(current.callee);
    if (name === 'primaryKey') found = 'primary';
    else if (name === 'unique' && !found) found = 'unique';
  }
  return found;
}

/** Entries of the extra-config callback that never make a key. */
const plainEntries = new Set(['index', 'foreignKey', 'check']);

/**
 * One entry of the extra-config callback: `unique().on(…)`, `uniqueIndex('n').on(…).where(…)`,
 * `primaryKey({ columns })`; `unsure` for an entry that may be a key this reading cannot see.
 */
function extraKey(
  node: TSESTree.Node,
  table: string,
  file: AdapterFile,
): DeclaredTable['keys'][number] | 'unsure' | undefined {
  let current = unwrapExpression(node);
  if (current.type !== 'CallExpression') return 'unsure';
  // Read from the end of the chain to the call it starts with.
  let on: TSESTree.CallExpression | undefined;
  let partial = false;
  while (current.type === 'CallExpression' && current.callee.type === 'MemberExpression') {
    const name = propertyName(current.callee);
    if (name === 'on') on = current;
    if (name === 'where') partial = true;
    current = unwrapExpression(current.callee.object);
  }
  const start = current.type === 'CallExpression' ? calleeName(current.callee) : undefined;
  if (start === 'primaryKey' && current.type === 'CallExpression') {
    const options = current.arguments.length === 1 ? objectLiteral(current.arguments[0], file.scopeOf) : undefined;
    const listed = options ? objectProperty(options, 'columns')?.value : undefined;
    const columns = keyColumns(
      listed?.type === 'ArrayExpression'
        ? listed.elements.filter(
            (element): element is TSESTree.Expression => element?.type !== 'SpreadElement' && element !== null,
          )
        : current.arguments,
    );
    return columns ? { columns, partial: false, written: `primaryKey(${columns.join(', ')}) on ${table}` } : 'unsure';
  }
  if (start !== 'unique' && start !== 'uniqueIndex') return start && plainEntries.has(start) ? undefined : 'unsure';
  const columns = on && keyColumns(on.arguments);
  return columns ? { columns, partial, written: `${start}().on(${columns.join(', ')}) on ${table}` } : 'unsure';
}

/** `pgTable('refunds', { refundId: text('refund_id').unique() }, (t) => [unique().on(t.a, t.b)])` and alike. */
export function drizzleTables(file: AdapterFile): DeclaredTable[] {
  const tables: DeclaredTable[] = [];
  walk(file.sourceAst, file.visitorKeys, (node) => {
    if (node.type !== 'CallExpression' || !tableBuilders.test(calleeName(node.callee) ?? '')) return;
    const [nameArgument, columnsArgument, extra] = node.arguments;
    const table = staticString(nameArgument);
    const columns = columnsArgument && unwrapExpression(columnsArgument);
    if (!table || columns?.type !== 'ObjectExpression') return;
    const keys: DeclaredTable['keys'][number][] = [];
    const primary: string[] = [];
    let unsure = false;
    for (const property of columns.properties) {
      const name = property.type === 'Property' ? keyName(property) : undefined;
      if (property.type !== 'Property' || !name) {
        unsure = true;
        continue;
      }
      const key = columnKey(property.value);
      if (key === 'primary') primary.push(name);
      else if (key === 'unique') keys.push({ columns: [name], partial: false, written: `${table}.${name} (unique)` });
    }
    if (primary.length > 0)
      keys.push({ columns: primary, partial: false, written: `the primary key (${primary.join(', ')}) of ${table}` });
    const body =
      extra && (extra.type === 'ArrowFunctionExpression' || extra.type === 'FunctionExpression')
        ? extra.body
        : undefined;
    const returned =
      body &&
      unwrapExpression(
        body.type === 'BlockStatement'
          ? (body.body.find((statement) => statement.type === 'ReturnStatement')?.argument ?? body)
          : body,
      );
    const entries =
      returned?.type === 'ArrayExpression'
        ? returned.elements
        : returned?.type === 'ObjectExpression'
          ? returned.properties.map((property) => (property.type === 'Property' ? property.value : null))
          : [];
    if (extra && entries.length === 0) unsure = true;
    for (const entry of entries) {
      const key = entry && entry.type !== 'SpreadElement' ? extraKey(entry, table, file) : 'unsure';
      if (key === 'unsure') unsure = true;
      else if (key) keys.push(key);
    }
    const variable =
      node.parent?.type === 'VariableDeclarator' && node.parent.id.type === 'Identifier'
        ? node.parent.id.name
        : undefined;
    tables.push({
      table,
      aliases: variable && variable !== table ? [variable] : [],
      keys,
      ...(unsure ? { unsure } : {}),
    });
  });
  return tables;
}

export const drizzle: DataAdapter = {
  kind: 'data',
  name: 'drizzle',
  label: 'Drizzle',
  modules: [/^drizzle-orm/],
  methods: new Set([...chainEnds, ...relationalReads]),
  recognise: (node, file) => relationalRead(node, file) ?? chainOperation(node, file),
  remedy: '.onConflictDoNothing() and check the returned rows',
  models: { mentions: /\b(pg|mysql|sqlite|singlestore)Table\s*\(/, read: drizzleTables },
};
