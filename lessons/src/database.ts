/**
 * What the runner needs from a database, whichever engine is behind it: PGlite in Node,
 * PGlite in a browser, or a real PostgreSQL server. Handlers in the lessons see only `Queryable`,
 * so the code a lesson shows runs unchanged on all three.
 */

export interface QueryRows<Row> {
  rows: Row[];
  /** Rows an INSERT, UPDATE or DELETE changed, as the engine reports it. */
  affectedRows?: number;
}

/** The one method a lesson handler may call: a parameterised SQL statement. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryRows<Row>>;
}

/** What one statement typed into a lesson's SQL console gave back. */
export interface StatementResult {
  readonly columns: readonly string[];
  readonly rows: readonly Record<string, unknown>[];
  /** Rows an INSERT, UPDATE or DELETE changed. */
  readonly affectedRows: number | null;
}

export interface LessonDatabase {
  /** A short name for reports, e.g. `PGlite` or `PostgreSQL 15.8`. */
  readonly engine: string;
  /**
   * Makes the database private and empty for one item: drops everything a previous item left and
   * creates the item's tables from `schemaSql`.
   */
  reset(schemaSql: string): Promise<void>;
  /**
   * Runs `work` as one worker would: on a connection whose session state has been discarded, inside
   * one transaction that commits when `work` resolves and rolls back when it throws.
   */
  asWorker<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Reads outside every worker transaction, so they see only what was committed. */
  readonly read: Queryable;
  /**
   * Runs SQL a learner typed, one or more statements, outside every worker transaction, and gives
   * each statement's result. A transaction the text leaves open is rolled back at its end, so the
   * next item still starts from a clean session. Rejects with PostgreSQL's message on an error.
   */
  runSql(sql: string): Promise<StatementResult[]>;
  close(): Promise<void>;
}

/** Opens a database for a runner. The runner calls it once and reuses the result for every item. */
export type DatabaseOpener = () => Promise<LessonDatabase>;
