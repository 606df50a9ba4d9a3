import { createRequire } from 'node:module';

import type { DeclaredTable } from '../contract/schema.js';

/**
 * The unique keys of DDL written for MySQL (and MariaDB), which PostgreSQL's grammar rejects:
 * backticked names, `UNIQUE KEY name (a, b)` inside CREATE TABLE, `ALTER TABLE … ADD UNIQUE
 * KEY`, table options such as `ENGINE=InnoDB`. Read with node-sql-parser's MySQL grammar, which
 * is loaded on the first text PostgreSQL's grammar turns away: a project whose migrations all
 * parse as PostgreSQL never loads it. What the reading cannot pin down (a renamed table or
 * column, an expression key, a table copied from another) leaves the table unsure, never
 * keyless. Drops are not applied, as with PostgreSQL's DDL: a down section drops what its up
 * section creates, and a key believed to exist only keeps the rules silent.
 */

type Tree = Record<string, unknown>;
interface Grammar {
  astify(text: string, options: { database: string }): unknown;
}

let grammar: Grammar | null | undefined;

/**
 * The grammar, loaded on first use; null when it cannot be. A bundle (the editor extension)
 * has the bundler's `require`, which finds the copy bundled with it; Node's ES modules have none.
 */
function mysqlGrammar(): Grammar | null {
  if (grammar === undefined) {
    try {
      grammar = new (loadGrammar() as { Parser: new () => Grammar }).Parser();
    } catch {
      grammar = null;
    }
  }
  return grammar;
}

function loadGrammar(): unknown {
  if (typeof require !== 'function') return createRequire(import.meta.url)('node-sql-parser/build/mysql.js');
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundler's require: the bundle carries the grammar
  return require('node-sql-parser/build/mysql.js');
}

/** Whether the grammar has been loaded (for tests of the common path, which must not load it). */
export function mysqlGrammarLoaded(): boolean {
  return Boolean(grammar);
}

/** A keyword the tree holds, lower-cased; '' when it holds none. */
function word(value: unknown): string {
  return typeof value === 'string' ? value.toLowerCase() : '';
}

function list(value: unknown): Tree[] {
  if (Array.isArray(value)) return value.filter((item): item is Tree => Boolean(item) && typeof item === 'object');
  return value && typeof value === 'object' ? [value as Tree] : [];
}

function tableName(node: unknown): string | undefined {
  const [first] = list(node);
  const name = first?.table;
  return typeof name === 'string' ? name : undefined;
}

/** A column a key lists, or undefined for an expression (`(lower(email))`), which no column list describes. */
function columnOf(node: Tree): string | undefined {
  if (node.type !== 'column_ref') return undefined;
  const column = node.column;
  if (typeof column === 'string') return column;
  const value = (column as { expr?: { value?: unknown } } | undefined)?.expr?.value;
  return typeof value === 'string' ? value : undefined;
}

type Key = DeclaredTable['keys'][number];

/** `PRIMARY KEY (a)`, `UNIQUE KEY name (a, b)`, `CONSTRAINT c UNIQUE (a)`: its key, 'expression', or undefined for other constraints. */
function constraintKey(definition: Tree, table: string): Key | 'expression' | undefined {
  const type = word(definition.constraint_type);
  const primary = type.startsWith('primary');
  if (!primary && !type.startsWith('unique')) return undefined;
  const columns = list(definition.definition).map(columnOf);
  if (columns.length === 0 || columns.some((column) => column === undefined)) return 'expression';
  return {
    columns: columns as string[],
    partial: false,
    written: `${primary ? 'PRIMARY KEY' : 'UNIQUE KEY'} (${columns.join(', ')}) on ${table}`,
    ...(primary && { primary: true as const }),
  };
}

/** A column declared `PRIMARY KEY`, `UNIQUE` or `UNIQUE KEY` (a bare `KEY` on a column is MySQL's primary key). */
function columnKey(definition: Tree, table: string): Key | undefined {
  const column = definition.column ? columnOf(definition.column as Tree) : undefined;
  if (!column) return undefined;
  if (definition.primary_key)
    return { columns: [column], partial: false, written: `PRIMARY KEY (${column}) on ${table}`, primary: true };
  if (definition.unique) return { columns: [column], partial: false, written: `UNIQUE (${column}) on ${table}` };
  return undefined;
}

/** The keys one element of a table definition or one ADD declares; unsure when it may declare one unread. */
function keysOfDefinition(definition: Tree, table: string): { keys: Key[]; unsure: boolean } {
  if (definition.resource === 'column') {
    const key = columnKey(definition, table);
    return { keys: key ? [key] : [], unsure: false };
  }
  if (definition.resource === 'constraint') {
    const key = constraintKey(definition, table);
    return key === 'expression' ? { keys: [], unsure: true } : { keys: key ? [key] : [], unsure: false };
  }
  return { keys: [], unsure: false };
}

function createTable(statement: Tree): DeclaredTable[] {
  const table = tableName(statement.table);
  if (!table) return [];
  const keys: Key[] = [];
  // `CREATE TABLE t LIKE u` and `CREATE TABLE t AS SELECT …` take their columns, and perhaps keys, from elsewhere.
  let unsure = Boolean(statement.like) || Boolean(statement.query_expr);
  for (const definition of list(statement.create_definitions)) {
    const found = keysOfDefinition(definition, table);
    keys.push(...found.keys);
    unsure ||= found.unsure;
  }
  return [{ table, keys, ...(unsure ? { unsure } : {}) }];
}

function createIndex(statement: Tree): DeclaredTable[] {
  const table = tableName(statement.table);
  if (!table || word(statement.index_type) !== 'unique') return [];
  const columns = list(statement.index_columns).map(columnOf);
  if (columns.length === 0 || columns.some((column) => column === undefined))
    return [{ table, keys: [], unsure: true, addition: true }];
  const name = typeof statement.index === 'string' ? `${statement.index} ` : '';
  const written = `UNIQUE INDEX ${name}on ${table} (${columns.join(', ')})`;
  return [{ table, addition: true, keys: [{ columns: columns as string[], partial: false, written }] }];
}

function alterTable(statement: Tree): DeclaredTable[] {
  const table = tableName(statement.table);
  if (!table) return [];
  const keys: Key[] = [];
  let unsure = false;
  for (const command of list(statement.expr)) {
    const action = word(command.action);
    // CHANGE COLUMN a a …: only the type changes, as with MODIFY; CHANGE COLUMN a b …: a rename.
    const renamed =
      action === 'rename' ||
      (action === 'change' &&
        columnOf((command.old_column ?? {}) as Tree) !== columnOf((command.column ?? {}) as Tree));
    if (renamed) {
      // A renamed table or column: the keys read so far may name what is no longer there.
      unsure = true;
    } else if (action === 'add' || action === 'modify' || action === 'change') {
      const definition = command.resource === 'column' ? command : (command.create_definitions as Tree | undefined);
      const found = definition ? keysOfDefinition(definition, table) : { keys: [], unsure: false };
      keys.push(...found.keys);
      unsure ||= found.unsure;
    }
    // A drop is not applied: a migration's down section drops what its up section creates, and a
    // key believed to exist only keeps the rules silent.
  }
  return keys.length > 0 || unsure ? [{ table, keys, addition: true, ...(unsure ? { unsure } : {}) }] : [];
}

/** Tables a statement renames: left unsure. */
function renamed(names: unknown): DeclaredTable[] {
  return list(names)
    .flatMap((name) => (Array.isArray(name) ? name : [name]))
    .map((name) => tableName(name))
    .filter((name): name is string => Boolean(name))
    .map((table) => ({ table, keys: [], unsure: true, addition: true }));
}

function tablesOf(statement: Tree): DeclaredTable[] {
  const keyword = word(statement.keyword);
  switch (statement.type) {
    case 'create':
      return keyword === 'table' ? createTable(statement) : keyword === 'index' ? createIndex(statement) : [];
    case 'alter':
      return alterTable(statement);
    case 'rename':
      return renamed(statement.table);
    default:
      return [];
  }
}

/**
 * MySQL's `SERIAL` type, which the grammar lacks, written as what it stands for (`BIGINT UNSIGNED
 * NOT NULL AUTO_INCREMENT UNIQUE`, the UNIQUE being the part that matters here); only after a
 * backticked column name, as Drizzle Kit writes it, so that a column named serial is left alone.
 */
function withoutSerial(text: string): string {
  return text.replace(/(`[^`\n]+`\s+)serial\b/gi, '$1bigint unsigned unique');
}

/** The tables and unique keys a MySQL text declares, or null when the MySQL grammar rejects it too. */
export function uniqueKeysInMysql(text: string): DeclaredTable[] | null {
  const parser = mysqlGrammar();
  if (!parser) return null;
  let tree: unknown;
  try {
    tree = parser.astify(withoutSerial(text), { database: 'mysql' });
  } catch {
    return null;
  }
  return list(tree).flatMap(tablesOf);
}
