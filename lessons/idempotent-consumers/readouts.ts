import type { Queryable } from '../src/database.js';

/** Reads of durable state, made after the last transaction of an item has finished. */

export async function countRows(db: Queryable, table: 'inbox' | 'claims' | 'effects'): Promise<number> {
  const result = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`);
  return result.rows[0]?.count ?? 0;
}

export async function effectTotals(db: Queryable): Promise<{ effects: number; sum: number }> {
  const result = await db.query<{ effects: number; sum: number }>(
    'SELECT count(*)::int AS effects, coalesce(sum(amount), 0)::int AS sum FROM effects',
  );
  return result.rows[0] ?? { effects: 0, sum: 0 };
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
