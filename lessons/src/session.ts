import type { LessonDatabase, Queryable } from './database.js';
import {
  WorkerProcess,
  type Commits,
  type Delivery,
  type Handler,
  type LessonMessage,
  type WorkerName,
} from './scenario.js';
import { readTables, recording, type TableRows, type Transcript, type TranscriptStatement } from './transcript.js';

/** Raised on purpose inside a worker to model a process that dies: before COMMIT, or after a statement. */
class WorkerDied extends Error {}

export interface DeliveryOptions {
  /** The handler runs to its end and then the worker dies: its transaction rolls back, as for a lost connection. */
  readonly interruptBeforeCommit?: boolean;
  /** How the handler's statements commit; `together` (one worker transaction) when omitted. */
  readonly commits?: Commits;
  /** The worker dies as soon as this many of its statements have run: what they committed stays. */
  readonly diesAfterStatements?: number;
}

/** Which step of an item failed, and why. Items report this instead of throwing past the runner. */
export class StepFailure extends Error {
  constructor(
    readonly step: number,
    readonly stepLabel: string,
    readonly reason: string,
  ) {
    super(`step ${step} (${stepLabel}) failed: ${reason}`);
  }
}

export type DeliveryResult<Result> =
  { readonly committed: true; readonly value: Result } | { readonly committed: false; readonly reason: string };

export function workerId(worker: WorkerName): string {
  return `worker-${worker}`;
}

/**
 * One example or question run on its own private database. Every action is a numbered step, so a
 * failure names the step it happened in; every delivery is its own worker transaction.
 */
export class ItemSession {
  private stepCount = 0;
  private readonly processes = new Map<WorkerName, WorkerProcess>();
  private readonly parts: { title: string; statements: TranscriptStatement[]; tables?: TableRows }[] = [];

  constructor(private readonly db: LessonDatabase) {}

  get engine(): string {
    return this.db.engine;
  }

  /** Starts a fresh database; `title` names this part of the transcript when an item uses several. */
  fresh(schemaSql: string, title = 'the run'): Promise<void> {
    return this.step('create a fresh database', async () => {
      await this.endPart();
      await this.db.reset(schemaSql);
      this.parts.push({ title, statements: [] });
    });
  }

  /**
   * Everything the item ran, with the tables of its last database read now. Never throws: an item
   * that failed still shows what ran up to the failure, and its tables if they can still be read.
   */
  async transcript(): Promise<Transcript> {
    await this.endPart().catch(() => undefined);
    return this.parts.map(({ title, statements, tables }) => ({ title, statements, tables: tables ?? {} }));
  }

  /**
   * Delivers one message to one worker. With `interruptBeforeCommit` the handler runs to its end and
   * then the worker "dies": the transaction rolls back, as a server does for a lost connection.
   */
  deliver<Message extends LessonMessage, Result>(
    delivery: Delivery<Message>,
    handler: Handler<Message, Result>,
    options: DeliveryOptions = {},
  ): Promise<DeliveryResult<Result>> {
    const dies = options.interruptBeforeCommit
      ? ' and dies before COMMIT'
      : options.diesAfterStatements
        ? ` and dies after statement ${options.diesAfterStatements}`
        : '';
    return this.step(`worker ${delivery.worker} handles ${delivery.message.id}${dies}`, () =>
      this.handle(delivery, handler, options, null),
    );
  }

  /**
   * Delivers to several workers side by side, taking turns in the order given: each worker runs one
   * step, a worker transaction, then the next worker runs one. A handler in one transaction is one
   * step; a handler on a pool takes a step per statement, so another worker's statements land
   * between its own. Steps never overlap (PGlite has one connection): what a worker does while it
   * waits for another's uncommitted row needs two connections to a real server.
   */
  sideBySide<Message extends LessonMessage, Result>(
    deliveries: readonly Delivery<Message>[],
    handler: Handler<Message, Result>,
    options: DeliveryOptions = {},
  ): Promise<DeliveryResult<Result>[]> {
    const label = `workers ${deliveries.map((delivery) => `${delivery.worker} (${delivery.message.id})`).join(' and ')} take turns`;
    return this.step(label, () => {
      const turns = new Turns(deliveries.map((delivery) => delivery.worker));
      return Promise.all(
        deliveries.map((delivery) =>
          this.handle(delivery, handler, options, turns).finally(() => turns.leave(delivery.worker)),
        ),
      );
    });
  }

  /** The worker's process stops and a new one starts: whatever it held in memory is gone. */
  restart(worker: WorkerName): void {
    this.processes.set(worker, new WorkerProcess());
  }

  private process(worker: WorkerName): WorkerProcess {
    if (!this.processes.has(worker)) this.restart(worker);
    return this.processes.get(worker)!;
  }

  private async handle<Message extends LessonMessage, Result>(
    delivery: Delivery<Message>,
    handler: Handler<Message, Result>,
    options: DeliveryOptions,
    turns: Turns | null,
  ): Promise<DeliveryResult<Result>> {
    const { worker, message } = delivery;
    const asStep = async <T>(work: (tx: Queryable) => Promise<T>): Promise<T> => {
      await turns?.take(worker);
      try {
        return await this.asRecordedWorker(worker, work);
      } finally {
        turns?.pass(worker);
      }
    };
    let statements = 0;
    const counted = (db: Queryable): Queryable => ({
      async query<Row>(sql: string, params?: unknown[]) {
        const result = await db.query<Row>(sql, params);
        statements += 1;
        if (statements === options.diesAfterStatements) throw new WorkerDied(`died after statement ${statements}`);
        return result;
      },
    });
    const run = (db: Queryable) => handler(db, message, workerId(worker), this.process(worker));
    try {
      const value =
        options.commits === 'each'
          ? await run(
              counted({ query: <Row>(sql: string, params?: unknown[]) => asStep((tx) => tx.query<Row>(sql, params)) }),
            )
          : await asStep(async (tx) => {
              const result = await run(counted(tx));
              if (options.interruptBeforeCommit) throw new WorkerDied('interrupted before commit');
              return result;
            });
      return { committed: true, value };
    } catch (error) {
      if (error instanceof WorkerDied) return { committed: false, reason: error.message };
      throw error;
    }
  }

  /** Reads committed state from a connection that no worker transaction is using. */
  readCommitted<T>(what: string, read: (db: Queryable) => Promise<T>): Promise<T> {
    return this.step(`read ${what}`, () => read(recording(this.db.read, 'reader', this.statements())));
  }

  /** Reads committed state the way a newly started worker would: fresh session, own transaction. */
  readAsFreshWorker<T>(worker: WorkerName, what: string, read: (db: Queryable) => Promise<T>): Promise<T> {
    return this.step(`a fresh worker ${worker} reads ${what}`, () => this.asRecordedWorker(worker, read));
  }

  /**
   * Work done by a system with a database of its own, such as a payment provider: one transaction of
   * its own, which no worker's COMMIT or ROLLBACK touches, recorded under `who`. The lesson keeps
   * that system's tables beside the consumer's only because it runs on one database.
   */
  outside<T>(who: string, what: string, work: (db: Queryable) => Promise<T>): Promise<T> {
    return this.step(`${who} ${what}`, () => this.asRecorded(who, work));
  }

  /** One worker transaction, written into the transcript with the boundaries the adapter issues. */
  private asRecordedWorker<T>(worker: WorkerName, work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.asRecorded(`worker ${worker}`, work);
  }

  private async asRecorded<T>(who: string, work: (tx: Queryable) => Promise<T>): Promise<T> {
    const log = this.statements();
    const boundary = (sql: string) => log.push({ who, sql, params: [], returned: null, changed: null });
    try {
      const result = await this.db.asWorker((tx) => {
        boundary('DISCARD ALL');
        boundary('BEGIN');
        return work(recording(tx, who, log));
      });
      boundary('COMMIT');
      return result;
    } catch (error) {
      boundary('ROLLBACK');
      throw error;
    }
  }

  private statements(): TranscriptStatement[] {
    if (this.parts.length === 0) this.parts.push({ title: 'the run', statements: [] });
    return this.parts.at(-1)!.statements;
  }

  private async endPart(): Promise<void> {
    const open = this.parts.at(-1);
    if (open && !open.tables) open.tables = await readTables(this.db.read);
  }

  private async step<T>(label: string, action: () => Promise<T>): Promise<T> {
    this.stepCount += 1;
    const step = this.stepCount;
    try {
      return await action();
    } catch (error) {
      if (error instanceof StepFailure) throw error;
      throw new StepFailure(step, label, error instanceof Error ? error.message : String(error));
    }
  }
}

/** Whose turn it is among workers that take turns; a worker that is done leaves the rotation. */
class Turns {
  private current = 0;
  private waiting: (() => void)[] = [];

  constructor(private readonly order: WorkerName[]) {}

  take(worker: WorkerName): Promise<void> {
    if (this.order[this.current] === worker) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => (this.order[this.current] === worker ? resolve() : this.waiting.push(check));
      this.waiting.push(check);
    });
  }

  pass(worker: WorkerName): void {
    const index = this.order.indexOf(worker);
    if (index === this.current) this.current = (index + 1) % this.order.length;
    this.wake();
  }

  leave(worker: WorkerName): void {
    const index = this.order.indexOf(worker);
    if (index < 0) return;
    this.order.splice(index, 1);
    if (index < this.current) this.current -= 1;
    if (this.current >= this.order.length) this.current = 0;
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const check of waiting) check();
  }
}
