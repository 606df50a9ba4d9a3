import type { Queryable } from '../../src/database.js';
import { insertInbox } from './inbox.js';

export interface LedgerJob {
  id: string;
  effectId: string;
  cents: number;
}

/** The shipped handler: the claim and the ledger entry commit together, or not at all. */
export async function handleJob(db: Queryable, job: LedgerJob): Promise<void> {
  const inboxId = job.id;
  if (!(await insertInbox(db, inboxId))) return; // already claimed: an earlier delivery did the work
  await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [job.effectId, job.cents]);
}

/** What a learner pictures when they expect a second ledger row: the claim is made but not obeyed. */
export async function handleJobIgnoringClaim(db: Queryable, job: LedgerJob): Promise<void> {
  const inboxId = job.id;
  await insertInbox(db, inboxId);
  await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [job.effectId, job.cents]);
}

/** What a learner pictures when they expect a new worker to start from nothing. */
export async function handleJobClaimingPerWorker(db: Queryable, job: LedgerJob, workerId: string): Promise<void> {
  const inboxId = `${workerId}:${job.id}`;
  if (!(await insertInbox(db, inboxId))) return;
  await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [job.effectId, job.cents]);
}
