import type { Queryable } from '../../src/database.js';
import { claimThenCredit, type PaidOrder } from './example-4-6.js';

/**
 * The claim-first handler under REPEATABLE READ: every statement reads the snapshot its first one
 * took. A claim that meets a row committed after that snapshot cannot be answered from it, so
 * PostgreSQL raises a serialization failure (SQLSTATE 40001) and the whole transaction must be retried.
 */
export async function claimUnderRepeatableRead(db: Queryable, order: PaidOrder): Promise<boolean> {
  await db.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
  return claimThenCredit(db, order);
}
