import type { Queryable } from '../../src/database.js';
import { creditCashback, type PaidOrder } from './example-4-6.js';

/** The same claim, made in `claims`, the table whose primary key is the message id. */
export async function claimInClaimsThenCredit(db: Queryable, order: PaidOrder): Promise<boolean> {
  const claim = await db.query(
    'INSERT INTO claims(message_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING message_id',
    [order.id],
  );
  if (claim.rows.length === 0) return false;
  await creditCashback(db, order);
  return true;
}

/** Looks in `inbox` first and inserts the row when it is missing. */
export async function checkInboxThenCredit(db: Queryable, order: PaidOrder): Promise<boolean> {
  const seen = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
  if (seen.rows.length > 0) return false;
  await db.query('INSERT INTO inbox(message_id) VALUES ($1)', [order.id]);
  await creditCashback(db, order);
  return true;
}
