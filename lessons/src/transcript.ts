import type { Queryable, StatementResult } from './database.js';

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
        into.push({
          who,
          sql,
          params: [...params],
          returned: null,
          changed: null,
          error: error instanceof Error ? error.message : String(error),
        });
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
    tables[name] = (
      await db.query<Record<string, unknown>>(`SELECT * FROM ${identifier} AS row_value ORDER BY row_value`)
    ).rows;
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
      for (const row of rows)
        lines.push(
          `  ${Object.entries(row)
            .map(([column, value]) => `${column}=${formatValue(value)}`)
            .join(' ')}`,
        );
    }
  }
  return lines.join('\n');
}

/** A statement with its parameters, as the transcript and the race timeline show it. */
export function statementText(sql: string, params: readonly unknown[]): string {
  return params.length > 0 ? `${sql}  [${params.map(formatValue).join(', ')}]` : sql;
}

function describeStatement(statement: TranscriptStatement): string {
  const text = statementText(statement.sql, statement.params);
  if (statement.error !== undefined) return `${text}  -> ERROR: ${statement.error}`;
  if (statement.returned === null) return text;
  return `${text}  -> ${rowCounts(statement.returned, statement.changed)}`;
}

/** `1 row, 1 changed`: what a statement returned and, for a change, how many rows it changed. */
export function rowCounts(returned: number, changed: number | null): string {
  const counts = [`${returned} ${returned === 1 ? 'row' : 'rows'}`];
  if (changed !== null) counts.push(`${changed} changed`);
  return counts.join(', ');
}

/** A value as the console shows it in a table: text and numbers as they are, a time as a time, anything else as JSON. */
function cellText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  if (value === undefined) return 'undefined';
  return value instanceof Date ? value.toString() : (JSON.stringify(value) ?? typeof value);
}

function formatValue(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

/** What console statements gave, as text: a table of the rows, or how many rows changed. */
export function formatStatementResults(results: readonly StatementResult[]): string {
  return results
    .map((result) => {
      if (result.columns.length === 0)
        return result.affectedRows === null
          ? 'done'
          : `done, ${result.affectedRows} ${result.affectedRows === 1 ? 'row' : 'rows'} changed`;
      const cells = result.rows.map((row) =>
        result.columns.map((column) => (row[column] === null ? 'null' : cellText(row[column]))),
      );
      const widths = result.columns.map((column, index) =>
        Math.max(column.length, ...cells.map((cell) => cell[index].length)),
      );
      const line = (values: readonly string[]) =>
        values
          .map((value, index) => value.padEnd(widths[index]))
          .join(' | ')
          .trimEnd();
      return [
        line(result.columns),
        widths.map((width) => '-'.repeat(width)).join('-+-'),
        ...cells.map(line),
        `(${result.rows.length} ${result.rows.length === 1 ? 'row' : 'rows'})`,
      ].join('\n');
    })
    .join('\n\n');
}

/** One thing a worker did, or was seen doing, in a race on a real server; in the order it happened. */
export interface TimelineEvent {
  readonly worker: 'A' | 'B';
  readonly text: string;
}

const columnWidth = 58;

/** A race as two columns, worker A and worker B, one event a row, in the order the events happened. */
export function formatTimeline(events: readonly TimelineEvent[]): string {
  const rows = [
    ['worker A', 'worker B'],
    ['-'.repeat(columnWidth), '-'.repeat(columnWidth)],
  ];
  for (const event of events) {
    for (const piece of wrap(event.text, columnWidth)) rows.push(event.worker === 'A' ? [piece, ''] : ['', piece]);
  }
  return rows.map(([left, right]) => `${left.padEnd(columnWidth)} | ${right}`.trimEnd()).join('\n');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = `  ${word}`;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}
