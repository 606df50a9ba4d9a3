import type { LessonDatabase, Queryable } from './database.js';
import type { Delivery, Handler, LessonMessage, WorkerName } from './scenario.js';

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

  constructor(private readonly db: LessonDatabase) {}

  get engine(): string {
    return this.db.engine;
  }

  fresh(schemaSql: string): Promise<void> {
    return this.step('create a fresh database', () => this.db.reset(schemaSql));
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
        const value = await this.db.asWorker(async (tx) => {
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
    return this.step(`read ${what}`, () => read(this.db.read));
  }

  /** Reads committed state the way a newly started worker would: fresh session, own transaction. */
  readAsFreshWorker<T>(worker: WorkerName, what: string, read: (db: Queryable) => Promise<T>): Promise<T> {
    return this.step(`a fresh worker ${worker} reads ${what}`, () => this.db.asWorker(read));
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
