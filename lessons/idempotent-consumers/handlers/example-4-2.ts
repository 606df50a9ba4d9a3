import type { Queryable } from '../../src/database.js';
import { insertInbox } from './inbox.js';

export interface BalanceSnapshot {
  id: string;
  accountId: string;
  cents: number;
}

/** A snapshot is claimed under its own identity, then assigns the balance it carries. */
export async function applyBalanceSnapshot(db: Queryable, snapshot: BalanceSnapshot): Promise<boolean> {
  if (!(await insertInbox(db, snapshot.id))) return false;
  await db.query(
    'INSERT INTO balances(account_id, cents) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET cents = excluded.cents',
    [snapshot.accountId, snapshot.cents],
  );
  return true;
}
