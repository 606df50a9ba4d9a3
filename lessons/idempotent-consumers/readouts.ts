import type { Queryable } from '../src/database.js';

/** Reads of durable state, made after the last transaction of an item has finished. */

export async function countRows(
  db: Queryable,
  table: 'inbox' | 'claims' | 'effects' | 'orders' | 'broker' | 'jobs' | 'payouts' | 'provider_charges',
): Promise<number> {
  const result = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`);
  return result.rows[0]?.count ?? 0;
}

export async function effectTotals(db: Queryable): Promise<{ effects: number; sum: number }> {
  const result = await db.query<{ effects: number; sum: number }>(
    'SELECT count(*)::int AS effects, coalesce(sum(amount), 0)::int AS sum FROM effects',
  );
  return result.rows[0] ?? { effects: 0, sum: 0 };
}

/** The id of each effect row, one entry per row: an entry written twice appears twice. */
export async function effectIds(db: Queryable): Promise<string[]> {
  const result = await db.query<{ effect_id: string }>('SELECT effect_id FROM effects ORDER BY effect_id');
  return result.rows.map((row) => row.effect_id);
}

export async function inboxIds(db: Queryable): Promise<string[]> {
  const result = await db.query<{ message_id: string }>('SELECT message_id FROM inbox ORDER BY message_id');
  return result.rows.map((row) => row.message_id);
}

export async function balanceOf(db: Queryable, accountId: string): Promise<number> {
  const result = await db.query<{ cents: number }>('SELECT cents FROM balances WHERE account_id = $1', [accountId]);
  return result.rows[0]?.cents ?? 0;
}

/** The sale each effect row belongs to, one entry per row: a sale recorded twice appears twice. */
export async function recordedSales(db: Queryable): Promise<string[]> {
  const result = await db.query<{ sale_id: string }>('SELECT sale_id FROM effects ORDER BY sale_id, effect_id');
  return result.rows.map((row) => row.sale_id);
}

/** The copies the broker holds, in the order they were published. */
export async function brokerCopies(db: Queryable): Promise<{ id: string; cashbackId: string; cents: number }[]> {
  const result = await db.query<{ message_id: string; cashback_id: string; cents: number }>(
    'SELECT message_id, cashback_id, cents FROM broker ORDER BY copy',
  );
  return result.rows.map((row) => ({ id: row.message_id, cashbackId: row.cashback_id, cents: row.cents }));
}

/** What the broker hands the group next: the message at the offset it keeps, if there is one. */
export async function nextFromBroker(
  db: Queryable,
): Promise<{ id: string; offset: number; cashbackId: string; cents: number } | null> {
  const result = await db.query<{ message_id: string; log_offset: number; cashback_id: string; cents: number }>(
    "SELECT p.message_id, p.log_offset, p.cashback_id, p.cents FROM broker_offsets b JOIN partition_log p ON p.log_offset = b.next_offset WHERE b.consumer_group = 'cashback'",
  );
  const row = result.rows[0];
  return row ? { id: row.message_id, offset: row.log_offset, cashbackId: row.cashback_id, cents: row.cents } : null;
}

export async function brokerOffset(db: Queryable): Promise<number> {
  const result = await db.query<{ next_offset: number }>(
    "SELECT next_offset FROM broker_offsets WHERE consumer_group = 'cashback'",
  );
  return result.rows[0]?.next_offset ?? 0;
}
