import type { Queryable } from '../../src/database.js';
import { insertInbox } from './inbox.js';

export interface RefundMessage {
  id: string;
  refundId: string;
  merchantId: string;
  cents: number;
}

// Each candidate differs only in the identity it gives the refund effect.

export async function recordRefundByMerchant(db: Queryable, message: RefundMessage): Promise<void> {
  const effectId = message.merchantId;
  if (await insertInbox(db, message.id)) {
    await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2) ON CONFLICT (effect_id) DO NOTHING', [
      effectId,
      message.cents,
    ]);
  }
}

export async function recordRefundByWorker(db: Queryable, message: RefundMessage, workerId: string): Promise<void> {
  const effectId = workerId;
  if (await insertInbox(db, message.id)) {
    await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2) ON CONFLICT (effect_id) DO NOTHING', [
      effectId,
      message.cents,
    ]);
  }
}

export async function recordRefundBySourceMessage(db: Queryable, message: RefundMessage): Promise<void> {
  const effectId = message.id;
  if (await insertInbox(db, message.id)) {
    await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2) ON CONFLICT (effect_id) DO NOTHING', [
      effectId,
      message.cents,
    ]);
  }
}

export async function recordRefundByAmount(db: Queryable, message: RefundMessage): Promise<void> {
  const effectId = `amount-${message.cents}`;
  if (await insertInbox(db, message.id)) {
    await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2) ON CONFLICT (effect_id) DO NOTHING', [
      effectId,
      message.cents,
    ]);
  }
}
