import type { Queryable } from '../../src/database.js';
import { insertInbox } from './inbox.js';

export interface SequencedSnapshot {
  id: string;
  accountId: string;
  /** The producer's order of snapshots for one account: a later snapshot has a higher number. */
  sequence: number;
  cents: number;
}

/** Sets the balance to the snapshot's value, whatever the stored one is. */
async function assignBalance(db: Queryable, snapshot: SequencedSnapshot): Promise<void> {
  await db.query(
    'INSERT INTO balances(account_id, cents, as_of) VALUES ($1, $2, $3) ON CONFLICT (account_id) DO UPDATE SET cents = excluded.cents, as_of = excluded.as_of',
    [snapshot.accountId, snapshot.cents, snapshot.sequence],
  );
}

/** The claim names the worker too, so a replay on another worker counts as new. */
export async function applySnapshotClaimedPerWorker(
  db: Queryable,
  snapshot: SequencedSnapshot,
  workerId: string,
): Promise<boolean> {
  if (!(await insertInbox(db, `${workerId}:${snapshot.id}`))) return false;
  await assignBalance(db, snapshot);
  return true;
}

/** The claim is the snapshot's own id, so any second arrival of it conflicts. */
export async function applySnapshotClaimedOnce(db: Queryable, snapshot: SequencedSnapshot): Promise<boolean> {
  if (!(await insertInbox(db, snapshot.id))) return false;
  await assignBalance(db, snapshot);
  return true;
}

/** No inbox: the upsert itself refuses a snapshot older than the one stored. */
export async function applySnapshotIfNewer(db: Queryable, snapshot: SequencedSnapshot): Promise<boolean> {
  const applied = await db.query(
    'INSERT INTO balances(account_id, cents, as_of) VALUES ($1, $2, $3) ON CONFLICT (account_id) DO UPDATE SET cents = excluded.cents, as_of = excluded.as_of WHERE balances.as_of < excluded.as_of RETURNING account_id',
    [snapshot.accountId, snapshot.cents, snapshot.sequence],
  );
  return applied.rows.length === 1;
}
