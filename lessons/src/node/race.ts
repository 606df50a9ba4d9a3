import { setTimeout as delay } from 'node:timers/promises';

import pg from 'pg';

import type { Queryable } from '../database.js';
import { formatOutcome, WorkerProcess, type Outcome, type RaceScenario, type WorkerName } from '../scenario.js';
import { workerId } from '../session.js';
import { rowCounts, statementText, type TimelineEvent } from '../transcript.js';
import { queryableOf } from './postgres-database.js';

/**
 * Races two workers on two connections of a real server, with an interleaving that is forced, not
 * hoped for: each worker's n-th statement waits until the worker before it has finished its n-th,
 * and the one after it its (n-1)-th, unless that worker is seen (in pg_blocking_pids) waiting for
 * it. So for check-then-insert both SELECTs run before either INSERT. A worker commits (or, where
 * the race says so, rolls back) only once the other has finished or is seen waiting for it, so
 * "B waited" in a result is an observation, never an assumption.
 */

export type RaceResult =
  | {
      readonly label: string;
      readonly ok: true;
      readonly line: string;
      readonly outcome: Outcome;
      readonly workers: Readonly<Record<WorkerName, WorkerRaceResult>>;
      /** What each worker did and was seen waiting for, in the order it happened. */
      readonly timeline: readonly TimelineEvent[];
      /** The server it ran on, e.g. `PostgreSQL 15.18`. */
      readonly engine: string;
    }
  | { readonly label: string; readonly ok: false; readonly failure: string };

export interface WorkerRaceResult {
  readonly took: boolean;
  readonly waited: boolean;
  /** Serialization failures (40001) this worker met and retried after. */
  readonly retried: number;
}

const workers: readonly WorkerName[] = ['A', 'B'];
const patience = 10_000;

export async function runRaces(
  races: readonly RaceScenario[],
  connectionString: string,
  schema = 'idempotency_race',
): Promise<RaceResult[]> {
  const results: RaceResult[] = [];
  for (const race of races) results.push(await runRace(race, connectionString, schema));
  return results;
}

async function runRace(race: RaceScenario, connectionString: string, schema: string): Promise<RaceResult> {
  const connect = async () => {
    const client = new pg.Client({ connectionString, options: `-c search_path=${schema}` });
    client.on('error', () => undefined); // reported by the query that meets it
    await client.connect();
    return client;
  };
  const clients: pg.Client[] = [];
  let step = 'connect three sessions (workers A and B, and an observer)';
  try {
    const observer = await connect();
    clients.push(observer);
    const sessions = {} as Record<WorkerName, { client: pg.Client; pid: number }>;
    for (const name of workers) {
      const client = await connect();
      clients.push(client);
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      sessions[name] = { client, pid };
    }
    const version = await observer.query<{ server_version: string }>('SHOW server_version');
    const engine = `PostgreSQL ${version.rows[0]?.server_version ?? ''}`.trim();
    step = 'create a fresh schema';
    await observer.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema};\n${race.schemaSql}`);

    step =
      race.messages.A.id === race.messages.B.id
        ? `workers A and B both handle ${race.messages.A.id}`
        : `worker A handles ${race.messages.A.id} while worker B handles ${race.messages.B.id}`;
    const lockstep = new Lockstep();
    const waited: Record<WorkerName, boolean> = { A: false, B: false };
    const inFlight: Record<WorkerName, boolean> = { A: false, B: false };
    const timeline: TimelineEvent[] = [];
    const note = (worker: WorkerName, text: string) => timeline.push({ worker, text });
    // Each statement is noted when it is sent and again when its answer comes back, so a wait shows between the two.
    const noting = (worker: WorkerName, db: Queryable): Queryable => ({
      async query<Row>(sql: string, params: unknown[] = []) {
        note(worker, statementText(sql, params));
        inFlight[worker] = true;
        try {
          const result = await db.query<Row>(sql, params);
          note(
            worker,
            `-> ${rowCounts(result.rows.length, /^\s*(insert|update|delete)\b/i.test(sql) ? (result.affectedRows ?? null) : null)}`,
          );
          return result;
        } finally {
          inFlight[worker] = false;
        }
      },
    });
    // While the workers run, the observer asks the server which of them waits for the other; a
    // waiting worker can go no further, so the lockstep stops holding the other one back for it.
    let racing = true;
    const watcher = (async () => {
      while (racing) {
        for (const name of workers) {
          if (!inFlight[name] || lockstep.isBlocked(name)) continue;
          const other = workers.find((candidate) => candidate !== name)!;
          const blocked = await observer.query<{ blocked: boolean }>(
            'SELECT $2::int = ANY (pg_blocking_pids($1)) AS blocked',
            [sessions[name].pid, sessions[other].pid],
          );
          if (blocked.rows[0]?.blocked) {
            note(
              name,
              `waiting: pg_blocking_pids(${sessions[name].pid}) names worker ${other} (${sessions[other].pid})`,
            );
            waited[name] = true;
            lockstep.block(name);
          }
        }
        await delay(5);
      }
    })();
    const commitWhenOthersSettled = async (me: WorkerName) => {
      const deadline = Date.now() + patience;
      while (!workers.every((other) => other === me || lockstep.isFinished(other) || lockstep.isBlocked(other))) {
        if (Date.now() > deadline)
          throw new Error(`worker ${me} waited ${patience} ms for the other worker to finish or block`);
        await delay(5);
      }
    };
    const retried: Record<WorkerName, number> = { A: 0, B: 0 };
    const took = await Promise.all(
      workers.map(async (name) => {
        const { client } = sessions[name];
        for (;;) {
          // Boundaries are noted as they are sent: a COMMIT that frees a waiting worker comes before its answer.
          // A handler on a pool sends no BEGIN: each of its statements commits as it ends.
          const together = race.commits !== 'each';
          if (together) {
            note(name, 'BEGIN');
            await client.query('BEGIN');
          }
          try {
            const result = await race.handler(
              lockstep.wrap(name, noting(name, queryableOf(client))),
              race.messages[name],
              workerId(name),
              new WorkerProcess(),
            );
            lockstep.finish(name);
            if (!together) return result;
            await commitWhenOthersSettled(name);
            const end = race.rollsBack === name ? 'ROLLBACK' : 'COMMIT';
            note(name, end);
            await client.query(end);
            return result;
          } catch (error) {
            const code = (error as { code?: unknown }).code;
            if (code === '40001' && race.retriesSerializationFailures && retried[name] < 3) {
              note(name, `ERROR 40001: ${error instanceof Error ? error.message : String(error)}`);
              note(name, 'ROLLBACK, then the handler again');
              await client.query('ROLLBACK');
              retried[name] += 1;
              continue;
            }
            lockstep.finish(name);
            if (together) {
              note(name, 'ROLLBACK');
              await client.query('ROLLBACK').catch(() => undefined);
            }
            throw error;
          }
        }
      }),
    ).finally(async () => {
      racing = false;
      await watcher;
    });

    step = 'read the durable state after both transactions ended';
    const outcome = await race.readOutcome(queryableOf(observer));
    const results = Object.fromEntries(
      workers.map((name, index) => [name, { took: took[index], waited: waited[name], retried: retried[name] }]),
    ) as Record<WorkerName, WorkerRaceResult>;
    const describeWorker = (name: WorkerName) => {
      const word = `${results[name].took ? race.words.took : race.words.declined}${race.rollsBack === name ? '/rolled back' : ''}`;
      const path = [results[name].waited ? 'waited' : '', results[name].retried ? `40001/retried` : '']
        .filter(Boolean)
        .join('/');
      return `${name}=${path ? `${path}/${word}` : word}`;
    };
    step = `drop schema ${schema}`;
    await observer.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    return {
      label: race.label,
      ok: true,
      line: `${race.label}: ${workers.map(describeWorker).join(', ')}; ${formatOutcome(outcome)}`,
      outcome,
      workers: results,
      timeline,
      engine,
    };
  } catch (error) {
    return {
      label: race.label,
      ok: false,
      failure: `failed at "${step}": ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }
}

/** Orders the statements of concurrent workers; see the comment at the top of this file. */
class Lockstep {
  private readonly completed = new Map<WorkerName, number>();
  private readonly finished = new Set<WorkerName>();
  /** Workers the server shows waiting for the other's uncommitted work: they cannot move until it ends. */
  private readonly blocked = new Set<WorkerName>();
  private waiting: (() => void)[] = [];

  wrap(me: WorkerName, db: Queryable): Queryable {
    let issued = 0;
    return {
      query: async <Row>(sql: string, params?: unknown[]) => {
        const statement = ++issued;
        await this.until(() =>
          workers.every((other, index) => {
            if (other === me || this.finished.has(other) || this.blocked.has(other)) return true;
            const needed = index < workers.indexOf(me) ? statement : statement - 1;
            return (this.completed.get(other) ?? 0) >= needed;
          }),
        );
        const result = await db.query<Row>(sql, params);
        this.completed.set(me, statement);
        this.blocked.delete(me);
        this.wake();
        return result;
      },
    };
  }

  finish(worker: WorkerName): void {
    this.finished.add(worker);
    this.wake();
  }

  isFinished(worker: WorkerName): boolean {
    return this.finished.has(worker);
  }

  block(worker: WorkerName): void {
    this.blocked.add(worker);
    this.wake();
  }

  isBlocked(worker: WorkerName): boolean {
    return this.blocked.has(worker);
  }

  private until(condition: () => boolean): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => (condition() ? resolve() : this.waiting.push(check));
      this.waiting.push(check);
    });
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const check of waiting) check();
  }
}
