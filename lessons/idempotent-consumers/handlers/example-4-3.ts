import type { Queryable } from '../../src/database.js';
import { insertInbox } from './inbox.js';

export interface PayoutMessage {
  id: string;
  payoutId: string;
  cents: number;
}

/** Claim and payout entry share one transaction, so a failure before COMMIT undoes both. */
export async function recordPayout(db: Queryable, message: PayoutMessage): Promise<'applied' | 'duplicate'> {
  if (!(await insertInbox(db, message.id))) return 'duplicate';
  await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [message.payoutId, message.cents]);
  return 'applied';
}
