import type { Queryable } from '../../src/database.js';
import { insertInbox } from './inbox.js';

export interface SaleMessage {
  id: string;
  saleId: string;
  cents: number;
  currency: string;
}

/** The shipped handler of question 4: two different sales of the same amount share one key. */
export async function recordSale(db: Queryable, message: SaleMessage): Promise<void> {
  const effectId = 'amount-' + message.cents;
  if (await insertInbox(db, message.id)) {
    await db.query(
      'INSERT INTO effects(effect_id, sale_id, amount) VALUES ($1, $2, $3) ON CONFLICT (effect_id) DO NOTHING',
      [effectId, message.saleId, message.cents],
    );
  }
}

// The candidate repairs: each changes only the effect key.

export async function recordSaleByDelivery(db: Queryable, message: SaleMessage): Promise<void> {
  const effectId = message.id;
  if (await insertInbox(db, message.id)) {
    await db.query(
      'INSERT INTO effects(effect_id, sale_id, amount) VALUES ($1, $2, $3) ON CONFLICT (effect_id) DO NOTHING',
      [effectId, message.saleId, message.cents],
    );
  }
}

export async function recordSaleByWorkerAndAmount(
  db: Queryable,
  message: SaleMessage,
  workerId: string,
): Promise<void> {
  const effectId = workerId + '-' + message.cents;
  if (await insertInbox(db, message.id)) {
    await db.query(
      'INSERT INTO effects(effect_id, sale_id, amount) VALUES ($1, $2, $3) ON CONFLICT (effect_id) DO NOTHING',
      [effectId, message.saleId, message.cents],
    );
  }
}

export async function recordSaleByAmountAndCurrency(db: Queryable, message: SaleMessage): Promise<void> {
  const effectId = 'amount-' + message.cents + '-' + message.currency;
  if (await insertInbox(db, message.id)) {
    await db.query(
      'INSERT INTO effects(effect_id, sale_id, amount) VALUES ($1, $2, $3) ON CONFLICT (effect_id) DO NOTHING',
      [effectId, message.saleId, message.cents],
    );
  }
}

export async function recordSaleBySale(db: Queryable, message: SaleMessage): Promise<void> {
  const effectId = 'sale-' + message.saleId;
  if (await insertInbox(db, message.id)) {
    await db.query(
      'INSERT INTO effects(effect_id, sale_id, amount) VALUES ($1, $2, $3) ON CONFLICT (effect_id) DO NOTHING',
      [effectId, message.saleId, message.cents],
    );
  }
}
