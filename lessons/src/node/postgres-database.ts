import pg from 'pg';

import type { DatabaseOpener, LessonDatabase, Queryable, StatementResult } from '../database.js';

/**
 * A real PostgreSQL server behind the same interface as PGlite. Everything happens in a schema of
 * its own (dropped and recreated for each item), selected through the connection's search_path, so
 * the lesson's SQL runs unchanged and no other schema of the database is touched.
 */
export interface PostgresOptions {
  /** Defaults to `idempotency_lesson`. */
  readonly schema?: string;
}

const schemaName = /^[a-z_][a-z0-9_]*$/;

export function postgresOpener(connectionString: string, options: PostgresOptions = {}): DatabaseOpener {
  const schema = options.schema ?? 'idempotency_lesson';
  if (!schemaName.test(schema)) throw new Error(`"${schema}" is not a plain lower-case schema name`);
  return async () => {
    // search_path as a start-up option is the session default, so DISCARD ALL keeps it.
    const pool = new pg.Pool({ connectionString, max: 3, options: `-c search_path=${schema}` });
    pool.on('error', () => undefined); // an idle client dropped by the server; the next checkout reports it
    try {
      const version = await pool.query<{ server_version: string }>('SHOW server_version');
      return new PostgresLessonDatabase(pool, schema, `PostgreSQL ${version.rows[0]?.server_version ?? ''}`.trim());
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new Error(
        `Cannot reach the PostgreSQL server at DATABASE_URL: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  };
}

export class PostgresLessonDatabase implements LessonDatabase {
  readonly read: Queryable;

  constructor(
    private readonly pool: pg.Pool,
    private readonly schema: string,
    readonly engine: string,
  ) {
    this.read = queryableOf(pool);
  }

  async reset(schemaSql: string): Promise<void> {
    await this.pool.query(`DROP SCHEMA IF EXISTS ${this.schema} CASCADE; CREATE SCHEMA ${this.schema};\n${schemaSql}`);
  }

  async asWorker<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('DISCARD ALL');
      await client.query('BEGIN');
      try {
        const result = await work(queryableOf(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      }
    } finally {
      // A connection that could not even roll back is not handed to the next worker.
      client.release(broken);
    }
  }

  async runSql(sql: string): Promise<StatementResult[]> {
    const client = await this.pool.connect();
    try {
      const result = (await client.query(sql)) as pg.QueryResult | pg.QueryResult[];
      return (Array.isArray(result) ? result : [result]).map((each) => ({
        columns: (each.fields ?? []).map((field) => field.name),
        rows: each.rows,
        affectedRows:
          each.command === 'INSERT' || each.command === 'UPDATE' || each.command === 'DELETE' ? each.rowCount : null,
      }));
    } finally {
      // Outside a transaction this is only a warning; inside one it ends what the text left open.
      await client.query('ROLLBACK').catch(() => undefined);
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

export function queryableOf(client: pg.Pool | pg.PoolClient | pg.Client): Queryable {
  return {
    async query<Row>(sql: string, params?: unknown[]) {
      const result = await client.query(sql, params);
      return { rows: result.rows as Row[], affectedRows: result.rowCount ?? undefined };
    },
  };
}
