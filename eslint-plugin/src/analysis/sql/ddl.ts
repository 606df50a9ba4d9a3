import type { DeclaredTable, RowTest } from '../contract/schema.js';
import { uniqueKeysInMysql } from './mysql-ddl.js';
import { parseSql, scanSql, sqlParserLoaded } from './parser.js';

/**
 * The unique keys a SQL file declares, read with PostgreSQL's grammar: PRIMARY KEY and UNIQUE
 * column and table constraints of CREATE TABLE, ALTER TABLE … ADD CONSTRAINT, and CREATE UNIQUE
 * INDEX (partial when it has a WHERE). A file or statement PostgreSQL rejects is read with
 * MySQL's grammar (`mysql-ddl.ts`); what neither reads (a psql command, another dialect) is
 * skipped statement by statement, its tables left unsure; null when nothing in the file parses.
 */

type Tree = Record<string, unknown>;

function entry(node: unknown): [string, Tree] | undefined {
  if (!node || typeof node !== 'object') return undefined;
  for (const key in node as Tree) return [key, (node as Tree)[key] as Tree];
  return undefined;
}

function strings(list: unknown): string[] {
  return (Array.isArray(list) ? list : [])
    .map((item) => (entry(item)?.[1].sval as string | undefined) ?? '')
    .filter(Boolean);
}

/**
 * A table's name as the statement gives it: PostgreSQL folds an unquoted name to lower case and
 * keeps a quoted one (`"ArticleRatingReview"`), as the queries of application code name it too.
 */
function relationName(relation: unknown): string | undefined {
  return (relation as { relname?: string } | undefined)?.relname;
}

function constraintKey(constraint: Tree, columns: string[], table: string): DeclaredTable['keys'][number] | undefined {
  const type = constraint.contype;
  if (type !== 'CONSTR_PRIMARY' && type !== 'CONSTR_UNIQUE') return undefined;
  const keys = columns.length > 0 ? columns : strings(constraint.keys);
  if (keys.length === 0) return undefined;
  const word = type === 'CONSTR_PRIMARY' ? 'PRIMARY KEY' : 'UNIQUE';
  return {
    columns: keys,
    partial: false,
    written: `${word} (${keys.join(', ')}) on ${table}`,
    ...(type === 'CONSTR_PRIMARY' && { primary: true as const }),
  };
}

/**
 * A partial index's condition as tests of its columns, when that is all it is: `deleted_at IS
 * NULL`, `status = 'open'`, `status NOT IN ('failed', 'refunded')`, joined by AND.
 */
function rowTests(where: unknown): RowTest[] | undefined {
  const [type, node] = entry(where) ?? [];
  const columnOf = (ref: unknown) => {
    const fields = (entry(ref)?.[1].fields as unknown[] | undefined) ?? [];
    const column = entry(fields[fields.length - 1])?.[1].sval;
    return typeof column === 'string' ? column : undefined;
  };
  if (type === 'NullTest') {
    const column = columnOf(node?.arg);
    if (column === undefined) return undefined;
    return [node?.nulltesttype === 'IS_NULL' ? { column, empty: true } : { column, filled: true }];
  }
  if (type === 'A_Expr' && (node?.kind === 'AEXPR_OP' || node?.kind === 'AEXPR_IN')) {
    const operator = entry((node.name as unknown[] | undefined)?.[0])?.[1].sval;
    const column = columnOf(node.lexpr);
    const [listed, value] = entry(node.rexpr) ?? [];
    const items = listed === 'List' ? ((value?.items as unknown[] | undefined) ?? []) : [node.rexpr];
    const values = items.map((item) => {
      const constant = entry(item);
      const text = constant?.[0] === 'A_Const' ? (constant[1].sval as Tree | undefined)?.sval : undefined;
      return typeof text === 'string' ? text : undefined;
    });
    if (column === undefined || values.length === 0 || values.some((text) => text === undefined)) return undefined;
    if (operator === '=') return [{ column, oneOf: values as string[] }];
    if (operator === '<>' || operator === '!=') return [{ column, noneOf: values as string[] }];
    return undefined;
  }
  if (type === 'BoolExpr' && node?.boolop === 'AND_EXPR') {
    const parts = ((node.args as unknown[] | undefined) ?? []).map(rowTests);
    return parts.every((part) => part !== undefined) ? parts.flat() : undefined;
  }
  return undefined;
}

/** A constraint that settles duplicates in a way the keys below cannot describe: EXCLUDE, or UNIQUE USING INDEX. */
function opaqueConstraint(constraint: Tree): boolean {
  if (constraint.contype === 'CONSTR_EXCLUSION') return true;
  return (
    (constraint.contype === 'CONSTR_PRIMARY' || constraint.contype === 'CONSTR_UNIQUE') &&
    typeof constraint.indexname === 'string'
  );
}

function columnKeys(column: Tree, table: string): { keys: DeclaredTable['keys'][number][]; unsure: boolean } {
  const keys: DeclaredTable['keys'][number][] = [];
  let unsure = false;
  for (const constraint of (column.constraints as unknown[]) ?? []) {
    const body = entry(constraint)?.[1] ?? {};
    if (opaqueConstraint(body)) unsure = true;
    const key = constraintKey(body, [String(column.colname)], table);
    if (key) keys.push(key);
  }
  return { keys, unsure };
}

function tablesOf(statement: [string, Tree]): DeclaredTable[] {
  const [type, body] = statement;
  if (type === 'CreateStmt') {
    const table = relationName(body.relation);
    if (!table) return [];
    const keys: DeclaredTable['keys'][number][] = [];
    // A partition or a child table gets keys from its parent; LIKE … INCLUDING copies another table's.
    let unsure = (Array.isArray(body.inhRelations) && body.inhRelations.length > 0) || body.partbound !== undefined;
    for (const element of (body.tableElts as unknown[]) ?? []) {
      const [kind, value] = entry(element) ?? [];
      if (kind === 'ColumnDef' && value) {
        const found = columnKeys(value, table);
        keys.push(...found.keys);
        unsure ||= found.unsure;
      } else if (kind === 'Constraint' && value) {
        if (opaqueConstraint(value)) unsure = true;
        const key = constraintKey(value, [], table);
        if (key) keys.push(key);
      } else if (kind === 'TableLikeClause') {
        unsure = true;
      }
    }
    return [{ table, keys, ...(unsure ? { unsure } : {}) }];
  }
  if (type === 'AlterTableStmt') {
    const table = relationName(body.relation);
    if (!table) return [];
    let unsure = false;
    const keys = ((body.cmds as unknown[]) ?? []).flatMap((command) => {
      const [kind, definition] = entry(entry(command)?.[1]?.def) ?? [];
      if (!definition) return [];
      // ALTER TABLE … ADD COLUMN code text UNIQUE
      if (kind === 'ColumnDef') {
        const found = columnKeys(definition, table);
        unsure ||= found.unsure;
        return found.keys;
      }
      if (opaqueConstraint(definition)) unsure = true;
      const key = constraintKey(definition, [], table);
      return key ? [key] : [];
    });
    return keys.length > 0 || unsure ? [{ table, keys, addition: true, ...(unsure ? { unsure } : {}) }] : [];
  }
  if (type === 'IndexStmt' && body.unique === true) {
    const table = relationName(body.relation);
    if (!table) return [];
    // An expression (`lower(email)`, `COALESCE(realm, '')`) gives equal values for equal columns:
    // a repeat of the same values is refused as by a key on the columns it reads.
    const columns = [
      ...new Set(
        ((body.indexParams as unknown[]) ?? []).flatMap((param) => {
          const element = entry(param)?.[1];
          return typeof element?.name === 'string' ? [element.name] : columnsRead(element?.expr);
        }),
      ),
    ];
    if (columns.length === 0) return [{ table, keys: [], unsure: true, addition: true }];
    const partial = body.whereClause !== undefined;
    const rowsWhere = partial ? rowTests(body.whereClause) : undefined;
    return [
      {
        table,
        addition: true,
        keys: [
          {
            columns,
            partial,
            ...(rowsWhere ? { rowsWhere } : {}),
            written: `UNIQUE INDEX ${typeof body.idxname === 'string' ? body.idxname : ''} on ${table} (${columns.join(', ')})${partial ? ' WHERE …' : ''}`,
          },
        ],
      },
    ];
  }
  // A renamed column or table: the keys read so far may name what is no longer there.
  if (type === 'RenameStmt' && body.relation) {
    const table = relationName(body.relation);
    const renamed = body.renameType === 'OBJECT_TABLE' && typeof body.newname === 'string' ? [body.newname] : [];
    return [table, ...renamed]
      .filter((name): name is string => Boolean(name))
      .map((name) => ({ table: name, keys: [], unsure: true, addition: true }));
  }
  // Code run by the database (DO blocks, functions) may create keys no statement here shows.
  if (type === 'DoStmt' || type === 'CreateFunctionStmt') return tablesMentioned(stringsIn(body).join('\n'));
  return [];
}

/** The columns an expression reads: `email` in `lower(email)`. */
function columnsRead(tree: unknown, depth = 0): string[] {
  if (depth > 30 || !tree || typeof tree !== 'object') return [];
  const reference = (tree as Tree).ColumnRef as Tree | undefined;
  const fields = (reference?.fields as unknown[] | undefined) ?? [];
  const column = entry(fields[fields.length - 1])?.[1].sval;
  if (reference) return typeof column === 'string' ? [column] : [];
  return Object.values(tree as Tree).flatMap((value) => columnsRead(value, depth + 1));
}

/** The string values inside a parse tree: a DO block's or a function's body. */
function stringsIn(tree: unknown, depth = 0): string[] {
  if (depth > 50 || !tree || typeof tree !== 'object') return typeof tree === 'string' ? [tree] : [];
  return Object.values(tree as Tree).flatMap((value) => stringsIn(value, depth + 1));
}

/** Tables a text we cannot read names after TABLE or ON: their keys may be declared there. */
export function tablesMentioned(text: string): DeclaredTable[] {
  const names = new Set<string>();
  for (const match of text.matchAll(
    /\b(?:table|on)\s+(?:only\s+)?(?:if\s+(?:not\s+)?exists\s+)?((?:[\w$]+|"[^"]+"|`[^`]+`)(?:\.(?:[\w$]+|"[^"]+"|`[^`]+`))?)/gi,
  )) {
    const name = match[1]
      .split('.')
      .pop()!
      .replace(/^["`]|["`]$/g, '');
    if (name) names.add(name);
  }
  return [...names].map((table) => ({ table, keys: [], unsure: true, addition: true }));
}

/** Top-level statements of a text, split at its semicolons by PostgreSQL's own scanner. */
function statementsOf(text: string): string[] {
  const tokens = scanSql(text);
  if (!tokens) return [];
  const bytes = Buffer.from(text);
  const parts: string[] = [];
  let start = 0;
  for (const token of tokens) {
    if (token.text !== ';') continue;
    parts.push(bytes.subarray(start, token.end).toString());
    start = token.end;
  }
  parts.push(bytes.subarray(start).toString());
  return parts.filter((part) => part.trim() !== '');
}

/**
 * The MySQL grammar reads a large data dump slowly (about 2 s a megabyte): a text above this size
 * is not given to it whole, only its DDL statements one by one.
 */
const wholeMysqlLimit = 200_000;
/** Comments before a statement; MySQL reads `-->` (Drizzle Kit's statement breakpoint) as an operator, not a comment. */
const leadingComments = /^\s*(?:(?:--[^\n]*|#[^\n]*|\/\*[\s\S]*?\*\/)\s*)*/;
/** A statement that may declare a key or rename a table, after any comments. */
const ddlStart = /^(?:create|alter|rename)\b/i;

/** A DDL statement PostgreSQL rejected, read with MySQL's grammar; null when it is not DDL or that grammar rejects it too. */
function mysqlStatement(part: string): DeclaredTable[] | null {
  const statement = part.replace(leadingComments, '');
  return sqlParserLoaded() && ddlStart.test(statement) ? uniqueKeysInMysql(statement) : null;
}

export function uniqueKeysInSql(text: string): DeclaredTable[] | null {
  const whole = parseSql(text);
  // PostgreSQL's grammar rejects it: perhaps MySQL's reads it whole. (Before the parser has
  // loaded, every text reads as rejected; that says nothing of its dialect.)
  if (!whole && sqlParserLoaded() && text.trim() !== '' && text.length <= wholeMysqlLimit) {
    const mysql = uniqueKeysInMysql(text);
    if (mysql) return mysql;
  }
  const parts = whole ? [] : statementsOf(text);
  const trees = whole ? [whole] : parts.map(parseSql);
  // DDL statements PostgreSQL rejects, read by the MySQL grammar one by one; null where it rejects them too.
  const others = parts.map((part, index) => (trees[index] === null ? mysqlStatement(part) : null));
  if (trees.every((tree, index) => tree === null && others[index] === null)) return text.trim() === '' ? [] : null;
  // A statement neither grammar reads (another dialect's ALTER TABLE …) may still declare a key:
  // the tables it names are not fully known.
  const skipped = parts
    .filter((_part, index) => trees[index] === null && others[index] === null)
    .flatMap(tablesMentioned);
  return [
    ...trees.flatMap((tree) =>
      (tree?.stmts ?? []).flatMap((raw) => {
        const statement = entry(raw.stmt);
        return statement ? tablesOf(statement) : [];
      }),
    ),
    ...others.flatMap((tables) => tables ?? []),
    ...skipped,
  ];
}
