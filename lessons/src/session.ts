import type { LessonDatabase, Queryable } from './database.js';
import type { Delivery, Handler, LessonMessage, WorkerName } from './scenario.js';
import { readTables, recording, type TableRows, type Transcript, type TranscriptStatement } from './transcript.js';

/** Raised on purpose inside a worker's transaction to model a process that dies before COMMIT. */
class InterruptedBeforeCommit extends Error {
  constructor() {
    super('interrupted before commit');
  }
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
  | { readonly committed: true; readonly value: Result }
  | { readonly committed: false; readonly reason: string };

export function workerId(worker: WorkerName): string {
  return `worker-${worker}`;
}

/**
 * One example or question run on its own private database. Every action is a numbered step, so a
 * failure names the step it happened in; every delivery is its own worker transaction.
 */
export class ItemSession {
  private stepCount = 0;
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
    options: { interruptBeforeCommit?: boolean } = {},
  ): Promise<DeliveryResult<Result>> {
    const label = `worker ${delivery.worker} handles ${delivery.message.id}${options.interruptBeforeCommit ? ' and dies before COMMIT' : ''}`;
    return this.step(label, async () => {
      try {
        const value = await this.asRecordedWorker(delivery.worker, async (tx) => {
          const result = await handler(tx, delivery.message, workerId(delivery.worker));
          if (options.interruptBeforeCommit) throw new InterruptedBeforeCommit();
          return result;
        });
        return { committed: true, value };
      } catch (error) {
        if (error instanceof InterruptedBeforeCommit) return { committed: false, reason: error.message };
        throw error;
      }
    });
  }

  /** Reads committed state from a connection that no worker transaction is using. */
  readCommitted<T>(what: string, read: (db: Queryable) => Promise<T>): Promise<T> {
    return this.step(`read ${what}`, () => read(recording(this.db.read, 'reader', this.statements())));
  }

  /** Reads committed state the way a newly started worker would: fresh session, own transaction. */
  readAsFreshWorker<T>(worker: WorkerName, what: string, read: (db: Queryable) => Promise<T>): Promise<T> {
    return this.step(`a fresh worker ${worker} reads ${what}`, () => this.asRecordedWorker(worker, read));
  }

  /** One worker transaction, written into the transcript with the boundaries the adapter issues. */
  private async asRecordedWorker<T>(worker: WorkerName, work: (tx: Queryable) => Promise<T>): Promise<T> {
    const who = `worker ${worker}`;
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
