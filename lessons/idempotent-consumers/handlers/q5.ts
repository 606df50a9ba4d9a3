import type { Queryable } from '../../src/database.js';
import { creditCashback, type PaidOrder } from './example-4-6.js';

/** No inbox: looks for the cashback row itself, and writes it when it finds none. */
export async function creditUnlessCredited(db: Queryable, order: PaidOrder): Promise<boolean> {
  const credited = await db.query('SELECT 1 FROM effects WHERE effect_id = $1', [order.cashbackId]);
  if (credited.rows.length > 0) return false;
  await creditCashback(db, order);
  return true;
}
