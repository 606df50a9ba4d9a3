import type { Queryable } from '../../src/database.js';
import type { LedgerJob } from './predict.js';

/** The opening question's handler with its inbox claim taken out: nothing stands between a replay and a second entry. */
export async function handleJobWithoutInbox(db: Queryable, job: LedgerJob): Promise<void> {
  await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [job.effectId, job.cents]);
}
