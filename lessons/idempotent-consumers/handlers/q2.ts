import type { Queryable } from '../../src/database.js';
import { insertInbox } from './inbox.js';

export interface BalanceSnapshot {
  id: string;
  accountId: string;
  cents: number;
}

/** The shipped handler of question 2: a snapshot sets the balance to an absolute value. */
export async function applySnapshot(db: Queryable, snapshot: BalanceSnapshot): Promise<void> {
  const inboxId = snapshot.id;
  const nextBalance = snapshot.cents;
  if (await insertInbox(db, inboxId)) {
    await db.query(
      'INSERT INTO balances(account_id, cents) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET cents = excluded.cents',
      [snapshot.accountId, nextBalance],
    );
  }
}

export async function applySnapshotAsDelta(db: Queryable, snapshot: BalanceSnapshot): Promise<void> {
  const inboxId = snapshot.id;
  const nextBalance = snapshot.cents;
  if (await insertInbox(db, inboxId)) {
    await db.query(
      'INSERT INTO balances(account_id, cents) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET cents = balances.cents + excluded.cents',
      [snapshot.accountId, nextBalance],
    );
  }
}

export async function applySnapshotPerWorker(
  db: Queryable,
  snapshot: BalanceSnapshot,
  workerId: string,
): Promise<void> {
  const inboxId = `${workerId}:${snapshot.id}`;
  const nextBalance = snapshot.cents;
  if (await insertInbox(db, inboxId)) {
    await db.query(
      'INSERT INTO balances(account_id, cents) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET cents = excluded.cents',
      [snapshot.accountId, nextBalance],
    );
  }
}

export async function applySnapshotPerAccount(db: Queryable, snapshot: BalanceSnapshot): Promise<void> {
  const inboxId = snapshot.accountId;
  const nextBalance = snapshot.cents;
  if (await insertInbox(db, inboxId)) {
    await db.query(
      'INSERT INTO balances(account_id, cents) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET cents = excluded.cents',
      [snapshot.accountId, nextBalance],
    );
  }
}
