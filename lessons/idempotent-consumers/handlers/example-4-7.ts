import type { Queryable } from '../../src/database.js';
import { creditCashback, type PaidOrder } from './example-4-6.js';

/** Remembers the orders it credited in its own memory, which lives as long as its process. */
export class RememberingWorker {
  private readonly credited = new Set<string>();

  async handle(db: Queryable, order: PaidOrder): Promise<boolean> {
    if (this.credited.has(order.id)) return false;
    await creditCashback(db, order);
    this.credited.add(order.id);
    return true;
  }
}
