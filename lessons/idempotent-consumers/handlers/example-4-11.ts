import type { Queryable } from '../../src/database.js';

export interface Poll {
  id: string;
}

export interface CashbackOrder {
  id: string;
  cashbackId: string;
  cents: number;
}

/**
 * Takes the first queued job no other transaction has locked, skipping locked ones instead of
 * waiting for them, credits it and marks it done, all in the worker's transaction.
 */
export async function workNextJob(db: Queryable, _poll: Poll): Promise<boolean> {
  const claimed = await db.query<{ job_id: string; cashback_id: string; cents: number }>(
    "UPDATE jobs SET state = 'running' WHERE job_id = (SELECT job_id FROM jobs WHERE state = 'queued' ORDER BY job_id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING job_id, cashback_id, cents",
  );
  const job = claimed.rows[0];
  if (!job) return false;
  await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [job.cashback_id, job.cents]);
  await db.query("UPDATE jobs SET state = 'done' WHERE job_id = $1", [job.job_id]);
  return true;
}

/** An advisory lock on the cashback's id, held to the end of the transaction, around the credit alone. */
export async function creditUnderLock(db: Queryable, order: CashbackOrder): Promise<boolean> {
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [order.cashbackId]);
  await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [order.cashbackId, order.cents]);
  return true;
}

/** The same lock around a look for the credit and the credit: whoever holds it checks and writes alone. */
export async function creditOnceUnderLock(db: Queryable, order: CashbackOrder): Promise<boolean> {
  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [order.cashbackId]);
  const credited = await db.query('SELECT 1 FROM effects WHERE effect_id = $1', [order.cashbackId]);
  if (credited.rows.length > 0) return false;
  await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [order.cashbackId, order.cents]);
  return true;
}
