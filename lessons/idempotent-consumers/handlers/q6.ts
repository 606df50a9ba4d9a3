import type { Queryable } from '../../src/database.js';
import { creditCashback, type PaidOrder } from './example-4-6.js';

/** Asks its memory, credits, then writes an inbox row that no later delivery reads. */
export class RememberingAndRecordingWorker {
  private readonly credited = new Set<string>();

  async handle(db: Queryable, order: PaidOrder): Promise<boolean> {
    if (this.credited.has(order.id)) return false;
    await creditCashback(db, order);
    await db.query('INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
    this.credited.add(order.id);
    return true;
  }
}
