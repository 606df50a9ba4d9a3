import type { Queryable } from '../../src/database.js';
import { claimThenCredit, type PaidOrder } from './example-4-6.js';

export interface PlacedOrder {
  id: string;
  cashbackId: string;
  cents: number;
}

/** The producer: the order and the message announcing it are written in one transaction. */
export async function placeOrderWithOutbox(db: Queryable, order: PlacedOrder): Promise<void> {
  await db.query('INSERT INTO orders(order_id, cents) VALUES ($1, $2)', [order.id, order.cents]);
  await db.query('INSERT INTO outbox(message_id, cashback_id, cents) VALUES ($1, $2, $3)', [
    `${order.id}-paid`,
    order.cashbackId,
    order.cents,
  ]);
}

/** The producer without an outbox: it commits the order, then publishes, and can die in between. */
export async function placeOrderThenPublish(db: Queryable, order: PlacedOrder): Promise<void> {
  await db.query('INSERT INTO orders(order_id, cents) VALUES ($1, $2)', [order.id, order.cents]);
  await db.query('INSERT INTO broker(message_id, cashback_id, cents) VALUES ($1, $2, $3)', [
    `${order.id}-paid`,
    order.cashbackId,
    order.cents,
  ]);
}

/**
 * The relay: publishes every message the outbox has not marked sent, then marks it. Publishing is
 * a call to the broker, outside this database, so a relay that dies between the two publishes again.
 */
export async function relayOutbox(db: Queryable): Promise<number> {
  const pending = await db.query<{ message_id: string; cashback_id: string; cents: number }>(
    'SELECT message_id, cashback_id, cents FROM outbox WHERE NOT sent ORDER BY message_id',
  );
  for (const message of pending.rows) {
    await db.query('INSERT INTO broker(message_id, cashback_id, cents) VALUES ($1, $2, $3)', [
      message.message_id,
      message.cashback_id,
      message.cents,
    ]);
    await db.query('UPDATE outbox SET sent = true WHERE message_id = $1', [message.message_id]);
  }
  return pending.rows.length;
}

/** The consumer at the other end: the inbox claim of example 4.6. */
export async function consumePaidOrder(db: Queryable, order: PaidOrder): Promise<boolean> {
  return claimThenCredit(db, order);
}
