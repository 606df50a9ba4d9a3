import type { Queryable } from './database.js';

/**
 * The SQL an item ran, as it ran: every statement with its parameters and the rows it returned or
 * changed, the transaction boundaries of each worker, and the rows each table held at the end. A
 * reader checks a result line or an explanation against this, not against the lesson's word.
 */

export interface TranscriptStatement {
  /** `worker A`, `worker B`, or `reader` for the reads made after the workers finished. */
  readonly who: string;
  /** The statement, or `BEGIN`, `COMMIT` and `ROLLBACK` around a worker's handler. */
  readonly sql: string;
  readonly params: readonly unknown[];
  /** Rows the statement returned; `null` for a transaction boundary. */
  readonly returned: number | null;
  /** Rows an INSERT, UPDATE or DELETE changed; `null` for any other statement. */
  readonly changed: number | null;
  /** PostgreSQL's message, when the statement failed. */
  readonly error?: string;
}

export type TableRows = Readonly<Record<string, readonly Readonly<Record<string, unknown>>[]>>;

/** One fresh database of an item: most items use one, an item that compares designs uses one each. */
export interface TranscriptPart {
  readonly title: string;
  readonly statements: readonly TranscriptStatement[];
  /** Every table of the database once the part was over, rows in a stable order. */
  readonly tables: TableRows;
}

export type Transcript = readonly TranscriptPart[];

const changingStatement = /^\s*(insert|update|delete)\b/i;

/** A `Queryable` that appends each statement it runs to `into`, under `who`. */
export function recording(db: Queryable, who: string, into: TranscriptStatement[]): Queryable {
  return {
    async query<Row>(sql: string, params: unknown[] = []) {
      try {
        const result = await db.query<Row>(sql, params);
        const changed = changingStatement.test(sql) ? (result.affectedRows ?? null) : null;
        into.push({ who, sql, params: [...params], returned: result.rows.length, changed });
        return result;
      } catch (error) {
        into.push({ who, sql, params: [...params], returned: null, changed: null, error: error instanceof Error ? error.message : String(error) });
        throw error;
      }
    },
  };
}

/** Every table in the current schema with all its rows, each table ordered by its whole row. */
export async function readTables(db: Queryable): Promise<TableRows> {
  const names = await db.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const tables: Record<string, Record<string, unknown>[]> = {};
  for (const { name } of names.rows) {
    const identifier = `"${name.replace(/"/g, '""')}"`;
    tables[name] = (await db.query<Record<string, unknown>>(`SELECT * FROM ${identifier} AS row_value ORDER BY row_value`)).rows;
  }
  return tables;
}

/** The transcript as plain text, one statement a line, for a terminal or a collapsed panel section. */
export function formatTranscript(transcript: Transcript): string {
  const lines: string[] = [];
  for (const part of transcript) {
    if (transcript.length > 1) lines.push(`-- ${part.title}`);
    for (const statement of part.statements) lines.push(`${statement.who.padEnd(8)}  ${describeStatement(statement)}`);
    for (const [table, rows] of Object.entries(part.tables)) {
      lines.push(`table ${table}: ${rows.length} ${rows.length === 1 ? 'row' : 'rows'}`);
      for (const row of rows) lines.push(`  ${Object.entries(row).map(([column, value]) => `${column}=${formatValue(value)}`).join(' ')}`);
    }
  }
  return lines.join('\n');
}

function describeStatement(statement: TranscriptStatement): string {
  const params = statement.params.length > 0 ? `  [${statement.params.map(formatValue).join(', ')}]` : '';
  if (statement.error !== undefined) return `${statement.sql}${params}  -> ERROR: ${statement.error}`;
  if (statement.returned === null) return statement.sql;
  const counts = [`${statement.returned} ${statement.returned === 1 ? 'row' : 'rows'}`];
  if (statement.changed !== null) counts.push(`${statement.changed} changed`);
  return `${statement.sql}${params}  -> ${counts.join(', ')}`;
}

function formatValue(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}
