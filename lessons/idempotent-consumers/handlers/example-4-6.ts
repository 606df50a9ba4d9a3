import type { Queryable } from '../../src/database.js';
import { insertInbox } from './inbox.js';

export interface PaidOrder {
  id: string;
  cashbackId: string;
  cents: number;
}

/** The business change: one cashback row, in a table with no unique key of its own. */
export async function creditCashback(db: Queryable, order: PaidOrder): Promise<void> {
  await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [order.cashbackId, order.cents]);
}

/** Looks for an earlier record, credits, and only then records the order as handled. */
export async function creditThenRecord(db: Queryable, order: PaidOrder): Promise<boolean> {
  const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
  if (handled.rows.length > 0) return false;
  await creditCashback(db, order);
  await db.query('INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
  return true;
}

/** Claims first; only the worker whose insert made the inbox row goes on to credit. */
export async function claimThenCredit(db: Queryable, order: PaidOrder): Promise<boolean> {
  if (!(await insertInbox(db, order.id))) return false;
  await creditCashback(db, order);
  return true;
}
