// A Kafka consumer that issues refunds through a payment provider and records them in PostgreSQL.
import { Kafka } from 'kafkajs';
import { Pool } from 'pg';
import Stripe from 'stripe';

interface RefundRequested {
  refundId: string;
  chargeId: string;
  cents: number;
}

const pool = new Pool();
const stripe = new Stripe(process.env.STRIPE_KEY ?? '');
const consumer = new Kafka({ brokers: ['localhost:9092'] }).consumer({ groupId: 'refunds' });

await consumer.run({
  eachMessage: async ({ topic, partition, message }) => {
    const event = JSON.parse(message.value!.toString()) as RefundRequested;
    const deliveryKey = `${topic}:${partition}:${message.offset}`;

    // The provider deduplicates on this key; a replayed or re-published event has a new offset.
    await stripe.refunds.create(
      { charge: event.chargeId, amount: event.cents },
      { idempotencyKey: deliveryKey }, // flagged: no-delivery-id-effect-key
    );

    await pool.query(
      'INSERT INTO refunds (refund_id, charge_id, cents, source_offset) VALUES ($1, $2, $3, $4) ON CONFLICT (refund_id) DO NOTHING',
      [event.refundId, event.chargeId, event.cents, message.offset],
    );
  },
});
