import { XMLParser } from 'fast-xml-parser';

import { uniqueKeysInSql, type DataAdapter, type DeclaredTable } from '../analysis/index.js';

/**
 * Liquibase: a migration tool, not a client. Its XML changelogs declare the tables a project's
 * queries write (a Node service whose database a Liquibase image migrates): `createTable` with
 * its columns' `primaryKey`/`unique` constraints, `addUniqueConstraint`, `createIndex unique`,
 * `addPrimaryKey`, a column added unique, and SQL in `<sql>`. A change that may drop or rename a
 * key leaves its table unsure. YAML and JSON changelogs are not read.
 */

type Element = Record<string, unknown>;

/** The changes that can declare, add or take away a key: every one read as a list, whatever its count. */
const changes = new Set([
  'changeSet',
  'createTable',
  'column',
  'constraints',
  'addUniqueConstraint',
  'createIndex',
  'addPrimaryKey',
  'addColumn',
  'sql',
]);
/** Changes after which a table's keys may not be those the changelogs add up to. */
const unsettling = [
  'dropUniqueConstraint',
  'dropIndex',
  'dropPrimaryKey',
  'dropTable',
  'renameTable',
  'renameColumn',
  'dropColumn',
];

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  isArray: (name) => changes.has(name) || unsettling.includes(name),
});

const list = (value: unknown): Element[] => (Array.isArray(value) ? (value as Element[]) : []);
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const isTrue = (value: unknown): boolean => text(value)?.toLowerCase() === 'true';
const columnNames = (value: unknown): string[] =>
  (text(value) ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);

/** The SQL of a `<sql>` element, as text or in CDATA. */
function sqlText(element: unknown): string {
  if (typeof element === 'string') return element;
  const node = element as Element;
  return text(node['#text']) ?? text(node.__cdata) ?? '';
}

type Key = DeclaredTable['keys'][number];

const key = (columns: string[], written: string, primary = false): Key => ({
  columns,
  partial: false,
  ...(primary ? { primary: true as const } : {}),
  written,
});

/** What a change is called in messages: `addUniqueConstraint inbox_message on inbox`. */
const described = (change: string, name: unknown, table: unknown): string =>
  [change, text(name), 'on', text(table)].filter(Boolean).join(' ');

function liquibaseKeys(source: string): DeclaredTable[] | null {
  // Other XML kept beside the changelogs (a Maven file, an editor's settings) declares nothing.
  if (!/<databaseChangeLog\b/.test(source)) return [];
  const changeLog = (parser.parse(source) as Element).databaseChangeLog as Element | undefined;
  const tables: DeclaredTable[] = [];
  /** A table's keys: all it has when it is created here, else keys added to one declared elsewhere. */
  const add = (table: unknown, keys: Key[], whole = false) => {
    const name = text(table);
    if (name) tables.push({ table: name, keys, ...(whole ? {} : { addition: true }) });
  };
  /** A table whose keys a change may have taken away or hidden: what the changelogs add up to may not be all. */
  const unsettle = (table: unknown) => {
    const name = text(table);
    if (name) tables.push({ table: name, keys: [], addition: true, unsure: true });
  };
  for (const changeSet of list(changeLog?.changeSet)) {
    for (const created of list(changeSet.createTable)) {
      const keys: Key[] = [];
      const primary: string[] = [];
      for (const column of list(created.column)) {
        const constraint = list(column.constraints)[0];
        const name = text(column.name);
        if (!constraint || !name) continue;
        if (isTrue(constraint.primaryKey)) primary.push(name);
        if (isTrue(constraint.unique))
          keys.push(key([name], `${name} unique in createTable ${text(created.tableName)}`));
      }
      if (primary.length > 0)
        keys.push(key(primary, `primary key (${primary.join(', ')}) in createTable ${text(created.tableName)}`, true));
      add(created.tableName, keys, true);
    }
    for (const added of list(changeSet.addColumn))
      for (const column of list(added.column)) {
        const constraint = list(column.constraints)[0];
        const name = text(column.name);
        if (name && constraint && (isTrue(constraint.unique) || isTrue(constraint.primaryKey)))
          add(added.tableName, [key([name], `${name} added unique to ${text(added.tableName)}`)]);
      }
    for (const unique of list(changeSet.addUniqueConstraint))
      add(unique.tableName, [
        key(columnNames(unique.columnNames), described('addUniqueConstraint', unique.constraintName, unique.tableName)),
      ]);
    for (const primary of list(changeSet.addPrimaryKey))
      add(primary.tableName, [
        key(columnNames(primary.columnNames), described('addPrimaryKey', undefined, primary.tableName), true),
      ]);
    for (const index of list(changeSet.createIndex)) {
      if (!isTrue(index.unique)) continue;
      const columns = list(index.column);
      // An index on an expression (`<column computed="true">`) is a key the reader cannot name.
      if (columns.some((column) => isTrue(column.computed))) unsettle(index.tableName);
      else
        add(index.tableName, [
          key(
            columns.flatMap((column) => text(column.name) ?? []),
            described('unique index', index.indexName, index.tableName),
          ),
        ]);
    }
    for (const change of unsettling) for (const element of list(changeSet[change])) unsettle(element.tableName);
    for (const statement of list(changeSet.sql)) {
      const declared = uniqueKeysInSql(sqlText(statement));
      if (declared === null) return null;
      tables.push(...declared.map((table) => ({ ...table, addition: true as const })));
    }
  }
  return tables;
}

export const liquibase: DataAdapter = {
  kind: 'data',
  name: 'liquibase',
  label: 'Liquibase',
  modules: [],
  methods: new Set(),
  recognise: () => undefined,
  remedy: 'let a unique key settle the duplicate',
  schema: {
    locations: [
      { folder: 'changelog', ending: '.xml', depth: 3 },
      { folder: 'changelogs', ending: '.xml', depth: 3 },
      { folder: 'db/changelog', ending: '.xml', depth: 3 },
      { folder: 'liquibase', ending: '.xml', depth: 3 },
      { folder: 'src/main/resources/db/changelog', ending: '.xml', depth: 3 },
    ],
    endings: ['.xml'],
    read: (source) => liquibaseKeys(source),
    kind: 'a Liquibase changelog',
  },
};
