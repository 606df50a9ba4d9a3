import type { Queryable } from '../../src/database.js';

export interface LoggedPayment {
  id: string;
  /** Where the message sits in its partition. */
  offset: number;
  cashbackId: string;
  cents: number;
}

/** Tells the broker the group is done with everything before `offset + 1`: the next fetch starts there. */
export async function acknowledge(db: Queryable, payment: LoggedPayment): Promise<void> {
  await db.query('UPDATE broker_offsets SET next_offset = $1 WHERE consumer_group = $2', [
    payment.offset + 1,
    'cashback',
  ]);
}

/** The effect alone, with nothing that remembers the message. */
export async function creditPayment(db: Queryable, payment: LoggedPayment): Promise<void> {
  await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [payment.cashbackId, payment.cents]);
}

/**
 * The consumer keeps its own position in its database and moves it in the effect's transaction:
 * only the worker that moves it from this message's offset goes on, and a rollback undoes both.
 */
export async function creditAndKeepPosition(db: Queryable, payment: LoggedPayment): Promise<boolean> {
  const moved = await db.query(
    'UPDATE positions SET next_offset = $1 WHERE consumer_group = $2 AND next_offset = $3 RETURNING next_offset',
    [payment.offset + 1, 'cashback', payment.offset],
  );
  if (moved.rows.length === 0) return false;
  await creditPayment(db, payment);
  return true;
}
