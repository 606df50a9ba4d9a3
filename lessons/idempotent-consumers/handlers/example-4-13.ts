import type { Queryable } from '../../src/database.js';

export interface DatedOrder {
  id: string;
  cashbackId: string;
  cents: number;
  /** The day the delivery arrives, counted from the first. */
  day: number;
}

/** The inbox claim, noting the day so that old claims can be pruned; the credit has no key of its own. */
export async function claimAndCredit(db: Queryable, order: DatedOrder): Promise<boolean> {
  const claim = await db.query(
    'INSERT INTO inbox(message_id, received_day) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING message_id',
    [order.id, order.day],
  );
  if (claim.rows.length === 0) return false;
  await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [order.cashbackId, order.cents]);
  return true;
}

/** The same claim, and a credit keyed by the cashback, whose row is kept as long as the credit itself. */
export async function claimAndCreditOnce(db: Queryable, order: DatedOrder): Promise<boolean> {
  const claim = await db.query(
    'INSERT INTO inbox(message_id, received_day) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING message_id',
    [order.id, order.day],
  );
  if (claim.rows.length === 0) return false;
  const credit = await db.query(
    'INSERT INTO effects(effect_id, amount) VALUES ($1, $2) ON CONFLICT (effect_id) DO NOTHING RETURNING effect_id',
    [order.cashbackId, order.cents],
  );
  return credit.rows.length === 1;
}

/** A nightly job that keeps the inbox small: claims older than the window are deleted. */
export async function pruneInbox(db: Queryable, run: { id: string; day: number; keepDays: number }): Promise<number> {
  const pruned = await db.query('DELETE FROM inbox WHERE received_day < $1 RETURNING message_id', [
    run.day - run.keepDays,
  ]);
  return pruned.rows.length;
}
