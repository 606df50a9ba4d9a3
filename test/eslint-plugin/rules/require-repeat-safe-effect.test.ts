import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import plugin from '../../../eslint-plugin/src/index.js';
import { requireRepeatSafeEffect } from '../../../eslint-plugin/src/rules/require-repeat-safe-effect/index.js';
import { ruleTester } from '../rule-tester.js';
import { lintProject } from '../support/project.js';

/**
 * Effects that add, reached from a delivery entry point, with and without a boundary. Every case
 * is a file of a small project on disk whose migration and Prisma schema say which keys each
 * table has: an insert is an effect only when the schema shows it has no business key.
 */

const migration = `
CREATE TABLE accounts (id text PRIMARY KEY, balance int NOT NULL DEFAULT 0, views int NOT NULL DEFAULT 0);
CREATE TABLE usage_records (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), build_id text NOT NULL, minutes int NOT NULL);
CREATE TABLE charges (id bigserial PRIMARY KEY, order_id text NOT NULL, cents int NOT NULL);
CREATE UNIQUE INDEX charges_order ON charges (order_id);
CREATE TABLE inbox (message_id text PRIMARY KEY, received_at timestamptz DEFAULT now());
CREATE TABLE audit_log (id bigserial PRIMARY KEY, event text, at timestamptz);
CREATE TABLE orders (id text PRIMARY KEY, status text NOT NULL);
`;

const prismaSchema = `
datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}

model User {
  id      String @id
  credits Int    @default(0)
  views   Int    @default(0)
  plan    String
}

model ProcessedEvent {
  eventId String @id
}

model LedgerEntry {
  id        String @id @default(cuid())
  userId    String
  cents     Int
}

model Payment {
  id        String @id @default(cuid())
  invoiceId String @unique
  cents     Int
}
`;

const project = mkdtempSync(path.join(tmpdir(), 'idempotency-repeat-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
for (const [name, text] of Object.entries({
  'package.json': JSON.stringify({ name: 'repeats', private: true, type: 'module' }),
  'migrations/001_init.sql': migration,
  'prisma/schema.prisma': prismaSchema,
  // Producers of the queues the BullMQ and SQS cases read, one queue per way of sending.
  'src/queues/credits-keyed.ts': `import { Queue } from 'bullmq';
const queue = new Queue('credits-keyed');
export async function grant(order: { id: string }) {
  await queue.add('grant', order, { jobId: \`grant-\${order.id}\` });
}
`,
  'src/queues/credits-minted.ts': `import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
const queue = new Queue('credits-minted');
export async function grant(order: { id: string }) {
  await queue.add('grant', order, { jobId: randomUUID() });
}
`,
  'src/queues/credits-unset.ts': `import { Queue } from 'bullmq';
const queue = new Queue('credits-unset');
export async function grant(order: { id: string }) {
  await queue.add('grant', order);
}
`,
  'src/queues/credits-nest.ts': `import { Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { Queue } from 'bullmq';
@Injectable()
export class CreditsProducer {
  constructor(@InjectQueue('credits-nest') private readonly queue: Queue) {}
  async grant(order: { id: string }) {
    await this.queue.add('grant', order, { jobId: order.id });
  }
}
`,
  'src/queues/fifo.ts': `import { SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
const sqs = new SQSClient({});
export async function publishGrant(order: { orderId: string; userId: string }) {
  await sqs.send(new SendMessageCommand({
    QueueUrl: process.env.CREDITS_FIFO_URL,
    MessageBody: JSON.stringify(order),
    MessageGroupId: order.userId,
    MessageDeduplicationId: order.orderId,
  }));
  await sqs.send(new SendMessageCommand({ QueueUrl: process.env.CREDITS_STANDARD_URL, MessageBody: JSON.stringify(order) }));
}
`,
  'src/billing.service.ts': `import { prisma } from './db';
export class BillingService {
  async addCredits(userId: string, credits: number) {
    await prisma.user.update({ where: { id: userId }, data: { credits: { increment: credits } } });
  }
  async setPlan(userId: string, plan: string) {
    await prisma.user.update({ where: { id: userId }, data: { plan } });
  }
}
`,
})) {
  mkdirSync(path.dirname(path.join(project, name)), { recursive: true });
  writeFileSync(path.join(project, name), text);
}
mkdirSync(path.join(project, '.git'));
const filename = path.join(project, 'src/handler.ts');

const kafka = (body: string) => `import { Kafka } from 'kafkajs';
import { prisma } from './db';
const consumer = new Kafka({ brokers: [] }).consumer({ groupId: 'billing' });
await consumer.run({
  eachMessage: async ({ message }) => {
    const event = JSON.parse(message.value.toString());
${body}
  },
});`;

const rabbit = (body: string) => `import amqp from 'amqplib';
import { pool as db } from './db';
const channel = await (await amqp.connect('amqp://localhost')).createChannel();
await channel.consume('usage', async (msg) => {
  const usage = JSON.parse(msg.content.toString());
${body}
  channel.ack(msg);
});`;

const stripeWebhook = (body: string) => `import Stripe from 'stripe';
const stripe = new Stripe(process.env.STRIPE_KEY);
export async function POST(request) {
  const event = stripe.webhooks.constructEvent(await request.text(), request.headers.get('stripe-signature'), secret);
  const charge = event.data.object;
${body}
  return new Response('ok');
}`;

const sqs = (body: string) => `import type { SQSHandler } from 'aws-lambda';
import twilio from 'twilio';
import { pool as db } from './db';
const twilioClient = twilio(sid, token);
export const handler: SQSHandler = async (event) => {
  for (const record of event.Records) {
    const reminder = JSON.parse(record.body);
${body}
  }
};`;

const mongo = (body: string) => `import { Kafka } from 'kafkajs';
import { MongoClient } from 'mongodb';
const wallets = new MongoClient(url).db('app').collection('wallets');
const orders = new MongoClient(url).db('app').collection('orders');
await consumer.run({
  eachMessage: async ({ message }) => {
    const payment = JSON.parse(message.value.toString());
${body}
  },
});`;

const nest = (body: string) => `import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { BillingService } from './billing.service';
@Controller()
export class CreditsController {
  constructor(private readonly billing: BillingService) {}
  @EventPattern('credits.granted')
  async onGranted(@Payload() grant: { userId: string; credits: number; plan: string }) {
${body}
  }
}`;

const redisKafka = (body: string) => `import { Kafka } from 'kafkajs';
import Redis from 'ioredis';
import { createClient } from 'redis';
const redis = new Redis();
const client = createClient();
const consumer = new Kafka({ brokers: [] }).consumer({ groupId: 'usage' });
await consumer.run({
  eachMessage: async ({ message }) => {
    const usage = JSON.parse(message.value.toString());
${body}
  },
});`;

const sesLambda = (body: string) => `import type { SQSHandler } from 'aws-lambda';
import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import admin from 'firebase-admin';
import { Resend } from 'resend';
import { pool as db } from './db';
const ses = new SESClient({});
const resend = new Resend(process.env.RESEND_KEY);
export const handler: SQSHandler = async (event) => {
  for (const record of event.Records) {
    const receipt = JSON.parse(record.body);
${body}
  }
};`;

const credit =
  '    await prisma.user.update({ where: { id: order.userId }, data: { credits: { increment: order.credits } } });';

const bullWorker = (queue: string) => `import { Worker } from 'bullmq';
import { prisma } from './db';
new Worker('${queue}', async (job) => {
  const order = job.data;
${credit}
});`;

const nestProcessor = (queue: string) => `import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { prisma } from './db';
@Processor('${queue}')
export class CreditsProcessor extends WorkerHost {
  async process(job: Job) {
    const order = job.data;
${credit}
  }
}`;

const sqsConsumer = (queueUrl: string) => `import { Consumer } from 'sqs-consumer';
import { prisma } from './db';
Consumer.create({
  queueUrl: ${queueUrl},
  handleMessage: async (message) => {
    const order = JSON.parse(message.Body);
${credit}
  },
});`;

const powertools = (
  wrapped: boolean,
) => `${wrapped ? "import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';\nimport { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';\n" : ''}import type { SQSEvent } from 'aws-lambda';
import { prisma } from './db';
const process = async (event: SQSEvent) => {
  for (const record of event.Records) {
    const order = JSON.parse(record.body);
${credit}
  }
};
export const handler = ${wrapped ? "makeIdempotent(process, { persistenceStore: new DynamoDBPersistenceLayer({ tableName: 'idempotency' }), config: new IdempotencyConfig({ eventKeyJmesPath: 'Records[0].body' }) })" : 'process'};`;

const helperWebhook = (delegateType: string, claim: string) => `import Stripe from 'stripe';
import type { PrismaClient } from '@prisma/client';
import { prisma } from './db';
const stripe = new Stripe(process.env.STRIPE_KEY);
function constructStripeEvent(request) {
  return stripe.webhooks.constructEvent(request.body, request.headers['stripe-signature'], process.env.SECRET);
}
async function addCredits(users: ${delegateType}, customerId: string, credits: number) {
  await users.update({ where: { id: customerId }, data: { credits: { increment: credits } } });
}
export const webhook = async (request, response) => {
  const event = constructStripeEvent(request);
${claim}  switch (event.type) {
    case 'invoice.paid':
      await addCredits(prisma.user, event.data.object.customer, 10);
      break;
  }
  response.status(204).send();
};`;

ruleTester.run('require-repeat-safe-effect', requireRepeatSafeEffect, {
  valid: [
    {
      name: 'NestJS: the injected service sets the plan',
      filename,
      code: nest(`    await this.billing.setPlan(grant.userId, grant.plan);`),
    },
    // Increments
    {
      name: 'Prisma: a claim on a unique key comes first',
      filename,
      code: kafka(`    await prisma.processedEvent.create({ data: { eventId: event.id } });
    await prisma.user.update({ where: { id: event.userId }, data: { credits: { increment: event.credits } } });`),
    },
    {
      name: 'Prisma: a counter of views is a metric',
      filename,
      code: kafka(`    await prisma.user.update({ where: { id: event.userId }, data: { views: { increment: 1 } } });`),
    },
    {
      name: 'Prisma: setting a value is a state assignment',
      filename,
      code: kafka(`    await prisma.user.update({ where: { id: event.userId }, data: { plan: event.plan } });`),
    },
    {
      name: 'Prisma: the same increment outside a delivery entry point',
      filename,
      code: `import { prisma } from './db';
export async function addCredits(userId, credits) { await prisma.user.update({ where: { id: userId }, data: { credits: { increment: credits } } }); }`,
    },
    {
      name: 'Prisma: a state guard on the stored row decides',
      filename,
      code: kafka(`    const user = await prisma.user.findUnique({ where: { id: event.userId } });
    if (user.plan === 'credited') return;
    await prisma.user.update({ where: { id: event.userId }, data: { credits: { increment: event.credits }, plan: 'credited' } });`),
    },
    {
      name: 'SQL: an inbox claim acted on by its row count',
      filename,
      code: rabbit(`  const { rowCount } = await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [msg.properties.messageId]);
  if (rowCount === 0) return;
  await db.query('UPDATE accounts SET balance = balance + $1 WHERE id = $2', [usage.cents, usage.accountId]);`),
    },
    {
      name: 'SQL: a compare-and-set on the same row, acted on by its row count',
      filename,
      code: rabbit(`  const claimed = await db.query("UPDATE orders SET status = 'paid' WHERE id = $1 AND status = 'pending'", [usage.orderId]);
  if (claimed.rowCount === 0) return;
  await db.query('UPDATE accounts SET balance = balance + $1 WHERE id = $2', [usage.cents, usage.accountId]);`),
    },
    {
      name: 'SQL: an advisory lock held across check and effect',
      filename,
      code: rabbit(`  await db.query('SELECT pg_advisory_xact_lock(hashtext($1))', [usage.accountId]);
  await db.query('UPDATE accounts SET balance = balance + $1 WHERE id = $2', [usage.cents, usage.accountId]);`),
    },
    {
      name: 'SQL: an UPDATE that sets, not adds',
      filename,
      code: rabbit(
        `  await db.query('UPDATE accounts SET balance = $1 WHERE id = $2', [usage.cents, usage.accountId]);`,
      ),
    },
    // Inserts
    {
      name: 'SQL: the insert hits the unique key of its business id',
      filename,
      code: rabbit(
        `  await db.query('INSERT INTO charges (order_id, cents) VALUES ($1, $2)', [usage.orderId, usage.cents]);`,
      ),
    },
    {
      name: 'SQL: a log row is not an effect',
      filename,
      code: rabbit(`  await db.query('INSERT INTO audit_log (event, at) VALUES ($1, now())', [usage.kind]);`),
    },
    {
      name: 'SQL: a table the schema does not know: silent',
      filename,
      code: rabbit(
        `  await db.query('INSERT INTO meters (build_id, minutes) VALUES ($1, $2)', [usage.buildId, usage.minutes]);`,
      ),
    },
    {
      name: 'Prisma: a create on a unique invoice id',
      filename,
      code: kafka(`    await prisma.payment.create({ data: { invoiceId: event.invoiceId, cents: event.cents } });`),
    },
    {
      name: 'SQL: the insert of an unkeyed row is caught as a duplicate',
      filename,
      code: rabbit(`  try {
    await db.query('INSERT INTO usage_records (build_id, minutes) VALUES ($1, $2)', [usage.buildId, usage.minutes]);
  } catch (error) {
    if (error.code === '23505') return;
    throw error;
  }`),
    },
    // Provider calls
    {
      name: 'Stripe: a refund with an idempotency key naming the operation',
      filename,
      code: stripeWebhook(
        `  await stripe.refunds.create({ charge: charge.id }, { idempotencyKey: \`refund-\${charge.id}\` });`,
      ),
    },
    {
      name: 'Stripe: a PaymentIntent created without confirming moves no money',
      filename,
      code: stripeWebhook(`  await stripe.paymentIntents.create({ amount: charge.amount, currency: 'usd' });`),
    },
    {
      name: 'Twilio: an SMS after an inbox claim',
      filename,
      code: sqs(`    const claim = await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [reminder.reminderId]);
    if (claim.rowCount === 0) continue;
    await twilioClient.messages.create({ to: reminder.phone, from: '+15550100', body: reminder.text });`),
    },
    {
      name: 'an unknown helper that reads like a claim: the path is not whole',
      filename,
      code: sqs(`    if (!(await markProcessed(reminder.reminderId))) continue;
    await twilioClient.messages.create({ to: reminder.phone, from: '+15550100', body: reminder.text });`),
    },
    {
      name: 'messages.create of another library is not an SMS',
      filename,
      code: sqs(`    await anthropic.messages.create({ model: 'm', messages: [] });`),
    },
    // Mongo
    {
      name: 'MongoDB: $inc after a state guard on the order',
      filename,
      code: mongo(`    const order = await orders.findOne({ _id: payment.orderId });
    if (order.status === 'paid') return;
    await wallets.updateOne({ _id: payment.walletId }, { $inc: { balance: payment.cents } });`),
    },
    // Redis increments
    {
      name: 'Redis: INCRBY after a SET NX claim of the usage record',
      filename,
      code: redisKafka(`    if (!(await redis.set(\`usage:\${usage.id}\`, '1', 'EX', 86400, 'NX'))) return;
    await redis.incrby(\`credits:\${usage.userId}\`, usage.credits);`),
    },
    {
      name: 'Redis: INCR of a view counter is a metric',
      filename,
      code: redisKafka(`    await redis.incr(\`views:\${usage.page}\`);`),
    },
    {
      name: "Redis: a rate limiter's window is a metric, whatever it counts",
      filename,
      code: redisKafka(`    await redis.incrby(\`rate_limit:tokens:\${usage.userId}\`, usage.tokens);`),
    },
    {
      name: 'Redis: HINCRBY after an inbox claim acted on',
      filename,
      code: redisKafka(`    const claimed = await client.set(\`inbox:\${usage.id}\`, '1', { NX: true, EX: 86400 });
    if (!claimed) return;
    await client.hIncrBy(\`wallet:\${usage.userId}\`, 'balance', usage.cents);`),
    },
    // Provider calls that send or move money
    {
      name: 'Amazon SES: the receipt after an inbox claim',
      filename,
      code: sesLambda(`    const claim = await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [receipt.receiptId]);
    if (claim.rowCount === 0) continue;
    await ses.send(new SendEmailCommand({ Source: 'billing@example.com', Destination: { ToAddresses: [receipt.email] }, Message: receipt.message }));`),
    },
    {
      name: 'Resend: an email with an idempotency key naming the receipt',
      filename,
      code: sesLambda(
        `    await resend.emails.send({ to: receipt.email, subject: 'Receipt', html: receipt.html }, { idempotencyKey: \`receipt/\${receipt.receiptId}\` });`,
      ),
    },
    {
      name: 'Firebase: a push after an inbox claim',
      filename,
      code: sesLambda(`    const claim = await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [receipt.receiptId]);
    if (claim.rowCount === 0) continue;
    await admin.messaging().send({ token: receipt.deviceToken, notification: { title: 'Paid' } });`),
    },
    {
      name: 'Stripe: a transfer with an idempotency key',
      filename,
      code: stripeWebhook(
        `  await stripe.transfers.create({ amount: charge.amount, currency: 'usd', destination: charge.metadata.account }, { idempotencyKey: \`transfer-\${charge.id}\` });`,
      ),
    },
    {
      name: 'Stripe: a customer balance entry with an idempotency key',
      filename,
      code: stripeWebhook(
        `  await stripe.customers.createBalanceTransaction(charge.customer, { amount: -charge.amount, currency: 'usd' }, { idempotencyKey: \`credit-\${charge.id}\` });`,
      ),
    },
    {
      name: 'Stripe: a meter event deduplicated by its identifier',
      filename,
      code: stripeWebhook(
        `  await stripe.billing.meterEvents.create({ event_name: 'charges', identifier: charge.id, payload: { stripe_customer_id: charge.customer, value: '1' } });`,
      ),
    },
    {
      name: 'PayPal: a payout batch keyed by its sender_batch_id',
      filename,
      code: stripeWebhook(
        `  await paypal.payout.create({ sender_batch_header: { sender_batch_id: \`payout-\${charge.id}\` }, items: charge.metadata.items });`,
      ),
    },
    // Boundaries the broker keeps
    {
      name: 'BullMQ: every producer of the queue sets a jobId naming the order',
      filename,
      code: bullWorker('credits-keyed'),
    },
    {
      name: 'BullMQ (NestJS): a processor whose queue the producer fills with a jobId',
      filename,
      code: nestProcessor('credits-nest'),
    },
    {
      name: 'SQS FIFO: the producer sets a MessageDeduplicationId from the order',
      filename,
      code: sqsConsumer('process.env.CREDITS_FIFO_URL'),
    },
    {
      name: "Powertools: the handler wrapped in makeIdempotent, keyed by the record's body",
      filename,
      code: powertools(true),
    },
    {
      name: "Stripe: the event read by a helper of the file, a claim of it before the delegate's increment",
      filename,
      code: helperWebhook(
        "PrismaClient['user']",
        '  await prisma.processedEvent.create({ data: { eventId: event.id } });\n',
      ),
    },
    {
      name: 'near miss: a delegate of another type is not Prisma',
      filename,
      code: helperWebhook('UserStore', ''),
    },
    // Framework dedupe
    {
      name: 'near miss of a NestJS schedule: a @Timeout method runs once after start-up',
      filename,
      code: `import { Timeout } from '@nestjs/schedule';
import { prisma } from './db';
export class Grants {
  @Timeout(1000)
  async grant() {
    await prisma.user.updateMany({ where: { plan: 'pro' }, data: { credits: { increment: 100 } } });
  }
}`,
    },
    {
      name: 'Inngest: the function drops repeats by its idempotency expression',
      filename,
      code: `import { Inngest } from 'inngest';
import { prisma } from './db';
const inngest = new Inngest({ id: 'app' });
export const credit = inngest.createFunction({ id: 'credit', idempotency: 'event.data.orderId' }, { event: 'order/paid' }, async ({ event }) => {
  await prisma.user.update({ where: { id: event.data.userId }, data: { credits: { increment: event.data.credits } } });
});`,
    },
  ],
  invalid: [
    {
      name: 'NestJS: the injected service adds the credits',
      filename,
      code: nest(`    await this.billing.addCredits(grant.userId, grant.credits);`),
      errors: [
        {
          messageId: 'unguarded',
          line: 9,
          data: { entry: 'handler', does: "adds to 'credits' (prisma.user.update())", repeat: 'adds it again' },
        },
      ],
    },
    {
      name: 'Prisma: an increment with no boundary',
      filename,
      code: kafka(
        `    await prisma.user.update({ where: { id: event.userId }, data: { credits: { increment: event.credits } } });`,
      ),
      errors: [
        {
          messageId: 'unguarded',
          line: 7,
          data: { entry: 'Kafka consumer', does: "adds to 'credits' (prisma.user.update())", repeat: 'adds it again' },
        },
      ],
    },
    {
      name: 'Prisma: a stop when the user is missing guards nothing',
      filename,
      code: kafka(`    const user = await prisma.user.findUnique({ where: { id: event.userId } });
    if (!user) return;
    await prisma.user.update({ where: { id: user.id }, data: { credits: { increment: event.credits } } });`),
      errors: [{ messageId: 'unguarded', line: 9 }],
    },
    {
      name: 'SQL: balance = balance + $1 with no inbox',
      filename,
      code: rabbit(
        `  await db.query('UPDATE accounts SET balance = balance + $1 WHERE id = $2', [usage.cents, usage.accountId]);`,
      ),
      errors: [
        {
          messageId: 'unguarded',
          line: 6,
          data: {
            entry: 'RabbitMQ consumer',
            does: "adds to 'balance' (the UPDATE of accounts)",
            repeat: 'adds it again',
          },
        },
      ],
    },
    {
      name: 'SQL: an insert into a table whose only key is a generated id',
      filename,
      code: rabbit(
        `  await db.query('INSERT INTO usage_records (build_id, minutes) VALUES ($1, $2)', [usage.buildId, usage.minutes]);`,
      ),
      errors: [
        {
          messageId: 'unguarded',
          line: 6,
          data: { entry: 'RabbitMQ consumer', does: 'inserts into usage_records', repeat: 'inserts a second row' },
        },
      ],
    },
    {
      name: 'Prisma: a ledger entry with a fresh id',
      filename,
      code: kafka(
        `    await prisma.ledgerEntry.create({ data: { id: crypto.randomUUID(), userId: event.userId, cents: event.cents } });`,
      ),
      errors: [{ messageId: 'unguarded', line: 7 }],
    },
    {
      name: 'Stripe: a refund without its idempotency key',
      filename,
      code: stripeWebhook(`  await stripe.refunds.create({ charge: charge.id });`),
      errors: [
        {
          messageId: 'unguarded',
          line: 6,
          data: {
            entry: 'Stripe webhook',
            does: 'refunds through Stripe (stripe.refunds.create())',
            repeat: 'refunds again',
          },
        },
      ],
    },
    {
      name: 'Stripe: a confirmed PaymentIntent without its idempotency key',
      filename,
      code: stripeWebhook(
        `  await stripe.paymentIntents.create({ amount: charge.amount, currency: 'usd', confirm: true });`,
      ),
      errors: [{ messageId: 'unguarded', line: 6 }],
    },
    {
      name: 'Twilio: an SMS on every delivery',
      filename,
      code: sqs(
        `    await twilioClient.messages.create({ to: reminder.phone, from: '+15550100', body: reminder.text });`,
      ),
      errors: [
        {
          messageId: 'unguarded',
          line: 8,
          data: {
            entry: 'Lambda handler',
            does: 'sends an SMS through Twilio (twilioClient.messages.create())',
            repeat: 'sends it again',
          },
        },
      ],
    },
    {
      name: 'MongoDB: $inc with no guard',
      filename,
      code: mongo(`    await wallets.updateOne({ _id: payment.walletId }, { $inc: { balance: payment.cents } });`),
      errors: [{ messageId: 'unguarded', line: 8 }],
    },
    {
      name: 'Inngest: the same function without its idempotency expression',
      filename,
      code: `import { Inngest } from 'inngest';
import { prisma } from './db';
const inngest = new Inngest({ id: 'app' });
export const credit = inngest.createFunction({ id: 'credit' }, { event: 'order/paid' }, async ({ event }) => {
  await prisma.user.update({ where: { id: event.data.userId }, data: { credits: { increment: event.data.credits } } });
});`,
      errors: [
        {
          messageId: 'unguarded',
          line: 5,
          data: {
            entry: 'Inngest function',
            does: "adds to 'credits' (prisma.user.update())",
            repeat: 'adds it again',
          },
        },
      ],
    },
    {
      name: 'node-cron: a schedule that adds credits with nothing to read runs again on every instance',
      filename,
      code: `import cron from 'node-cron';
import { prisma } from './db';
cron.schedule('0 0 1 * *', async () => {
  await prisma.user.updateMany({ where: { plan: 'pro' }, data: { credits: { increment: 100 } } });
});`,
      errors: [
        {
          // A schedule runs again rather than being redelivered: 'so a second run adds it again'.
          messageId: 'unguardedRun',
          line: 4,
          data: {
            entry: 'node-cron schedule',
            does: "adds to 'credits' (prisma.user.updateMany())",
            repeat: 'adds it again',
          },
        },
      ],
    },
    {
      name: 'trigger.dev: a task that adds credits',
      filename,
      code: `import { task } from '@trigger.dev/sdk/v3';
import { prisma } from './db';
export const credit = task({ id: 'credit', run: async (payload: { userId: string; credits: number }) => {
  await prisma.user.update({ where: { id: payload.userId }, data: { credits: { increment: payload.credits } } });
} });`,
      errors: [
        {
          messageId: 'unguarded',
          line: 4,
          data: {
            entry: 'trigger.dev task',
            does: "adds to 'credits' (prisma.user.update())",
            repeat: 'adds it again',
          },
        },
      ],
    },
    {
      name: 'Redis: INCRBY of credits on every delivery (ioredis)',
      filename,
      code: redisKafka(`    await redis.incrby(\`credits:\${usage.userId}\`, usage.credits);`),
      errors: [
        {
          messageId: 'unguarded',
          line: 10,
          data: {
            entry: 'Kafka consumer',
            does: "adds with the Redis INCRBY of 'credits:*'",
            repeat: 'adds it again',
          },
        },
      ],
    },
    {
      name: 'Redis: HINCRBY of a balance with no claim (node-redis)',
      filename,
      code: redisKafka(`    await client.hIncrBy(\`wallet:\${usage.userId}\`, 'balance', usage.cents);`),
      errors: [
        {
          messageId: 'unguarded',
          line: 10,
          data: {
            entry: 'Kafka consumer',
            does: "adds with the Redis HINCRBY of 'balance' in 'wallet:*'",
            repeat: 'adds it again',
          },
        },
      ],
    },
    {
      name: 'Redis: INCR of a usage counter',
      filename,
      code: redisKafka(`    await redis.incr(\`usage:\${usage.orgId}\`);`),
      errors: [{ messageId: 'unguarded', line: 10 }],
    },
    {
      name: 'Amazon SES: a receipt sent on every delivery',
      filename,
      code: sesLambda(
        `    await ses.send(new SendEmailCommand({ Source: 'billing@example.com', Destination: { ToAddresses: [receipt.email] }, Message: receipt.message }));`,
      ),
      errors: [
        {
          messageId: 'unguarded',
          line: 11,
          data: {
            entry: 'Lambda handler',
            does: 'sends an email through Amazon SES (ses.send(new SendEmailCommand()))',
            repeat: 'sends it again',
          },
        },
      ],
    },
    {
      name: 'Resend: the same email without its idempotency key',
      filename,
      code: sesLambda(`    await resend.emails.send({ to: receipt.email, subject: 'Receipt', html: receipt.html });`),
      errors: [{ messageId: 'unguarded', line: 11 }],
    },
    {
      name: 'Firebase: a push on every delivery',
      filename,
      code: sesLambda(
        `    await admin.messaging().send({ token: receipt.deviceToken, notification: { title: 'Paid' } });`,
      ),
      errors: [
        {
          messageId: 'unguarded',
          line: 11,
          data: {
            entry: 'Lambda handler',
            does: 'sends a push notification through Firebase Cloud Messaging (admin.messaging().send())',
            repeat: 'sends it again',
          },
        },
      ],
    },
    {
      name: 'Stripe: a transfer without its idempotency key',
      filename,
      code: stripeWebhook(
        `  await stripe.transfers.create({ amount: charge.amount, currency: 'usd', destination: charge.metadata.account });`,
      ),
      errors: [
        {
          messageId: 'unguarded',
          line: 6,
          data: {
            entry: 'Stripe webhook',
            does: 'transfers money through Stripe (stripe.transfers.create())',
            repeat: 'transfers again',
          },
        },
      ],
    },
    {
      name: 'Stripe: a customer balance entry without its idempotency key',
      filename,
      code: stripeWebhook(
        `  await stripe.customers.createBalanceTransaction(charge.customer, { amount: -charge.amount, currency: 'usd' });`,
      ),
      errors: [
        {
          messageId: 'unguarded',
          line: 6,
          data: {
            entry: 'Stripe webhook',
            does: 'adds a balance entry through Stripe (stripe.customers.createBalanceTransaction())',
            repeat: 'adds a second entry',
          },
        },
      ],
    },
    {
      name: 'Stripe: a meter event with no identifier',
      filename,
      code: stripeWebhook(
        `  await stripe.billing.meterEvents.create({ event_name: 'charges', payload: { stripe_customer_id: charge.customer, value: '1' } });`,
      ),
      errors: [
        {
          messageId: 'unguarded',
          line: 6,
          data: {
            entry: 'Stripe webhook',
            does: 'records usage with Stripe (stripe.billing.meterEvents.create())',
            repeat: 'records it again',
          },
        },
      ],
    },
    {
      name: 'PayPal: a payout batch with no sender_batch_id',
      filename,
      code: stripeWebhook(
        `  await paypal.payout.create({ sender_batch_header: { email_subject: 'Paid' }, items: charge.metadata.items });`,
      ),
      errors: [
        {
          messageId: 'unguarded',
          line: 6,
          data: {
            entry: 'Stripe webhook',
            does: 'pays out through PayPal (paypal.payout.create())',
            repeat: 'pays out again',
          },
        },
      ],
    },
    {
      name: 'BullMQ: the producer sets a fresh jobId on every add',
      filename,
      code: bullWorker('credits-minted'),
      errors: [
        {
          messageId: 'unguarded',
          line: 5,
          data: { entry: 'BullMQ worker', does: "adds to 'credits' (prisma.user.update())", repeat: 'adds it again' },
        },
      ],
    },
    {
      name: 'BullMQ: the producer sets no jobId',
      filename,
      code: bullWorker('credits-unset'),
      errors: [{ messageId: 'unguarded', line: 5 }],
    },
    {
      name: 'BullMQ: no producer of the queue in sight',
      filename,
      code: bullWorker('credits-elsewhere'),
      errors: [{ messageId: 'unguarded', line: 5 }],
    },
    {
      name: 'BullMQ (NestJS): a processor of a queue with no producer in sight',
      filename,
      code: nestProcessor('credits-elsewhere'),
      errors: [
        {
          messageId: 'unguarded',
          line: 8,
          data: { entry: 'BullMQ worker', does: "adds to 'credits' (prisma.user.update())", repeat: 'adds it again' },
        },
      ],
    },
    {
      name: 'SQS: a standard queue whose producer sets no deduplication id',
      filename,
      code: sqsConsumer('process.env.CREDITS_STANDARD_URL'),
      errors: [
        {
          messageId: 'unguarded',
          line: 7,
          data: { entry: 'SQS consumer', does: "adds to 'credits' (prisma.user.update())", repeat: 'adds it again' },
        },
      ],
    },
    {
      name: 'Powertools: the same handler, not wrapped',
      filename,
      code: powertools(false),
      errors: [{ messageId: 'unguarded', line: 6 }],
    },
    {
      name: "Stripe: the event read by a helper of the file, credits added through a delegate typed PrismaClient['user']",
      filename,
      code: helperWebhook("PrismaClient['user']", ''),
      errors: [
        {
          messageId: 'unguarded',
          line: 15,
          data: { entry: 'Stripe webhook', does: "adds to 'credits' (users.update())", repeat: 'adds it again' },
        },
      ],
    },
    {
      name: 'a local helper does the effect: reported at its call in the handler',
      filename,
      code: `${kafka(`    await addCredits(event.userId, event.credits);`)}
async function addCredits(userId, credits) {
  await prisma.user.update({ where: { id: userId }, data: { credits: { increment: credits } } });
}`,
      errors: [{ messageId: 'unguarded', line: 7 }],
    },
  ],
});

describe('require-repeat-safe-effect through the eslint command line', () => {
  it('is in configs.strict, not yet in configs.recommended', () => {
    const on = (config: readonly { rules?: Record<string, unknown> }[]) =>
      config.some((entry) => entry.rules?.['idempotency/require-repeat-safe-effect'] === 'error');
    expect(on(plugin.configs.strict)).toBe(true);
    expect(on(plugin.configs.recommended)).toBe(false);
  });

  // A consumer in one module, the usage service it calls in another, the table in a migration.
  const consumer = `import { Kafka } from 'kafkajs';
import { recordUsage } from '../services/usage';

const consumer = new Kafka({ brokers: ['kafka:9092'] }).consumer({ groupId: 'billing' });
await consumer.run({
  eachMessage: async ({ message }) => {
    const build = JSON.parse(message.value.toString());
    await recordUsage(build.buildId, build.minutes);
  },
});
`;
  const service = `import { pool } from '../db';

export async function recordUsage(buildId: string, minutes: number) {
  await pool.query('INSERT INTO build_usage (build_id, minutes) VALUES ($1, $2)', [buildId, minutes]);
}
`;

  it('reports the call in the handler when the table the service inserts into has no business key', async () => {
    const { findings, messages } = await lintProject(
      {
        'migrations/001_usage.sql':
          'CREATE TABLE build_usage (id bigserial PRIMARY KEY, build_id text NOT NULL, minutes int NOT NULL);\n',
        'src/consumers/builds.ts': consumer,
        'src/services/usage.ts': service,
      },
      undefined,
      [],
      { config: 'strict' },
    );
    expect(findings).toEqual(['src/consumers/builds.ts:8 idempotency/require-repeat-safe-effect/unguarded']);
    expect(messages).toEqual([
      'Additive effect with no repeat-safe boundary: this Kafka consumer inserts into build_usage with no claim, unique key or idempotency key on the way, so a redelivery inserts a second row.',
    ]);
  });

  it('stays silent when the schema gives the row a unique key on the build', async () => {
    const { findings } = await lintProject(
      {
        'migrations/001_usage.sql':
          'CREATE TABLE build_usage (id bigserial PRIMARY KEY, build_id text NOT NULL UNIQUE, minutes int NOT NULL);\n',
        'src/consumers/builds.ts': consumer,
        'src/services/usage.ts': service,
      },
      undefined,
      [],
      { config: 'strict' },
    );
    expect(findings).toEqual([]);
  });

  it('stays silent when the schema cannot be read', async () => {
    const { findings } = await lintProject(
      {
        'migrations/001_usage.sql':
          'CREATE TABLE build_usage (id bigserial PRIMARY KEY, build_id text NOT NULL, minutes int NOT NULL);\n',
        'migrations/002_broken.sql': 'CREATE TABLE build_usage_archive (this is not sql;\n',
        'src/consumers/builds.ts': consumer,
        'src/services/usage.ts': service,
      },
      undefined,
      [],
      { config: 'strict' },
    );
    expect(findings).toEqual([]);
  });

  // A BullMQ worker in one module, the service that records the grant in another, the model in the Prisma schema.
  const worker = `import { Worker } from 'bullmq';
import { grantCredits } from '../services/credits';

new Worker('credit-grants', async (job) => {
  await grantCredits(job.data.orderId, job.data.userId, job.data.credits);
});
`;
  const credits = `import { PrismaClient } from '@prisma/client';

const prisma = new PrismaClient();

export async function grantCredits(orderId: string, userId: string, credits: number) {
  await prisma.creditGrant.create({ data: { orderId, userId, credits } });
}
`;
  const schema = (orderKey: string) => `datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}

model CreditGrant {
  id      String @id @default(cuid())
  orderId String ${orderKey}
  userId  String
  credits Int
}
`;
  const producer = (options: string) => `import { Queue } from 'bullmq';

const grants = new Queue('credit-grants');

export async function orderPaid(order: { id: string; userId: string; credits: number }) {
  await grants.add('grant', { orderId: order.id, userId: order.userId, credits: order.credits }${options});
}
`;

  it('reports the worker whose service inserts a grant the schema does not key by its order', async () => {
    const { findings, messages } = await lintProject(
      {
        'prisma/schema.prisma': schema(''),
        'src/workers/credits.ts': worker,
        'src/services/credits.ts': credits,
        'src/api/orders.ts': producer(''),
      },
      undefined,
      [],
      { config: 'strict' },
    );
    expect(findings).toEqual(['src/workers/credits.ts:5 idempotency/require-repeat-safe-effect/unguarded']);
    expect(messages).toEqual([
      'Additive effect with no repeat-safe boundary: this BullMQ worker inserts into CreditGrant with no claim, unique key or idempotency key on the way, so a redelivery inserts a second row.',
    ]);
  });

  it('stays silent when the Prisma schema makes the order id unique', async () => {
    const { findings } = await lintProject(
      {
        'prisma/schema.prisma': schema('@unique'),
        'src/workers/credits.ts': worker,
        'src/services/credits.ts': credits,
        'src/api/orders.ts': producer(''),
      },
      undefined,
      [],
      { config: 'strict' },
    );
    expect(findings).toEqual([]);
  });

  it('stays silent when the producer, in a third module, adds each job with a jobId naming the order', async () => {
    const { findings } = await lintProject(
      {
        'prisma/schema.prisma': schema(''),
        'src/workers/credits.ts': worker,
        'src/services/credits.ts': credits,
        'src/api/orders.ts': producer(', { jobId: `grant-${order.id}` }'),
      },
      undefined,
      [],
      { config: 'strict' },
    );
    expect(findings).toEqual([]);
  });
});
