import type { Queryable } from '../../src/database.js';
import { insertInbox } from './inbox.js';

export interface RefundNotice {
  id: string;
  refundId: string;
  cents: number;
}

export interface RefundHandling {
  claim: 'fresh' | 'conflict';
  effect: 'new' | 'already-recorded' | 'skipped';
}

/** The message is claimed under its own id; the refund is recorded under the refund's id. */
export async function recordRefund(db: Queryable, message: RefundNotice): Promise<RefundHandling> {
  if (!(await insertInbox(db, message.id))) return { claim: 'conflict', effect: 'skipped' };
  const effect = await db.query(
    'INSERT INTO effects(effect_id, amount) VALUES ($1, $2) ON CONFLICT (effect_id) DO NOTHING RETURNING effect_id',
    [message.refundId, message.cents],
  );
  return { claim: 'fresh', effect: effect.rows.length === 1 ? 'new' : 'already-recorded' };
}

/** The same handler with the refund keyed by the message that carried it. */
export async function recordRefundPerMessage(db: Queryable, message: RefundNotice): Promise<RefundHandling> {
  if (!(await insertInbox(db, message.id))) return { claim: 'conflict', effect: 'skipped' };
  const effect = await db.query(
    'INSERT INTO effects(effect_id, amount) VALUES ($1, $2) ON CONFLICT (effect_id) DO NOTHING RETURNING effect_id',
    [message.id, message.cents],
  );
  return { claim: 'fresh', effect: effect.rows.length === 1 ? 'new' : 'already-recorded' };
}
