import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A large workspace written by the test that uses it (never committed): services of consumers,
 * workers and helpers, some with a finding and most without, in JavaScript and TypeScript, with
 * test files the recommended config leaves alone and a `generated/` folder a setting can exclude.
 */

const templates: ((n: number) => { ext: string; text: string })[] = [
  // A Kafka consumer whose provider key is the delivery's offset.
  (n) => ({
    ext: 'ts',
    text: `import { Kafka } from 'kafkajs';
import Stripe from 'stripe';

const stripe = new Stripe(process.env.STRIPE_KEY ?? '');
const consumer = new Kafka({ brokers: ['localhost:9092'] }).consumer({ groupId: 'refunds-${n}' });

export async function start${n}(): Promise<void> {
  await consumer.run({
    eachMessage: async ({ message }) => {
      const refund = JSON.parse(message.value!.toString()) as { chargeId: string; cents: number };
      await stripe.refunds.create({ charge: refund.chargeId, amount: refund.cents }, { idempotencyKey: \`refund-\${message.offset}\` });
    },
  });
}
`,
  }),
  // A RabbitMQ consumer that checks for a row, then inserts it.
  (n) => ({
    ext: 'js',
    text: `const { Pool } = require('pg');

const pool = new Pool();

async function handle${n}(channel, msg) {
  const order = JSON.parse(msg.content.toString());
  const { rows } = await pool.query('SELECT 1 FROM shipments WHERE order_id = $1', [order.orderId]);
  if (rows.length === 0) {
    await pool.query('INSERT INTO shipments (order_id, address) VALUES ($1, $2)', [order.orderId, order.address]);
  }
  channel.ack(msg);
}

module.exports = { listen: (channel) => channel.consume('shipments-${n}', (msg) => handle${n}(channel, msg)) };
`,
  }),
  // A helper with nothing to find.
  (n) => ({
    ext: 'ts',
    text: `export interface Money${n} {
  cents: number;
  currency: string;
}

export function format${n}(money: Money${n}): string {
  return \`\${(money.cents / 100).toFixed(2)} \${money.currency}\`;
}
`,
  }),
  // A BullMQ worker keyed by its business operation: right, nothing to find.
  (n) => ({
    ext: 'mjs',
    text: `import { Worker } from 'bullmq';
import { Pool } from 'pg';

const pool = new Pool();

export const worker${n} = new Worker('invoices-${n}', async (job) => {
  await pool.query(
    'INSERT INTO invoices (invoice_id, cents) VALUES ($1, $2) ON CONFLICT (invoice_id) DO NOTHING',
    [job.data.invoiceId, job.data.cents],
  );
});
`,
  }),
  // A BullMQ worker that keys a payout by its amount.
  (n) => ({
    ext: 'js',
    text: `import { Worker } from 'bullmq';
import Redis from 'ioredis';

const redis = new Redis();

export const payouts${n} = new Worker('payouts-${n}', async (job) => {
  const { sellerId, cents } = job.data;
  await redis.set(\`payout:\${sellerId}:\${cents}\`, '1', 'NX');
});
`,
  }),
];

export interface GeneratedWorkspace {
  /** Every source file written, relative to the root. */
  files: string[];
  /** The files below `generated/`, which a setting excludes. */
  excluded: string[];
}

/** Writes `count` source files below `root`, in services of 50 files each. */
export function writeGeneratedWorkspace(root: string, count = 2000): GeneratedWorkspace {
  const files: string[] = [];
  const excluded: string[] = [];
  for (let n = 0; n < count; n += 1) {
    const { ext, text } = templates[n % templates.length](n);
    const service = `services/service-${Math.floor(n / 50)}`;
    // Every 40th file is a test, every 25th is generated code, the rest the service's own.
    const file =
      n % 40 === 7
        ? `${service}/src/handler-${n}.test.${ext}`
        : n % 25 === 3
          ? `generated/${service}/handler-${n}.${ext}`
          : `${service}/src/handler-${n}.${ext}`;
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
    files.push(file);
    if (file.startsWith('generated/')) excluded.push(file);
  }
  return { files, excluded };
}
