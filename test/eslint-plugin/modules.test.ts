import { describe, expect, it } from 'vitest';

import { lintProject } from './support/project.js';

/**
 * Values followed into the project's other modules, through the real `eslint` command: a key
 * built by an imported helper is judged by what the helper builds it from.
 */

const consumer = (specifier: string) => `
import { Kafka } from 'kafkajs';
import { refundKey, paymentKey } from '${specifier}';

export async function start(consumer, stripe) {
  await consumer.run({
    eachMessage: async ({ message }) => {
      const refund = JSON.parse(message.value.toString());
      await stripe.refunds.create({ charge: refund.chargeId }, { idempotencyKey: refundKey(message) });
      await stripe.paymentIntents.create({ amount: refund.cents }, { idempotencyKey: paymentKey(refund) });
    },
  });
}
`;

const keys = `
export function refundKey(message: { offset: string }): string {
  return \`refund-\${message.offset}\`;
}

export const paymentKey = (refund: { refundId: string }) => \`payment-\${refund.refundId}\`;
`;

describe('keys built in other modules', () => {
  it('an imported helper that builds the key from the delivery is followed; one that builds it from the payload is not reported', async () => {
    const { findings, messages } = await lintProject({ 'src/keys.ts': keys, 'src/consumer.ts': consumer('./keys.js') });
    expect(findings).toEqual(['src/consumer.ts:9 idempotency/no-delivery-id-effect-key/deliveryKey']);
    expect(messages[0]).toContain('the Kafka offset');
  });

  it('through tsconfig paths and an index module', async () => {
    const { findings } = await lintProject({
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@app/*': ['src/*'] } } }),
      'src/keys/index.ts': keys,
      'src/consumer.ts': consumer('@app/keys'),
    });
    expect(findings).toEqual(['src/consumer.ts:9 idempotency/no-delivery-id-effect-key/deliveryKey']);
  });

  it("through the tsconfig's own paths when a base it extends is not installed (with comments and trailing commas)", async () => {
    const tsconfig = `{
      // a workspace's shared base, not installed yet
      "extends": "@acme/tsconfig/base.json",
      "compilerOptions": { "baseUrl": ".", "paths": { "@app/*": ["src/*"], }, },
    }`;
    const { findings } = await lintProject({
      'tsconfig.json': tsconfig,
      'src/keys/index.ts': keys,
      'src/consumer.ts': consumer('@app/keys'),
    });
    expect(findings).toEqual(['src/consumer.ts:9 idempotency/no-delivery-id-effect-key/deliveryKey']);
  });

  it('a parameter of an exported function holds what its own module passes and what its importers pass', async () => {
    const refunds = `
import Stripe from 'stripe';
const stripe = new Stripe(process.env.STRIPE_KEY);

export async function refundOrder(chargeId: string, attempt = 'manual') {
  await stripe.refunds.create({ charge: chargeId }, { idempotencyKey: \`refund-\${chargeId}-\${attempt}\` });
}

export async function refundAll(chargeIds: string[]) {
  for (const chargeId of chargeIds) await refundOrder(chargeId, 'batch');
}
`;
    const consumer = (attempt: string) => `
import { Kafka } from 'kafkajs';
import { refundOrder } from './refunds.js';

export async function start(consumer) {
  await consumer.run({
    eachMessage: async ({ message }) => {
      const refund = JSON.parse(message.value.toString());
      await refundOrder(refund.chargeId, ${attempt});
    },
  });
}
`;
    const fromDelivery = await lintProject({
      'src/refunds.ts': refunds,
      'src/consumer.ts': consumer('message.offset'),
    });
    // At the key, and where the consumer hands the offset over.
    expect(fromDelivery.findings).toEqual([
      'src/consumer.ts:9 idempotency/no-delivery-id-effect-key/deliveryKey',
      'src/refunds.ts:6 idempotency/no-delivery-id-effect-key/deliveryKey',
    ]);
    const fromPayload = await lintProject({ 'src/refunds.ts': refunds, 'src/consumer.ts': consumer('refund.attempt') });
    expect(fromPayload.findings).toEqual([]);
  });

  it('a package in node_modules is not read', async () => {
    const { findings } = await lintProject({
      'node_modules/keys/index.js': keys.replace(/: [^)]+\)/g, ')').replace(/\): string/, ')'),
      'src/consumer.ts': consumer('keys'),
    });
    expect(findings).toEqual([]);
  });
});

describe('handlers registered in one module and defined in another', () => {
  const handler = `
export async function handleRefund({ message }) {
  const refund = JSON.parse(message.value.toString());
  await stripe.refunds.create({ charge: refund.chargeId }, { idempotencyKey: \`refund-\${message.offset}\` });
}

export async function handleJob(job) {
  await db.query('INSERT INTO payouts (payout_id, cents) VALUES ($1, $2) ON CONFLICT (payout_id) DO NOTHING', [job.id, job.data.cents]);
}

export async function notAHandler(message) {
  await stripe.refunds.create({ charge: message.chargeId }, { idempotencyKey: \`refund-\${message.offset}\` });
}
`;
  const registrations = `
import { Kafka } from 'kafkajs';
import { Worker } from 'bullmq';
import { handleRefund, handleJob } from './handlers.js';

await consumer.run({ eachMessage: handleRefund });
new Worker('payouts', (job) => handleJob(job));
`;

  it('a handler passed by reference, and one called from an inline handler, know what they are given', async () => {
    const { findings } = await lintProject({ 'src/handlers.js': handler, 'src/main.js': registrations });
    expect(findings).toEqual([
      'src/handlers.js:4 idempotency/no-delivery-id-effect-key/deliveryKey',
      'src/handlers.js:8 idempotency/no-delivery-id-effect-key/deliveryKey',
    ]);
  });

  it('the same with ESLint linting files in parallel threads', async () => {
    const { findings } = await lintProject(
      { 'src/handlers.js': handler, 'src/main.js': registrations, 'src/other.js': 'export const x = 1;' },
      undefined,
      ['--concurrency', '2'],
    );
    expect(findings).toEqual([
      'src/handlers.js:4 idempotency/no-delivery-id-effect-key/deliveryKey',
      'src/handlers.js:8 idempotency/no-delivery-id-effect-key/deliveryKey',
    ]);
  });

  it('the recommended config leaves tests, seeds and migration scripts alone', async () => {
    const { findings } = await lintProject({
      'src/handlers.test.js': handler,
      'src/main.js': registrations.replace('./handlers.js', './handlers.test.js'),
      'db/migrations/002_backfill.js': registrations.replace('./handlers.js', '../../src/handlers.test.js'),
      'prisma/seed.ts':
        'await prisma.refund.findFirst({ where: { id } }) || await prisma.refund.create({ data: { id } });',
    });
    expect(findings).toEqual([]);
  });

  it('the recommended config leaves a test harness of its own alone, but not a folder whose name only contains the word', async () => {
    const lookThenCreate =
      'export async function enter(id) { (await prisma.entry.findFirst({ where: { id } })) || (await prisma.entry.create({ data: { id, cents: 500 } })); }';
    const { findings } = await lintProject({
      'simulation-test/src/rpc-cache.ts': lookThenCreate,
      'packages/integration-tests/src/entries.ts': lookThenCreate,
      'src/contest/entries.ts': lookThenCreate,
    });
    expect(findings).toEqual(['src/contest/entries.ts:1 idempotency/no-check-then-insert/checkThenInsert']);
  });

  it("the recommended config leaves a database's alteration scripts alone, wherever their folder sits", async () => {
    const claim = `export async function up(pool) {
  await pool.query('INSERT INTO scopes (tenant_id, name) VALUES ($1, $2) ON CONFLICT (tenant_id, name) DO NOTHING', ['t', 'read']);
}`;
    const files = (where: string) => ({
      'packages/schemas/tables/scopes.sql': 'CREATE TABLE scopes (id text PRIMARY KEY, tenant_id text, name text);',
      [where]: claim,
    });
    const service = await lintProject(files('packages/core/src/scopes.ts'));
    expect(service.findings).toEqual([
      'packages/core/src/scopes.ts:2 idempotency/no-claim-without-unique-key/noMatchingKey',
    ]);
    for (const where of ['packages/schemas/alterations/1.20.0-add-scope.ts', 'src/modules/auth/migration/Version-1.ts'])
      expect((await lintProject(files(where))).findings).toEqual([]);
  });

  it('without the registering module, names alone say nothing', async () => {
    const { findings } = await lintProject({ 'src/handlers.js': handler });
    expect(findings).toEqual([]);
  });
});

describe('a CommonJS module that is one function, called from a handler two modules away', () => {
  const registration = `
const amqp = require('amqplib');
const processMessage = require('./process-message');
async function start(channel) {
  await channel.consume('statements', (message) => processMessage(message, channel));
}
module.exports = { start };
`;
  const processMessage = `
const { generateDocument } = require('./generate');
const processMessage = async (message, channel) => {
  await generateDocument(JSON.parse(message.content.toString()));
  channel.ack(message);
};
module.exports = processMessage;
`;
  const generate = `
const { Pool } = require('pg');
const pool = new Pool();
const generateDocument = async (request) => {
  const { rows } = await pool.query('SELECT 1 FROM generations WHERE document_reference = $1', [request.documentReference]);
  if (rows.length > 0) return;
  await sendMail(request.email);
  await pool.query('INSERT INTO generations (document_reference) VALUES ($1)', [request.documentReference]);
};
module.exports = { generateDocument };
`;

  it('runs per delivery: the record written after the mail is reported', async () => {
    const { findings } = await lintProject({
      'app/messaging/index.js': registration,
      'app/messaging/process-message.js': processMessage,
      'app/messaging/generate.js': generate,
    });
    expect(findings).toEqual(['app/messaging/generate.js:8 idempotency/no-claim-after-effect/recordAfterWork']);
  });

  it('near miss: without the module that registers it, nothing says a delivery runs it', async () => {
    const { findings } = await lintProject({
      'app/messaging/process-message.js': processMessage,
      'app/messaging/generate.js': generate,
    });
    expect(findings).toEqual([]);
  });
});

describe("writes made by the project's helpers in other modules", () => {
  const cache = `
import Redis from 'ioredis';
const redis = new Redis();
export const getCachedCount = async (userId: string) => {
  const cached = await redis.get(\`count:\${userId}\`);
  return cached ? parseInt(cached, 10) : undefined;
};
export const setCachedCount = async (userId: string, count: number) => {
  await redis.set(\`count:\${userId}\`, count, 'EX', 600);
};
export const markCounted = async (userId: string, count: number) => {
  await redis.set(\`count:\${userId}\`, '1');
};
`;
  it('a cache filled through helpers keeps the value the caller computed; a marker set through one is still a marker', async () => {
    const { findings } = await lintProject({
      'src/cache.ts': cache,
      'src/jobs/count.ts': `
import { getCachedCount, markCounted, setCachedCount } from '../cache';
export async function totalCount(userId: string) {
  const cached = await getCachedCount(userId);
  if (cached) return cached;
  const count = await countItems(userId);
  await setCachedCount(userId, count);
  return count;
}
export async function countOnce(userId: string) {
  if (await getCachedCount(userId)) return;
  await markCounted(userId, 1);
}
`,
    });
    expect(findings).toEqual(['src/jobs/count.ts:12 idempotency/no-check-then-insert/checkThenInsert']);
  });
});

describe("a key-value store reached through the project's wrappers, handed the key", () => {
  const db = `
import { createClient } from 'redis';
const db = createClient();
export const g = async (k: string) => {
  const v = await db.get(k);
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
};
export const s = async (k: string, v: unknown) => {
  await db.set(k, JSON.stringify(v));
};
`;
  const webhook = (record: string) => `
import { g, s } from '../db';
import { Resend } from 'resend';
const resend = new Resend(process.env.RESEND_KEY);
export async function onInvoicePaid(event: { invoiceId: string; email: string; requestId: string }) {
  const key = \`receipt-sent:\${event.invoiceId}\`;
  if (await g(key)) return;
  await resend.emails.send({ to: event.email, subject: 'Receipt', html: '<p>Thanks</p>' });
  ${record}
}
`;
  it("touches the key each caller hands over: a write of another key is not the check's record", async () => {
    const { findings } = await lintProject({
      'src/db.ts': db,
      'src/webhooks/invoice-paid.ts': webhook('await s(`request:${event.requestId}`, event);'),
    });
    expect(findings).toEqual([]);
  });
  it('the near miss: the key checked, recorded after the email', async () => {
    const { findings } = await lintProject({
      'src/db.ts': db,
      'src/webhooks/invoice-paid.ts': webhook('await s(key, true);'),
    });
    expect(findings).toEqual(['src/webhooks/invoice-paid.ts:9 idempotency/no-claim-after-effect/recordAfterWork']);
  });
  it('a value the wrapper serialises is what its caller stores: a total computed and kept is a cache fill', async () => {
    const { findings } = await lintProject({
      'src/db.ts': db,
      'src/jobs/totals.ts': `
import { g, s } from '../db';
export async function totalBytes(tenantId: string) {
  const entry = await g(\`bytes:\${tenantId}\`);
  if (entry !== undefined) return entry.bytes;
  const bytes = await measure(tenantId);
  await s(\`bytes:\${tenantId}\`, { bytes, computedAt: Date.now() });
  return bytes;
}
`,
    });
    expect(findings).toEqual([]);
  });
  it('a wrapper that hands back the stored value parsed, or null, answers as the read does', async () => {
    const { findings } = await lintProject({
      'src/db.ts': `
import { createClient } from 'redis';
const db = createClient();
export const g = async (k: string) => {
  const v = await db.get(k);
  return v === null ? null : JSON.parse(v);
};
export const s = async (k: string, v: unknown) => {
  await db.set(k, JSON.stringify(v));
};
`,
      'src/webhooks/invoice-paid.ts': webhook('await s(key, true);'),
    });
    expect(findings).toEqual(['src/webhooks/invoice-paid.ts:9 idempotency/no-claim-after-effect/recordAfterWork']);
  });
});

describe("locks taken through the project's own wrapper", () => {
  /** A class of the project whose static method takes a redis-semaphore lock (`Mutex`), or a semaphore of `permits`. */
  const locks = (made: string) => `
import { Mutex, Semaphore } from 'redis-semaphore';
import { redis } from './redis';
export default class Locks {
  public static async take(key: string) {
    const lock = ${made};
    await lock.acquire();
    return lock;
  }
}
`;
  const sweep = `
import cron from 'node-cron';
import { PrismaClient } from '@prisma/client';
import Locks from '@acme/common/locks';
const prisma = new PrismaClient();
async function raiseAlert(rule: { id: string }) {
  const open = await prisma.alert.findFirst({ where: { ruleId: rule.id } });
  if (open) return;
  await prisma.alert.create({ data: { ruleId: rule.id } });
  await page(rule);
}
cron.schedule('* * * * *', async () => {
  const lock = await Locks.take('alerts-sweep');
  try {
    for (const rule of await breachedRules()) await raiseAlert(rule);
  } finally {
    await lock.release();
  }
});
`;
  const project = (made: string) => ({
    'common/locks.ts': locks(made),
    'app/package.json': JSON.stringify({ name: 'app', dependencies: { '@acme/common': 'file:../common' } }),
    'app/jobs/sweep.ts': sweep,
  });

  it('a sweep that takes a mutex through a sibling package, then calls the helper that looks and creates, is serialised', async () => {
    const { findings } = await lintProject(project(`new Mutex(redis, key)`));
    expect(findings).toEqual([]);
  });

  it('the near miss: the wrapper takes a semaphore of three permits, and three sweeps may look at once', async () => {
    const { findings } = await lintProject(project(`new Semaphore(redis, key, 3)`));
    expect(findings).toEqual(['app/jobs/sweep.ts:9 idempotency/no-check-then-insert/checkThenInsert']);
  });
});

describe("an advisory lock taken through the project's helper, with a setting beside it", () => {
  const schema = `
import { pgTable, text } from 'drizzle-orm/pg-core';
export const orders = pgTable('orders', { id: text('id').primaryKey(), ref: text('ref').notNull() });
`;
  /** A helper that sets the lock timeout, then runs `statement`. */
  const locks = (statement: string) => `
import { sql } from 'drizzle-orm';
export async function lockOrganization(tx, organizationId: string) {
  await tx.execute(sql\`select set_config('lock_timeout', \${'5000ms'}, true)\`);
  await tx.execute(sql\`${statement}\`);
}
`;
  const worker = `
import { eq } from 'drizzle-orm';
import { Worker } from 'bullmq';
import { lockOrganization } from './locks';
import { orders } from './schema';
new Worker('orders', async (job) => {
  await db.transaction(async (tx) => {
    await lockOrganization(tx, job.data.organizationId);
    const [existing] = await tx.select().from(orders).where(eq(orders.ref, job.data.ref)).limit(1);
    if (existing) return;
    await tx.insert(orders).values({ id: crypto.randomUUID(), ref: job.data.ref });
  });
});
`;

  it('the helper stands for the lock: a statement of no table beside it touches nothing', async () => {
    const { findings } = await lintProject({
      'src/schema.ts': schema,
      'src/locks.ts': locks('select pg_advisory_xact_lock(hashtextextended(${organizationId}, 0))'),
      'src/worker.ts': worker,
    });
    expect(findings).toEqual([]);
  });

  it('the near miss: the helper reads a table instead of taking a lock', async () => {
    const { findings } = await lintProject({
      'src/schema.ts': schema,
      'src/locks.ts': locks('select id from organizations where id = ${organizationId}'),
      'src/worker.ts': worker,
    });
    expect(findings).toEqual(['src/worker.ts:11 idempotency/no-check-then-insert/checkThenInsert']);
  });
});

/** A NestJS consumer whose service, gathered by the folder's `index` file, wraps a Mongoose model. */
const connectionService = `
import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';

@Injectable()
export class ConnectionService {
  constructor(@InjectModel('Connection') private readonly connectionModel: Model<any>) {}

  public async findById(id: string) {
    return this.connectionModel.findById(id);
  }

  public async create(data: { _id: string; name: string }) {
    return this.connectionModel.create(data);
  }
}
`;

const bpoConsumer = (id: string) => `
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { ConnectionService } from '../services';

@Controller()
export class BpoConsumer {
  constructor(private readonly connectionService: ConnectionService) {}

  @EventPattern('bpo.changed')
  async onChanged(dto: { uuid: string; parentId: string; name: string }) {
    const connection = await this.connectionService.findById(dto.uuid);
    if (!connection) {
      await this.connectionService.create({ _id: ${id}, name: dto.name });
    }
  }
}
`;

describe("a service's methods, reached through an index file that re-exports them", () => {
  const project = (id: string) => ({
    'src/connection/services/connection.service.ts': connectionService,
    'src/connection/services/index.ts': "export * from './connection.service';\n",
    'src/connection/consumers/bpo.consumer.ts': bpoConsumer(id),
  });

  it('a document created with the _id the service looked up is settled by MongoDB itself', async () => {
    const { findings } = await lintProject(project('dto.uuid'));
    expect(findings).toEqual([]);
  });

  it("a service that builds the document from the message it is handed, keeping the message's _id", async () => {
    const files = project('dto.uuid');
    files['src/connection/services/connection.service.ts'] = connectionService.replace(
      'return this.connectionModel.create(data);',
      'return this.connectionModel.create({ _id: data._id, name: data.name, kind: "bpo" });',
    );
    files['src/connection/consumers/bpo.consumer.ts'] = bpoConsumer('dto.uuid')
      .replace('findById(dto.uuid)', 'findById(dto._id)')
      .replace('create({ _id: dto.uuid, name: dto.name })', 'create(dto)');
    const { findings } = await lintProject(files);
    expect(findings).toEqual([]);
  });

  it('the near miss: created with another _id than the one looked up, two deliveries both create', async () => {
    const { findings } = await lintProject(project('dto.parentId'));
    expect(findings).toEqual([
      'src/connection/consumers/bpo.consumer.ts:14 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });
});

describe("a service's helper handed the query whole", () => {
  const service = `
import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model, FilterQuery } from 'mongoose';

@Injectable()
export class ChatsService {
  constructor(@InjectModel('Chat') private readonly model: Model<any>) {}

  public async exists(filter: FilterQuery<any>): Promise<boolean> {
    return !!(await this.model.exists(filter));
  }

  public async create(data: any) {
    return this.model.create(data);
  }
}
`;
  const consumer = (check: string, document: string) => `
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { ChatsService } from '../services/chats.service';

@Controller()
export class FirstMessageConsumer {
  constructor(private readonly chatsService: ChatsService) {}

  @EventPattern('first-message.created')
  async onCreated(dto: { chat: { _id: string; title: string } }) {
    if (!(await this.chatsService.exists(${check}))) {
      await this.chatsService.create(${document});
    }
  }
}
`;
  const project = (check: string, document: string) => ({
    'src/chats/services/chats.service.ts': service,
    'src/chats/consumers/first-message.consumer.ts': consumer(check, document),
  });

  it("reads the caller's query: the document spreads the message holding the _id it checked, so MongoDB settles it", async () => {
    const { findings } = await lintProject(
      project('{ _id: dto.chat._id }', '{ members: [], ...dto.chat, kind: "customer" }'),
    );
    expect(findings).toEqual([]);
  });

  it('the near miss: a check of the title, which no key covers, lets two deliveries both create', async () => {
    const { findings } = await lintProject(
      project('{ title: dto.chat.title }', '{ members: [], title: dto.chat.title, kind: "customer" }'),
    );
    expect(findings).toEqual([
      'src/chats/consumers/first-message.consumer.ts:13 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });
});

describe('a model injected by the name its schema module exports', () => {
  const schema = (options: string) => `
import { Schema } from 'mongoose';

export const MediaTaskSchemaName: string = 'MediaTask';
export const MediaTaskSchema: Schema = new Schema({ mediaId: String, url: String, tries: Number })
  .index({ tries: 1 })
  .index({ mediaId: 1, url: 1 }${options});
`;
  const service = `
import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { Model } from 'mongoose';
import { MediaTaskSchemaName } from '../schemas';

@Injectable()
export class MediaTaskService {
  constructor(@InjectModel(MediaTaskSchemaName) private readonly taskModel: Model<any>) {}

  public async create(mediaId: string, url: string): Promise<void> {
    try {
      await this.taskModel.create({ mediaId, url, tries: 0 });
    } catch (err) {
      if (err.code === 11000) return;
      throw err;
    }
  }
}
`;
  const project = (options: string) => ({
    'src/media/schemas/media-task.schema.ts': schema(options),
    // Another model, whose name the field's own name would suggest.
    'src/media/schemas/task.schema.ts':
      "import { Schema } from 'mongoose';\nexport const TaskSchema = new Schema({ name: String });\n",
    'src/media/schemas/index.ts': "export * from './media-task.schema';\nexport * from './task.schema';\n",
    'src/media/services/media-task.service.ts': service,
    'src/media/media.controller.ts': `
import { MediaTaskService } from './services/media-task.service';
export class MediaController {
  constructor(private readonly tasks: MediaTaskService) {}
  add(body: { mediaId: string; url: string }) { return this.tasks.create(body.mediaId, body.url); }
}
`,
  });

  it("reads the schema of the model the decorator names, not the field's name: its unique index settles the caught duplicate", async () => {
    const { findings } = await lintProject(project(', { unique: true }'));
    expect(findings).toEqual([]);
  });

  it('the near miss: the same index, not unique, lets the duplicate in', async () => {
    const { findings } = await lintProject(project(''));
    expect(findings).toEqual([
      'src/media/services/media-task.service.ts:13 idempotency/no-claim-without-unique-key/caughtNoKey',
    ]);
  });
});

describe('a method nothing in the project calls', () => {
  const service = (decorator = '') => `
import Stripe from 'stripe';
import { randomUUID } from 'node:crypto';

export class RefundService {
  constructor(private readonly stripe: Stripe) {}

  ${decorator}async refundCharge(charge: string, cents: number) {
    return this.stripe.refunds.create({ charge, amount: cents }, { idempotencyKey: randomUUID() });
  }
}
`;
  const route = `
import { RefundService } from '../payments/refund.service';

export async function refund(request, service: RefundService) {
  return service.refundCharge(request.body.charge, request.body.cents);
}
`;
  const finding = 'src/payments/refund.service.ts:9 idempotency/no-delivery-id-effect-key/mintedKey';

  it('has nothing to repeat: its finding waits until something calls it, and a test calling it is not enough', async () => {
    const { findings } = await lintProject({
      'src/payments/refund.service.ts': service(),
      'test/refund.service.test.ts': `import { RefundService } from '../src/payments/refund.service';\nawait new RefundService(stripe).refundCharge('ch_1', 100);\n`,
    });
    expect(findings).toEqual([]);
  });

  it('the near miss: a route of another module calls it', async () => {
    const { findings } = await lintProject({
      'src/payments/refund.service.ts': service(),
      'src/routes/refund.ts': route,
    });
    expect(findings).toEqual([finding]);
  });

  const withRefundAll = service().replace(
    '\n}\n',
    '\n  async refundAll(charges: string[]) {\n    for (const charge of charges) await this.refundCharge(charge, 100);\n  }\n}\n',
  );

  it('the near miss: another method of its class calls it, which a route calls', async () => {
    const { findings } = await lintProject({
      'src/payments/refund.service.ts': withRefundAll,
      'src/routes/refund-all.ts': `import { RefundService } from '../payments/refund.service';\nexport const refundAll = (request, service: RefundService) => service.refundAll(request.body.charges);\n`,
    });
    expect(findings).toEqual([finding]);
  });

  it('the near miss: a class no other module mentions, whose methods call each other, may be found by a framework or not wired yet', async () => {
    const { findings } = await lintProject({ 'src/payments/refund.service.ts': withRefundAll });
    expect(findings).toEqual([finding]);
  });

  it('a class the project turned off has nothing to repeat, however its methods call each other: its import is commented out', async () => {
    const { findings } = await lintProject({
      'src/payments/refund.service.ts': withRefundAll,
      'src/payments/index.ts': `export * from './refund.service';\n`,
      'src/main.ts': `import {\n  // RefundService, // disabled: refunds moved to the billing service\n  start,\n} from './server';\nstart();\n`,
    });
    expect(findings).toEqual([]);
  });

  it('the near miss: a framework calls it, as its decorator says', async () => {
    const { findings } = await lintProject({ 'src/payments/refund.service.ts': service("@Post('refunds')\n  ") });
    expect(findings).toEqual(['src/payments/refund.service.ts:10 idempotency/no-delivery-id-effect-key/mintedKey']);
  });

  it('the near miss: a published package offers it to code outside the project', async () => {
    const { findings } = await lintProject({
      'package.json': JSON.stringify({ name: 'refunds-sdk', type: 'module', files: ['dist'] }),
      'src/payments/refund.service.ts': service(),
    });
    expect(findings).toEqual([finding]);
  });
});

describe("code in a jobs' folder that the project's routes call", () => {
  const restore = `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();

export async function restoreLabels(names: string[]) {
  for (const name of names) {
    const found = await prisma.label.findFirst({ where: { name } });
    if (!found) await prisma.label.create({ data: { name } });
  }
}
`;
  const caller = (call: string) => `
import { restoreLabels } from '../jobs/backup';

export async function restore(request) {
  ${call}
}
`;
  const finding = 'src/jobs/backup.ts:8 idempotency/no-check-then-insert/checkThenInsert';

  it('runs per request where a route enters it: the folder does not make it a job', async () => {
    const { findings } = await lintProject({
      'src/jobs/backup.ts': restore,
      'src/routes/backup.ts': caller('return restoreLabels(request.body.names);'),
    });
    expect(findings).toEqual([]);
  });

  it('the near miss: nothing in the project calls it, so the folder is the evidence left', async () => {
    const { findings } = await lintProject({ 'src/jobs/backup.ts': restore });
    expect(findings).toEqual([finding]);
  });

  it("the near miss: a module of the workers' folder calls it", async () => {
    const { findings } = await lintProject({
      'src/jobs/backup.ts': restore,
      'src/workers/backup.ts': caller('return restoreLabels(request.names);'),
    });
    expect(findings).toEqual([finding]);
  });

  it('the near miss: a module hands it on as a value, to a scheduler out of sight', async () => {
    const { findings } = await lintProject({
      'src/jobs/backup.ts': restore,
      'src/routes/backup.ts': caller('return restoreLabels(request.body.names);'),
      'src/main.ts': `import { restoreLabels } from './jobs/backup';\nschedule('0 3 * * *', restoreLabels);\n`,
    });
    expect(findings).toEqual([finding]);
  });
});

describe("memory a webhook's route asks through helpers of other modules", () => {
  const project = (routePath: string) => ({
    'src/lib/config.ts': 'export const processedWebhooks = new Map<string, number>();\n',
    'src/webhooks/dedupe.ts': `
import { processedWebhooks } from '../lib/config';

export function isWebhookProcessed(id: string): boolean {
  const at = processedWebhooks.get(id);
  if (!at) return false;
  return true;
}

export function markWebhookProcessed(id: string): void {
  processedWebhooks.set(id, Date.now());
}
`,
    'src/lib/messenger.ts': `
class Messenger {
  async notifyOrder(order: { id: string }) {
    return this.sendMessage(\`order \${order.id} paid\`);
  }
  private async sendMessage(text: string) {
    await fetch('https://chat.example.com/send', { method: 'POST', body: text });
  }
}
export const messenger = new Messenger();
`,
    'src/events/process.ts': `
import { messenger } from '../lib/messenger';

async function processOrder(event: { order: { id: string } }) {
  await messenger.notifyOrder(event.order);
}

export async function processWebhook(event: { type: string; order: { id: string } }) {
  if (event.type === 'order.paid') await processOrder(event);
}
`,
    [routePath]: `
import { isWebhookProcessed, markWebhookProcessed } from '../../../../src/webhooks/dedupe';
import { processWebhook } from '../../../../src/events/process';

export async function POST(request: Request) {
  const event = await request.json();
  if (isWebhookProcessed(event.id)) return Response.json({ ok: true });
  await processWebhook(event);
  markWebhookProcessed(event.id);
  return Response.json({ ok: true });
}
`,
  });

  it('is reported where the helper asks it: the notice three calls away is sent again after a restart', async () => {
    const { findings } = await lintProject(project('app/api/webhooks/orders/route.ts'));
    expect(findings).toEqual(['src/webhooks/dedupe.ts:5 idempotency/no-in-memory-dedupe/inMemory']);
  });

  it("the near miss: the webhooks' helpers called only from a route that handles no deliveries", async () => {
    const { findings } = await lintProject(project('app/api/orders/paid/route.ts'));
    expect(findings).toEqual([]);
  });
});

describe('a CommonJS module that imports no library, read with the one its package depends on', () => {
  /** A cron that copies missions from an API by their MongoDB `_id`; `row` is what it stores for a mission `t`. */
  const cron = (row: string) => `
const { MissionModel } = require('../models');
exports.handler = async () => {
  const result = await (await fetch('https://api.example.org/missions')).json();
  for (let i = 0; i < result.data.length; i++) {
    const t = result.data[i];
    const found = await MissionModel.findById(t._id);
    if (!found) await MissionModel.create(${row});
  }
};
`;
  const project = (dependency: string, row: string) =>
    lintProject({
      'package.json': JSON.stringify({ name: 'api', private: true, dependencies: { [dependency]: '*' } }),
      'src/models.js':
        "const mongoose = require('mongoose');\nconst missionSchema = new mongoose.Schema({ title: String });\nexports.MissionModel = mongoose.model('Mission', missionSchema);\n",
      'src/crons/missions.js': cron(row),
    });

  it('is silent when a Mongoose package stores the document whose _id it looked up: the _id settles it', async () => {
    expect((await project('mongoose', 't')).findings).toEqual([]);
  });

  it('is reported when the package uses another store, whose rows have no _id of their own', async () => {
    expect((await project('typeorm', 't')).findings).toEqual([
      'src/crons/missions.js:8 idempotency/no-check-then-insert/checkThenInsert',
    ]);
  });
});

/** A helper of its own module, called by the handlers of other modules: its runners are theirs. */
describe('a check-then-insert in a helper that handlers in other modules call', () => {
  const helper = `
import { prisma } from './db';
export async function createTask(dealId: string, title: string) {
  const open = await prisma.task.findFirst({ where: { dealId, title } });
  if (open) return open;
  return prisma.task.create({ data: { dealId, title } });
}
`;
  const db = `import { PrismaClient } from '@prisma/client';\nexport const prisma = new PrismaClient();\n`;
  const inngestFunction = `
import { inngest } from './client';
import { createTask } from './tasks';
export const followUp = inngest.createFunction({ id: 'follow-up' }, { event: 'deal/stage.changed' }, async ({ event, step }) => {
  await step.run('task', () => createTask(event.data.dealId, 'Call back'));
});
`;
  const bullWorker = `
import { Worker } from 'bullmq';
import { createTask } from './tasks';
new Worker('renewals', async (job) => {
  await createTask(job.data.dealId, 'Renewal');
});
`;

  it('called only by an Inngest function, which retries a step after its try: not reported', async () => {
    const { findings } = await lintProject({
      'src/db.ts': db,
      'src/tasks.ts': helper,
      'src/follow-up.ts': inngestFunction,
    });
    expect(findings).toEqual([]);
  });

  it('the near miss: a BullMQ worker calls it too, and a stalled job runs beside its first run', async () => {
    const { findings } = await lintProject({
      'src/db.ts': db,
      'src/tasks.ts': helper,
      'src/follow-up.ts': inngestFunction,
      'src/renewals.ts': bullWorker,
    });
    expect(findings).toEqual(['src/tasks.ts:6 idempotency/no-check-then-insert/checkThenInsert']);
  });
});
