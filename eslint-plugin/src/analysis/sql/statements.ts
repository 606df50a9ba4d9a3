import type { InsertStmt, Node as PgNode, SelectStmt } from '@pgsql/types';

import { parseSql, scanSql, sqlParserLoaded } from './parser.js';

/**
 * What the rules need to know about a SQL text, read from PostgreSQL's parse tree: which
 * tables it reads and writes, which `$n` parameter fills which inserted column, and whether the
 * write itself settles duplicates (ON CONFLICT) or something else serialises the work.
 */

export interface InsertedColumn {
  /** Column name, or `#1`, `#2`… when the INSERT names no columns. */
  name: string;
  /** The `$n` parameters the column's value is built from. */
  params: number[];
  /** SQL functions called in the value, such as `gen_random_uuid` or `now`. */
  functions: string[];
  /** The constant the statement writes itself (`'paid'`, `1`, `true`), as text. */
  constant?: string;
}

export interface SqlInsert {
  kind: 'insert';
  table: string;
  columns: InsertedColumn[];
  /**
   * `inferred`: how the key is named: `columns` (plain columns, in `target`), `none` (no target:
   * any unique key), `other` (ON CONSTRAINT, an expression).
   */
  onConflict?: { action: 'nothing' | 'update'; target: string[]; inferred?: 'columns' | 'none' | 'other' };
  /** INSERT … SELECT … WHERE: the statement decides for itself whether to write. */
  filtered: boolean;
  /** Where an ON CONFLICT clause would go (a byte offset): before RETURNING, or at the end. */
  conflictClauseAt?: { offset: number; beforeReturning: boolean };
}

export interface SqlRead {
  kind: 'read';
  tables: string[];
  /** The columns its WHERE compares with `=` (or IN): what the read checks for; undefined without a WHERE. */
  filters?: string[];
  /** FOR UPDATE / FOR SHARE: existing rows are locked (rows that do not exist yet are not). */
  locksRows: boolean;
}

export interface SqlChange {
  kind: 'update' | 'delete';
  table: string;
  /** Columns an UPDATE sets from themselves plus or minus something: `credits = credits + $1`. */
  adds?: string[];
  /** Columns an UPDATE sets to something other than NULL or FALSE: `paid_at = now()`, `status = 'paid'`. */
  sets?: InsertedColumn[];
  /** The columns its WHERE compares with `=` (or IN), or tests for NULL. */
  filters?: string[];
}

/** Something that serialises competing workers: an advisory lock, LOCK TABLE, SERIALIZABLE. */
export interface SqlSerialisation {
  kind: 'serialisation';
  how: string;
}

export type SqlStatement = SqlInsert | SqlRead | SqlChange | SqlSerialisation;

type Tree = Record<string, unknown>;

function unwrap(node: PgNode | undefined): [string, Tree] | undefined {
  if (!node || typeof node !== 'object') return undefined;
  for (const key in node as Tree) return [key, (node as Tree)[key] as Tree];
  return undefined;
}

/** Calls `visit` with every typed node below `tree` (depth-first): `{ ParamRef: { … } }` → ('ParamRef', {…}). */
function eachNode(tree: unknown, visit: (type: string, value: Tree) => void, depth = 0): void {
  if (depth > 200 || !tree || typeof tree !== 'object') return;
  if (Array.isArray(tree)) {
    for (const item of tree) eachNode(item, visit, depth + 1);
    return;
  }
  for (const key in tree as Tree) {
    const value = (tree as Tree)[key];
    if (!value || typeof value !== 'object') continue;
    // Node types are capitalised (InsertStmt, ParamRef); fields are not.
    const code = key.charCodeAt(0);
    if (code >= 65 && code <= 90 && !Array.isArray(value)) visit(key, value as Tree);
    eachNode(value, visit, depth + 1);
  }
}

/** The `$n` parameters and the SQL functions a value expression is built from. */
function ingredients(tree: unknown, into: { params: Set<number>; functions: Set<string> }): void {
  eachNode(tree, (type, value) => {
    if (type === 'ParamRef' && typeof value.number === 'number') into.params.add(value.number);
    if (type !== 'FuncCall') return;
    const parts = (value.funcname as PgNode[] | undefined) ?? [];
    const last = unwrap(parts[parts.length - 1]);
    if (last && typeof last[1].sval === 'string') into.functions.add(last[1].sval.toLowerCase());
  });
}

function functionsIn(tree: unknown): string[] {
  const found = { params: new Set<number>(), functions: new Set<string>() };
  ingredients(tree, found);
  return [...found.functions];
}

// Names are kept as the parser gives them: unquoted ones folded to lower case, quoted ones
// ("PaymentMethods", "userId") as written, which is how PostgreSQL itself knows them.
function tablesIn(tree: unknown): string[] {
  const tables = new Set<string>();
  eachNode(tree, (type, value) => {
    if (type === 'RangeVar' && typeof value.relname === 'string') tables.add(value.relname);
  });
  return [...tables];
}

/** The last name of a column reference: `credits` of `users.credits`. */
function columnOf(node: unknown): string | undefined {
  const ref = unwrap(node as PgNode);
  if (ref?.[0] !== 'ColumnRef') return undefined;
  const fields = (ref[1].fields as PgNode[] | undefined) ?? [];
  const last = unwrap(fields[fields.length - 1]);
  return typeof last?.[1].sval === 'string' ? last[1].sval : undefined;
}

/** The constant an `A_Const` holds, as text; `null` for NULL and FALSE, which clear a column rather than set it. */
function constantText(value: Tree): string | null {
  if (value.isnull === true) return null;
  const boolval = value.boolval as Tree | undefined;
  if (boolval) return boolval.boolval === true ? 'true' : null;
  for (const [key, inner] of [
    ['sval', 'sval'],
    ['ival', 'ival'],
    ['fval', 'fval'],
  ] as const) {
    const holder = value[key] as Record<string, string | number | undefined> | undefined;
    if (holder) return String(holder[inner] ?? 0);
  }
  return null;
}

/** `SET paid_at = now(), status = 'paid', by = $2`: the columns an UPDATE sets, leaving out those it clears. */
function setColumns(update: Tree): InsertedColumn[] {
  const columns: InsertedColumn[] = [];
  for (const target of (update.targetList as PgNode[] | undefined) ?? []) {
    const set = unwrap(target)?.[1];
    if (typeof set?.name !== 'string') continue;
    const value = unwrap(set.val as PgNode | undefined);
    const constant = value?.[0] === 'A_Const' ? constantText(value[1]) : undefined;
    if (constant === null) continue;
    const found = { params: new Set<number>(), functions: new Set<string>() };
    ingredients(set.val, found);
    columns.push({
      name: set.name,
      params: [...found.params],
      functions: [...found.functions],
      ...(constant !== undefined ? { constant } : {}),
    });
  }
  return columns;
}

/** `SET credits = credits + $1`, `SET stock = stock - 1`: the columns an UPDATE adds to or takes from. */
function addedColumns(update: Tree): string[] {
  const added: string[] = [];
  for (const target of (update.targetList as PgNode[] | undefined) ?? []) {
    const set = unwrap(target)?.[1];
    const value = unwrap(set?.val as PgNode | undefined);
    if (typeof set?.name !== 'string' || value?.[0] !== 'A_Expr' || value[1].kind !== 'AEXPR_OP') continue;
    const operator = unwrap(((value[1].name as PgNode[] | undefined) ?? [])[0])?.[1].sval;
    if (
      (operator === '+' || operator === '-') &&
      (columnOf(value[1].lexpr) === set.name || (operator === '+' && columnOf(value[1].rexpr) === set.name))
    )
      added.push(set.name);
  }
  return added;
}

function insertColumns(insert: InsertStmt): InsertedColumn[] {
  const names = (insert.cols ?? []).map((col) => (unwrap(col)?.[1].name as string | undefined) ?? '');
  const source = unwrap(insert.selectStmt)?.[1] as SelectStmt | undefined;
  // VALUES (…), (…): a column is built from whatever fills it in any row.
  const rows: PgNode[][] = (source?.valuesLists ?? []).map((row) => (unwrap(row)?.[1].items as PgNode[]) ?? []);
  // INSERT … SELECT a, b: the select list fills the columns in order.
  if (rows.length === 0 && source?.targetList) {
    rows.push(source.targetList.map((target) => (unwrap(target)?.[1].val as PgNode) ?? ({} as PgNode)));
  }
  let width = names.length;
  for (const row of rows) width = Math.max(width, row.length);
  const columns: InsertedColumn[] = [];
  for (let index = 0; index < width; index += 1) {
    const found = { params: new Set<number>(), functions: new Set<string>() };
    for (const row of rows) if (row[index]) ingredients(row[index], found);
    // The same constant in every row (`'pending'`): the value the statement writes itself.
    const constants = new Set(
      rows.map((row) => {
        const value = unwrap(row[index]);
        return value?.[0] === 'A_Const' ? constantText(value[1]) : null;
      }),
    );
    const [constant] = constants;
    columns.push({
      name: names[index] ? names[index] : `#${index + 1}`,
      params: [...found.params],
      functions: [...found.functions],
      ...(constants.size === 1 && typeof constant === 'string' ? { constant } : {}),
    });
  }
  return columns;
}

function conflictClause(insert: InsertStmt): SqlInsert['onConflict'] {
  const clause = insert.onConflictClause;
  if (!clause) return undefined;
  const elements = clause.infer?.indexElems ?? [];
  // A name the code fills in (`"${column}"`, read as `"$5"`) is not known here.
  const named = elements
    .map((element) => unwrap(element)?.[1].name)
    .filter((name): name is string => typeof name === 'string' && !/^\$\d+$/.test(name));
  const target = named.length === elements.length ? named : [];
  const inferred = !clause.infer ? 'none' : clause.infer.conname || target.length === 0 ? 'other' : 'columns';
  return { action: clause.action === 'ONCONFLICT_UPDATE' ? 'update' : 'nothing', target, inferred };
}

function summariseInsert(insert: InsertStmt, conflictClauseAt: SqlInsert['conflictClauseAt']): SqlInsert {
  const source = unwrap(insert.selectStmt)?.[1] as SelectStmt | undefined;
  return {
    kind: 'insert',
    table: insert.relation?.relname ?? '',
    columns: insertColumns(insert),
    onConflict: conflictClause(insert),
    filtered: Boolean(source?.whereClause),
    conflictClauseAt,
  };
}

/** Reads UTF-8 bytes of `text` by offset; ASCII text (nearly all SQL) needs no encoded copy. */
function byteReader(text: string): { length: number; at(offset: number): number } {
  // Only ASCII text has as many UTF-8 bytes as UTF-16 units.
  if (Buffer.byteLength(text) === text.length) return { length: text.length, at: (offset) => text.charCodeAt(offset) };
  const bytes = Buffer.from(text);
  return { length: bytes.length, at: (offset) => bytes[offset] };
}

/** The end of the statement in [start, end) without trailing blanks and semicolons (bytes). */
function contentEnd(bytes: ReturnType<typeof byteReader>, start: number, end: number): number {
  let at = Math.min(end, bytes.length);
  // Blanks (9-13, 32) and ';' (59) are single bytes in UTF-8.
  for (
    let byte = bytes.at(at - 1);
    at > start && (byte === 32 || byte === 59 || (byte >= 9 && byte <= 13));
    byte = bytes.at(at - 1)
  )
    at -= 1;
  return at;
}

const advisoryLock = /^pg_(try_)?advisory_(xact_)?lock(_shared)?$/;

function summariseSelect(select: SelectStmt): SqlStatement {
  const lock = functionsIn(select.targetList).find((name) => advisoryLock.test(name));
  if (lock) return { kind: 'serialisation', how: `${lock}()` };
  return {
    kind: 'read',
    tables: tablesIn(select),
    locksRows: (select.lockingClause ?? []).length > 0,
    filters: filtersOf(select.whereClause),
  };
}

/**
 * Columns compared for equality in a WHERE clause: `message_id = $1 AND tenant_id = $2` → both.
 * With `nullTests`, also those tested for NULL (`paid_at IS NULL`): an UPDATE's compare-and-set.
 */
function filtersOf(where: unknown, nullTests = false): string[] | undefined {
  if (!where) return undefined;
  const columns = new Set<string>();
  eachNode(where, (type, value) => {
    if (nullTests && type === 'NullTest') {
      const column = columnOf(value.arg);
      if (column) columns.add(column);
    }
    if (type !== 'A_Expr') return;
    const operator = unwrap((value.name as PgNode[] | undefined)?.[0])?.[1].sval;
    if (value.kind !== 'AEXPR_IN' && operator !== '=') return;
    for (const side of [value.lexpr, value.rexpr]) {
      const column = unwrap(side as PgNode | undefined);
      if (column?.[0] !== 'ColumnRef') continue;
      const fields = (column[1].fields as PgNode[] | undefined) ?? [];
      const name = unwrap(fields[fields.length - 1])?.[1].sval;
      if (typeof name === 'string') columns.add(name);
    }
  });
  return [...columns];
}

function isSerializable(tree: unknown): boolean {
  const json = JSON.stringify(tree).toLowerCase();
  return json.includes('transaction_isolation') && json.includes('serializable');
}

export interface SqlSummary {
  statements: SqlStatement[];
}

/** The byte offset of the RETURNING keyword at the top level of the statement in [start, end). */
function returningKeyword(text: string, start: number, end: number): number | undefined {
  let depth = 0;
  let found: number | undefined;
  for (const token of scanSql(text) ?? []) {
    if (token.start < start || token.start >= end) continue;
    if (token.text === '(') depth += 1;
    else if (token.text === ')') depth -= 1;
    else if (depth === 0 && token.text.toLowerCase() === 'returning') found = token.start;
  }
  return found;
}

/**
 * Summaries by SQL text: an editor re-lints the same file on every change, and a project repeats
 * its queries. Only the small summaries are kept, never parse trees, and never an answer given
 * while the parser was still loading.
 */
const summaries = new Map<string, SqlSummary | null>();
const summaryLimit = 2_000;

/** The statements of `text` in order, including data-modifying CTEs; null if it is not SQL. */
export function summariseSql(text: string): SqlSummary | null {
  let summary = summaries.get(text);
  if (summary === undefined) {
    summary = summarise(text);
    if (summary !== null || sqlParserLoaded()) {
      if (summaries.size >= summaryLimit) summaries.clear();
      summaries.set(text, summary);
    }
  }
  return summary;
}

/** Forgets every summary, so that a benchmark pays for parsing as a first run does. */
export function forgetSqlSummaries(): void {
  summaries.clear();
}

function summarise(text: string): SqlSummary | null {
  const tree = parseSql(text);
  if (!tree) return null;
  const bytes = byteReader(text);
  const statements: SqlStatement[] = [];
  for (const raw of tree.stmts ?? []) {
    const entry = unwrap(raw.stmt);
    if (!entry) continue;
    const [type, body] = entry;
    const start = raw.stmt_location ?? 0;
    const end = contentEnd(bytes, start, raw.stmt_len ? start + raw.stmt_len : bytes.length);
    const ctes = ((body.withClause as Tree | undefined)?.ctes as PgNode[] | undefined) ?? [];
    for (const cte of ctes) {
      const query = unwrap((unwrap(cte)?.[1].ctequery as PgNode | undefined) ?? undefined);
      if (query?.[0] === 'InsertStmt') {
        // No ON CONFLICT position is offered inside a CTE: its end is not the statement's end.
        statements.push(summariseInsert(query[1], undefined));
      } else if (query?.[0] === 'SelectStmt') statements.push(summariseSelect(query[1]));
    }
    if (type === 'InsertStmt') {
      const returningAt = (body as InsertStmt).returningClause ? returningKeyword(text, start, end) : undefined;
      statements.push(
        summariseInsert(body, { offset: returningAt ?? end, beforeReturning: returningAt !== undefined }),
      );
    } else if (type === 'SelectStmt') {
      statements.push(summariseSelect(body));
    } else if (type === 'UpdateStmt' || type === 'DeleteStmt') {
      const relation = body.relation as { relname?: string } | undefined;
      const adds = type === 'UpdateStmt' ? addedColumns(body) : [];
      const filters = filtersOf(body.whereClause, true);
      statements.push({
        kind: type === 'UpdateStmt' ? 'update' : 'delete',
        table: relation?.relname ?? '',
        ...(adds.length > 0 ? { adds } : {}),
        ...(type === 'UpdateStmt' ? { sets: setColumns(body) } : {}),
        ...(filters ? { filters } : {}),
      });
    } else if (type === 'LockStmt') {
      statements.push({ kind: 'serialisation', how: 'LOCK TABLE' });
    } else if ((type === 'TransactionStmt' || type === 'VariableSetStmt') && isSerializable(body)) {
      statements.push({ kind: 'serialisation', how: 'SERIALIZABLE isolation' });
    }
  }
  return { statements };
}
