import type { DeclaredTable } from '../schema/model.js';
import { parseSql, scanSql } from './parser.js';

/**
 * The unique keys a SQL file declares, read with PostgreSQL's grammar: PRIMARY KEY and UNIQUE
 * column and table constraints of CREATE TABLE, ALTER TABLE … ADD CONSTRAINT, and CREATE UNIQUE
 * INDEX (partial when it has a WHERE). Statements PostgreSQL rejects (another dialect, a psql
 * command) are skipped one by one; null when nothing in the file parses.
 */

type Tree = Record<string, unknown>;

function entry(node: unknown): [string, Tree] | undefined {
  if (!node || typeof node !== 'object') return undefined;
  for (const key in node as Tree) return [key, (node as Tree)[key] as Tree];
  return undefined;
}

function strings(list: unknown): string[] {
  return (Array.isArray(list) ? list : []).map((item) => (entry(item)?.[1].sval as string | undefined) ?? '').filter(Boolean);
}

function relationName(relation: unknown): string | undefined {
  const name = (relation as { relname?: string } | undefined)?.relname;
  return name?.toLowerCase();
}

function constraintKey(constraint: Tree, columns: string[], table: string): { columns: string[]; partial: boolean; written: string } | undefined {
  const type = constraint.contype;
  if (type !== 'CONSTR_PRIMARY' && type !== 'CONSTR_UNIQUE') return undefined;
  const keys = columns.length > 0 ? columns : strings(constraint.keys);
  if (keys.length === 0) return undefined;
  const word = type === 'CONSTR_PRIMARY' ? 'PRIMARY KEY' : 'UNIQUE';
  return { columns: keys.map((key) => key.toLowerCase()), partial: false, written: `${word} (${keys.join(', ')}) on ${table}` };
}

function tablesOf(statement: [string, Tree]): DeclaredTable[] {
  const [type, body] = statement;
  if (type === 'CreateStmt') {
    const table = relationName(body.relation);
    if (!table) return [];
    const keys: DeclaredTable['keys'][number][] = [];
    for (const element of (body.tableElts as unknown[]) ?? []) {
      const [kind, value] = entry(element) ?? [];
      if (kind === 'ColumnDef' && value) {
        for (const constraint of (value.constraints as unknown[]) ?? []) {
          const key = constraintKey(entry(constraint)?.[1] ?? {}, [String(value.colname)], table);
          if (key) keys.push(key);
        }
      } else if (kind === 'Constraint' && value) {
        const key = constraintKey(value, [], table);
        if (key) keys.push(key);
      }
    }
    return [{ table, keys }];
  }
  if (type === 'AlterTableStmt') {
    const table = relationName(body.relation);
    if (!table) return [];
    const keys = ((body.cmds as unknown[]) ?? []).flatMap((command) => {
      const definition = entry((entry(command)?.[1] as Tree | undefined)?.def)?.[1];
      const key = definition && constraintKey(definition, [], table);
      return key ? [key] : [];
    });
    return keys.length > 0 ? [{ table, keys }] : [];
  }
  if (type === 'IndexStmt' && body.unique === true) {
    const table = relationName(body.relation);
    if (!table) return [];
    // An expression (lower(email)) is not a column: such an index settles duplicates of the expression only.
    const columns = ((body.indexParams as unknown[]) ?? []).map((param) => (entry(param)?.[1].name as string | undefined)?.toLowerCase());
    if (columns.some((column) => column === undefined)) return [];
    const partial = body.whereClause !== undefined;
    return [{ table, keys: [{ columns: columns as string[], partial, written: `UNIQUE INDEX ${String(body.idxname ?? '')} on ${table} (${columns.join(', ')})${partial ? ' WHERE …' : ''}` }] }];
  }
  return [];
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

export function uniqueKeysInSql(text: string): DeclaredTable[] | null {
  const whole = parseSql(text);
  const trees = whole ? [whole] : statementsOf(text).map(parseSql);
  if (trees.every((tree) => tree === null)) return text.trim() === '' ? [] : null;
  return trees.flatMap((tree) => (tree?.stmts ?? []).flatMap((raw) => {
    const statement = entry(raw.stmt);
    return statement ? tablesOf(statement) : [];
  }));
}
