import { noCheckThenInsert } from '../../../eslint-plugin/src/rules/no-check-then-insert/index.js';
import { ruleTester } from '../rule-tester.js';

const dynamoRemedy =
  "a put with ConditionExpression 'attribute_not_exists(<key>)', treating ConditionalCheckFailedException as the duplicate";

const firestoreRemedy =
  'doc(<key>).create(data) and treat ALREADY_EXISTS (code 6) as the duplicate, or check and write inside runTransaction';

/** A state made for a project when a look for it finds none. */
const addState = `
  import { PrismaClient } from '@prisma/client';
  const prisma = new PrismaClient();
  export async function addState(projectId, name) {
    const existing = await prisma.maintenanceState.findFirst({ where: { projectId, name } });
    if (existing) return;
    return prisma.maintenanceState.create({ data: { projectId, name } });
  }`;

/** Saves a workflow's webhook when it has none: the table a route in `webhooks/` writes. */
const saveWebhook = (table: string) => `
  import { PrismaClient } from '@prisma/client';
  const prisma = new PrismaClient();
  export async function POST(request: Request) {
    const { workflowId, path } = await request.json();
    const existing = await prisma.${table}.findFirst({ where: { workflowId, path } });
    if (existing) return Response.json(existing);
    return Response.json(await prisma.${table}.create({ data: { workflowId, path } }));
  }`;

/**
 * A sweep that raises an alert per breached rule, found by a look: `lock` is what the schedule's
 * callback does before it calls the helper, `exported` how the helper is declared.
 */
const sweep = (lock: string, exported = '') => `
  import cron from 'node-cron';
  import { Mutex, Semaphore } from 'redis-semaphore';
  const prisma = new PrismaClient();
  ${exported}async function raiseAlert(rule) {
    const open = await prisma.alert.findFirst({ where: { ruleId: rule.id } });
    if (open) return;
    await prisma.alert.create({ data: { ruleId: rule.id } });
    await page(rule);
  }
  async function evaluate(rule) {
    if (breached(rule)) await raiseAlert(rule);
  }
  cron.schedule('* * * * *', async () => {
    ${lock}
    for (const rule of await rules()) await evaluate(rule);
  });`;

/** An order's item added when missing, after a helper of the module reads the order (`lock`: how it reads it). */
const orderItemAfter = (helper: string, lock: string) => `
  async function ${helper}(trx, orderId) {
    const order = await trx('orders').where({ id: orderId })${lock}.first();
    if (!order) throw new Error('no such order');
    return order;
  }
  export async function addItem(db, orderId, sku) {
    return db.transaction(async (trx) => {
      await ${helper}(trx, orderId);
      const found = await trx('order_items').where({ order_id: orderId, sku }).first();
      if (!found) await trx('order_items').insert({ order_id: orderId, sku });
    });
  }`;

/** A reconciler run every second that takes a bucket, then makes its domain when missing; `claim` is how it takes the bucket. */
const reconciler = (claim: string) => `
  import { Cron } from '@nestjs/schedule';
  import { MongoClient } from 'mongodb';
  const db = new MongoClient(url).db();
  export class BucketTask {
    @Cron('* * * * * *')
    async tick(doc) {
      ${claim}
      const domain = await db.collection('BucketDomain').findOne({ bucket: doc.name });
      if (!domain) await db.collection('BucketDomain').insertOne({ bucket: doc.name });
    }
  }`;
const lease = `const res = await db.collection('Bucket').findOneAndUpdate({ _id: doc._id, lockedAt: { $lt: new Date(Date.now() - 15000) } }, { $set: { lockedAt: new Date() } });`;

/** A helper that stores the time of an agent's last report under its key; `compare` is what it does with a time found. */
const lastSeen = (compare: string) => `
  import Redis from 'ioredis';
  const redis = new Redis();
  export async function shouldSaveLastAlive(agentId) {
    const last = await redis.get(\`agent-alive:\${agentId}\`);
    if (!last) {
      await redis.set(\`agent-alive:\${agentId}\`, String(Date.now()));
      return true;
    }
    ${compare}
  }`;

/** An enrichment job that caches whether the provider has credits left: `whenTrue` and `whenFalse` are what it stores. */
const creditsCache = (whenTrue: string, whenFalse: string) => `
  import Redis from 'ioredis';
  import { Worker } from 'bullmq';
  const redis = new Redis();
  async function setHasCredits(has) {
    if (has) await redis.set('hasRemainingCredits', '${whenTrue}', 'EX', 60);
    else await redis.set('hasRemainingCredits', '${whenFalse}', 'EX', 60);
  }
  export const worker = new Worker('enrich', async (job) => {
    const cached = await redis.get('hasRemainingCredits');
    if (cached !== null) return;
    await setHasCredits(await provider.hasRemainingCredits());
    await enrich(job.data.memberId);
  });`;

/** A job that refreshes a collection's royalties at most once an hour, under a Redis key named `name`. */
const hourlyLock = (name: string, work = 'fetchRoyalties') => `
  import Redis from 'ioredis';
  import { Worker } from 'bullmq';
  const redis = new Redis();
  export const worker = new Worker('collections', async (job) => {
    const lockKey = \`${name}:\${job.data.collection}\`;
    if (await redis.get(lockKey)) return;
    await redis.set(lockKey, 'locked', 'EX', 3600);
    await ${work}(job.data.collection);
  });`;

/** A job that marks each token for an hour, then does `work` with it. */
const markedTokens = (work: string) => `
  import Redis from 'ioredis';
  import { Worker } from 'bullmq';
  const redis = new Redis();
  export const worker = new Worker('balances', async (job) => {
    const found = [];
    for (const token of job.data.tokens) {
      const key = \`recount:\${token}\`;
      if (await redis.get(key)) continue;
      await redis.set(key, 'locked', 'EX', 3600);
      ${work};
    }
    return found;
  });`;

/** A job that marks a collection for an hour, then runs a helper of the file whose write is `write`. */
const markedRefresh = (write: string) => `
  import Redis from 'ioredis';
  import { Worker } from 'bullmq';
  const redis = new Redis();
  async function updateRoyalties(collection) {
    const fees = await fetchFees(collection);
    ${write}
  }
  export const worker = new Worker('collections', async (job) => {
    const key = \`royalties:\${job.data.collection}\`;
    if (await redis.get(key)) return;
    await redis.set(key, '1', 'EX', 3600);
    await updateRoyalties(job.data.collection);
  });`;

/** A method that sets a payment method mapping when none exists: a command an operator types, or an HTTP route. */
const paymentMapping = (as: 'command' | 'route') => `
        import { Injectable } from '@nestjs/common';
        ${as === 'command' ? "import { Command } from '@acme/nest-kit';" : "import { Post } from '@nestjs/common';"}
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        @Injectable()
        export class SetPaymentMappingCommand {
          ${as === 'command' ? "@Command({ command: 'payments:mapping:set', describe: 'Records a payment transfer' })" : "@Post('mappings')"}
          async run(from: string, to: string, businessId: string) {
            const existing = await prisma.paymentTransfer.findFirst({ where: { from, to, businessId } });
            if (existing) return;
            await prisma.paymentTransfer.create({ data: { from, to, businessId } });
          }
        }`;

const weeklyPayout = `
        import { task } from '@trigger.dev/sdk/v3';
        const prisma = new PrismaClient();
        export const payout = task({
          id: 'weekly-payout',
          run: async ({ creatorId, week }) => {
            const paid = await prisma.payout.findFirst({ where: { creatorId, week } });
            if (paid) return;
            await prisma.payout.create({ data: { creatorId, week, amount: await earnings(creatorId, week) } });
          },
        });`;

const dispenseWithEndDate = `
        import { Worker } from 'bullmq';
        const prisma = new PrismaClient();
        new Worker('dispense', async (job) => {
          const open = await prisma.encounter.findFirst({ where: { patientId: job.data.patientId, endDate: null } });
          if (open) return;
          await prisma.encounter.create({ data: { patientId: job.data.patientId, endDate: job.data.endDate } });
        });`;

const bullDigest = `
        import { Worker } from 'bullmq';
        const prisma = new PrismaClient();
        export const worker = new Worker('digest', async (job) => {
          const sent = await prisma.digest.findFirst({ where: { day: job.data.day } });
          if (sent) return;
          await prisma.digest.create({ data: { day: job.data.day } });
        });`;

/** `code` with the statement `line` wrapped in a try whose catch takes P2002 as the duplicate. */
function caughtP2002(code: string, line: string, key: string): string {
  const indent = line.match(/^ */)![0];
  return code.replace(
    line,
    [
      `${indent}try {`,
      `  ${line}`,
      `${indent}} catch (error) {`,
      `${indent}  // P2002 is the duplicate: a unique key refused the second row (add ${key}).`,
      `${indent}  if ((error as { code?: string }).code !== 'P2002') throw error;`,
      `${indent}}`,
    ].join('\n'),
  );
}

ruleTester.run('no-check-then-insert', noCheckThenInsert, {
  valid: [
    {
      name: 'a check for an open encounter (endDate null) before one is written closed (endDate set): the check never finds the row it decides',
      code: `
        import { Worker } from 'bullmq';
        const prisma = new PrismaClient();
        new Worker('dispense', async (job) => {
          const now = new Date().toISOString();
          const open = await prisma.encounter.findFirst({ where: { patientId: job.data.patientId, endDate: null } });
          if (open) return;
          await prisma.encounter.create({ data: { patientId: job.data.patientId, startDate: now, endDate: now } });
        });`,
    },
    {
      name: 'a trigger.dev task holds its run: a retry comes after the try, finds the row, and only different runs at once could both write a plain row',
      code: `
        import { task } from '@trigger.dev/sdk/v3';
        const prisma = new PrismaClient();
        export const digest = task({
          id: 'daily-digest',
          run: async ({ day }) => {
            const sent = await prisma.digest.findFirst({ where: { day } });
            if (sent) return;
            await prisma.digest.create({ data: { day } });
            return { sent: true };
          },
        });`,
    },
    {
      name: 'an Inngest step holds its run too: a task per deal and title, made when missing',
      code: `
        import { inngest } from './client';
        const prisma = new PrismaClient();
        export const followUp = inngest.createFunction({ id: 'follow-up' }, { event: 'deal/stage.changed' }, async ({ event, step }) => {
          await step.run('task', async () => {
            const open = await prisma.task.findFirst({ where: { dealId: event.data.dealId, title: 'Call back' } });
            if (open) return;
            await prisma.task.create({ data: { dealId: event.data.dealId, title: 'Call back' } });
          });
        });`,
    },
    {
      name: 'a graphile-worker task (its helpers typed JobHelpers) holds its job: a notification row made when missing',
      code: `
        import type { JobHelpers } from 'graphile-worker';
        const prisma = new PrismaClient();
        export async function notify(payload: { userId: string; threadId: string }, helpers: JobHelpers) {
          const pending = await prisma.notification.findFirst({ where: { userId: payload.userId, threadId: payload.threadId } });
          if (pending) return;
          await prisma.notification.create({ data: { userId: payload.userId, threadId: payload.threadId } });
        }`,
    },
    {
      name: "a user's follow, created when missing and posted to the other site: a second post is that user's own doing",
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function follow(accountId, siteUrl) {
          const existing = await prisma.follow.findFirst({ where: { accountId, siteUrl } });
          if (existing) return existing;
          const created = await prisma.follow.create({ data: { accountId, siteUrl } });
          await fetch(siteUrl + '/api/follow-from', { method: 'POST', body: JSON.stringify({ accountId }) });
          return created;
        }`,
    },
    {
      name: 'a marker before a refresh whose only write is a Redis SET: a second pass overwrites the same key, it adds no copy',
      code: markedRefresh(`await redis.set(\`fees:\${collection}\`, JSON.stringify(fees));`),
    },
    {
      name: 'a cache of a yes or no: the same key given another constant beside it stores what was found, not a marker',
      code: creditsCache('true', 'false'),
    },
    {
      name: 'a lock named for the refresh it spaces out: a rate limit on the work, not a claim of the delivery',
      code: hourlyLock('royalties-refresh-lock'),
    },
    {
      name: 'a marker before work that stays in memory (a push into an array the function made): nothing outlives the pass',
      code: markedTokens('found.push(token)'),
    },
    {
      name: 'a lock named for nothing but itself before work that only asks (a fetch): a second pass asks again, and nothing is added',
      code: hourlyLock('royalties-lock'),
    },
    {
      name: "a throttle: the stored time is read back and compared, state rather than a marker, and its callers' work is out of sight",
      code: lastSeen(`if (Date.now() - Number(last) < 30_000) return false;
    await redis.set(\`agent-alive:\${agentId}\`, String(Date.now()));
    return true;`),
    },
    {
      name: 'a cache: the stored time is handed back to the caller, a value rather than a marker of work done',
      code: lastSeen('return { seen: true, lastSeenAt: last };'),
    },
    {
      name: 'a sweep that takes a Redis mutex before it calls the helper that looks and creates: the runs are serialised',
      code: sweep(`const mutex = new Mutex(redis, 'sweep'); await mutex.acquire();`),
    },
    {
      name: "a job's look and create run as the work of a Redlock lock on the rule",
      code: `
        import Redlock from 'redlock';
        import { Worker } from 'bullmq';
        const redlock = new Redlock([redis]);
        const prisma = new PrismaClient();
        export const worker = new Worker('alerts', async (job) => {
          await redlock.using([\`rule:\${job.data.ruleId}\`], 5000, async () => {
            const open = await prisma.alert.findFirst({ where: { ruleId: job.data.ruleId } });
            if (open) return;
            await prisma.alert.create({ data: { ruleId: job.data.ruleId } });
          });
        });`,
    },
    {
      name: 'a lazy singleton of default settings outside any delivery: a second default row moves no money and grants nothing',
      code: `
        import { db } from '../db';
        import { webServerSettings } from '../db/schema';
        export const getWebServerSettings = async () => {
          const settings = await db.query.webServerSettings.findFirst({ orderBy: (s, { asc }) => [asc(s.createdAt)] });
          if (!settings) {
            const [created] = await db.insert(webServerSettings).values({}).returning();
            return created;
          }
          return settings;
        };`,
    },
    {
      name: "a lazy singleton of a platform's wallet outside any delivery: the check asks for any row, made once per deployment",
      code: `
        export async function platformWallet() {
          let wallet = await prisma.platformWallet.findFirst();
          if (!wallet) wallet = await prisma.platformWallet.create({ data: { currentBalance: 0 } });
          return wallet;
        }`,
    },
    {
      name: "a merchant's wallet made lazily outside any delivery: a wallet holds money, and a second one moves none",
      code: `
        export async function merchantWallet(merchantId) {
          let wallet = await prisma.merchantWallet.findFirst({ where: { merchantId } });
          if (!wallet) wallet = await prisma.merchantWallet.create({ data: { merchantId } });
          return wallet;
        }`,
    },
    {
      name: "near miss of a schedule: another library's schedule(), in a file that does not import node-cron",
      code: `
        const prisma = new PrismaClient();
        scheduler.schedule('0 6 * * *', async () => {
          const day = today();
          const sent = await prisma.digest.findFirst({ where: { day } });
          if (sent) return;
          await prisma.digest.create({ data: { day } });
        });`,
    },
    {
      name: 'near miss of a schedule: the same helper, in a file that does not import node-cron, called from a callback of another scheduler',
      code: `
        async function sendDigest(day) {
          const sent = await prisma.digest.findFirst({ where: { day } });
          if (sent) return;
          await prisma.digest.create({ data: { day } });
          await log(day);
        }
        scheduler.schedule('0 6 * * *', () => sendDigest(today()));`,
    },
    {
      name: 'near miss of a NestJS schedule: a @Timeout method runs once after start-up, nothing repeats it',
      code: `
        import { Timeout } from '@nestjs/schedule';
        export class Digests {
          @Timeout(5000)
          async firstDigest() {
            const day = today();
          const sent = await prisma.digest.findFirst({ where: { day } });
          if (sent) return;
          await prisma.digest.create({ data: { day } });
          }
        }`,
    },
    {
      name: "an admin's settings form saved by find, then update or insert, then a local reconfiguration: nothing repeats it and nothing is at stake",
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function saveForwardAuth(input) {
          const existing = await prisma.forwardAuthSettings.findFirst({ where: { serverId: input.serverId } });
          if (existing) {
            await prisma.forwardAuthSettings.update({ where: { id: existing.id }, data: { domain: input.domain } });
          } else {
            await prisma.forwardAuthSettings.create({ data: { serverId: input.serverId, domain: input.domain } });
          }
          await writeProxyConfig(input.serverId, input.domain);
        }`,
    },
    {
      name: 'the near miss of a booking that charges: the same form with nothing after the insert moves no money',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function book(slotId, userId) {
          const taken = await prisma.booking.findFirst({ where: { slotId } });
          if (taken) throw new Error('slot taken');
          await prisma.booking.create({ data: { slotId, userId } });
        }`,
    },
    {
      name: "the near miss of a queue's processor: the same class outside the project's queues, workers and webhooks is no delivery's handler",
      filename: 'server/services/backlinks.ts',
      code: `
        export default class BacklinksProcessor extends BaseProcessor {
          async perform(event) {
            const existing = await Relationship.findOne({ where: { documentId: event.documentId, targetId: event.targetId } });
            if (!existing) await Relationship.create({ documentId: event.documentId, targetId: event.targetId });
          }
        }`,
    },
    {
      name: 'an invitation form that emails the invitee after the insert: a second email is a nuisance, not money or access',
      code: `
        import { PrismaClient } from '@prisma/client';
        import nodemailer from 'nodemailer';
        const prisma = new PrismaClient();
        const transporter = nodemailer.createTransport({});
        export async function invite(organizationId, email) {
          const pending = await prisma.invitation.findFirst({ where: { organizationId, email } });
          if (pending) throw new Error('already invited');
          const created = await prisma.invitation.create({ data: { organizationId, email } });
          await transporter.sendMail({ to: email, subject: 'Join us', text: created.id });
          return created;
        }`,
    },
    {
      name: 'a helper that answers with the state of the row it found, not whether it found one, decides nothing about the insert',
      code: `
        async function isActive(email) {
          const rows = await db.query('SELECT status FROM users WHERE email = $1', [email]);
          return rows.rows[0]?.status === 'active';
        }
        async function register(email) {
          if (await isActive(email)) return;
          await db.query('INSERT INTO users (email) VALUES ($1)', [email]);
        }`,
    },
    {
      name: 'an HSET of an object that parks state is a cache fill, not a claim',
      code: `
        import { Redis } from '@upstash/redis';
        async function park(redis, token, event) {
          const clickId = await redis.hget('checkout:' + token, 'clickId');
          if (clickId) return;
          await redis.hset('checkout:' + token, { order: event });
        }`,
    },
    {
      name: "a comparison of the found row's state is no existence check",
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        async function duplicate(id, asTemplate) {
          const envelope = await prisma.envelope.findFirst({ where: { id } });
          if (!envelope) throw new Error('not found');
          if (asTemplate && envelope.type !== 'DOCUMENT') throw new Error('only documents');
          await prisma.envelope.create({ data: { id: newId(), title: envelope.title } });
        }`,
    },
    {
      name: "the unique violation recognised by its constraint's name",
      code: `
        async function acquire(key) {
          const row = await loadLock(key);
          const { rows } = await manager.execute('SELECT id FROM locking WHERE id = ?', [key]);
          if (rows.length === 0) {
            try {
              await manager.execute('INSERT INTO locking (id, owner_id) VALUES (?, ?)', [key, owner]);
            } catch (err) {
              if (!err.toString().includes('locking_pkey')) throw err;
            }
          }
        }`,
    },
    {
      name: 'a read of the source row, then a new row with a fresh id: the read never looked for the inserted row',
      code: `
        async function duplicate(sourceId) {
          const copy = await prisma.envelope.findFirst({ where: { id: sourceId } });
          if (!copy) await prisma.envelope.create({ data: { id: nanoid(), title: 'Untitled' } });
        }`,
    },
    {
      name: 'a read on columns the insert does not write decides nothing about a duplicate of it',
      code: `
        async function token(clientId, userId) {
          const { rows } = await pool.query('SELECT 1 FROM clients WHERE client_id = $1', [clientId]);
          if (rows.length > 0) return;
          await pool.query('INSERT INTO clients (owner_id, scope) VALUES ($1, $2)', [userId, 'read']);
        }`,
    },
    {
      name: 'a cache fill: GET missed, the value is computed and stored with an expiry',
      code: `
        import Redis from 'ioredis';
        async function projectConfig(redis, id) {
          const cached = await redis.get(\`project:\${id}\`);
          if (cached) return JSON.parse(cached);
          const config = await loadConfig(id);
          await redis.set(\`project:\${id}\`, JSON.stringify(config), 'EX', 300);
          return config;
        }`,
    },
    {
      name: 'the near miss of a team member who names the user: in a data migration, run once by hand, nothing repeats it',
      filename: 'saas-migrations/commands/migrateChannels.ts',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function join(organizationId, userId) {
          const existing = await prisma.teamMember.findFirst({ where: { organizationId, userId } });
          if (existing) return existing;
          return prisma.teamMember.create({ data: { organizationId, userId } });
        }`,
    },
    {
      name: 'a command an operator types (its decorator, re-exported by a kit of the team) runs once, by hand: nothing repeats it',
      filename: 'src/common/commands/set-payment-mapping.command.ts',
      code: paymentMapping('command'),
    },
    {
      name: "a day's visit counter made when missing: a total of visits is a count, not money",
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function visit(formId, day) {
          const found = await prisma.formAnalytic.findFirst({ where: { formId, day } });
          if (found) return prisma.formAnalytic.update({ where: { id: found.id }, data: { totalVisits: { increment: 1 } } });
          return prisma.formAnalytic.create({ data: { formId, day, totalVisits: 1 } });
        }`,
    },
    {
      name: 'a cache of processed entries filled when missing, outside a delivery: a second row is a second copy of a result, not a second handling',
      code: `
        export async function relabel(trx, nodeHash, entryId, output) {
          const cached = await trx('cached_processed_entries').where({ node_hash: nodeHash, entry_id: entryId }).first();
          if (cached) return trx('cached_processed_entries').where({ id: cached.id }).update({ output });
          await trx('cached_processed_entries').insert({ node_hash: nodeHash, entry_id: entryId, output });
        }`,
    },
    {
      name: 'a stock count opened when none is: the expected quantities it snapshots count goods, not money',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function startCount(locationId, serviceId, onHand) {
          const open = await prisma.countLine.findFirst({ where: { locationId, serviceId } });
          if (open) throw new Error('already counting');
          return prisma.countLine.create({ data: { locationId, serviceId, expectedQty: onHand } });
        }`,
    },
    {
      name: "a product made when missing, with its price: a catalogue's entry moves no money",
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function productFor(code) {
          const found = await prisma.product.findFirst({ where: { code } });
          if (found) return found;
          return prisma.product.create({ data: { code, name: code, unitPrice: 0 } });
        }`,
    },
    {
      name: "an artist's default subscription tier made when missing, with its minimum amount: a tier is on offer, a catalogue's entry",
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function defaultTier(profileId) {
          const tier = await prisma.profileSubscriptionTier.findFirst({ where: { profileId, isDefaultTier: true } });
          if (tier) return tier;
          return prisma.profileSubscriptionTier.create({ data: { profileId, name: 'follow', minAmount: 0, isDefaultTier: true } });
        }`,
    },
    {
      name: 'a coupon made when missing for an amount off: an offer on the catalogue moves no money until it is redeemed',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function creditCoupon(productId, amountDiscount) {
          const found = await prisma.coupon.findFirst({ where: { productId, amountDiscount } });
          if (found) return found;
          return prisma.coupon.create({ data: { productId, amountDiscount, maxUses: -1 } });
        }`,
    },
    {
      name: 'a cache fill of a constant chosen by what was computed: SET 1 or 0 after resolving',
      code: `
        import Redis from 'ioredis';
        const redis = new Redis();
        export async function hasMx(domain) {
          const cached = await redis.get(\`mx:\${domain}\`);
          if (cached !== null) return cached === '1';
          const found = (await resolveMx(domain)).length > 0;
          await redis.set(\`mx:\${domain}\`, found ? '1' : '0', 'EX', 3600);
          return found;
        }`,
    },
    {
      name: 'a cache fill of an object the code builds up, stringified',
      code: `
        import Redis from 'ioredis';
        const redis = new Redis();
        export async function actionsOf(user) {
          const cached = await redis.get(\`actions:\${user.id}\`);
          if (cached) return JSON.parse(cached);
          const actions = {};
          for (const permission of user.permissions) actions[permission] = true;
          await redis.set(\`actions:\${user.id}\`, JSON.stringify(actions));
          return actions;
        }`,
    },
    {
      name: 'a default set when missing, the function going on either way: its callers learn nothing of the check',
      code: `
        import Redis from 'ioredis';
        const redis = new Redis();
        export async function middleware(req, res, next) {
          const hostname = await redis.get('hostname');
          if (!hostname) {
            redis.set('hostname', '1');
          }
          next();
        }`,
    },
    {
      name: 'saving an instance that was read updates it: it is not an insert',
      code: `
        import { Model } from 'sequelize';
        async function run(id) {
          const importModel = await Import.findByPk(id);
          if (importModel.state !== 'created') return;
          importModel.state = 'processing';
          await importModel.save();
        }`,
    },
    {
      name: 'a quota: a count compared with a limit decides nothing about a duplicate',
      code: `
        async function invite(teamId, email) {
          const count = await prisma.invite.count({ where: { teamId } });
          if (count >= MAX_INVITES) throw new Error('too many invites');
          await prisma.invite.create({ data: { teamId, email } });
        }`,
    },
    {
      name: 'the duplicate is recognised by a helper of the catch',
      code: `
        async function claim(id) {
          const seen = await prisma.inbox.findUnique({ where: { id } });
          if (seen) return;
          try { await prisma.inbox.create({ data: { id } }); } catch (error) { if (isDuplicateKeyError(error)) return; throw error; }
        }`,
    },
    {
      name: 'the caller catches the unique violation around the helper that inserts',
      code: `
        async function insertClaim(id) {
          await pool.query('INSERT INTO inbox (message_id) VALUES ($1)', [id]);
        }
        async function handle(id) {
          const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rows.length > 0) return;
          try {
            await insertClaim(id);
          } catch (error) {
            if (error.code === '23505') return;
            throw error;
          }
        }`,
    },
    {
      name: 'the insert settles duplicates itself with ON CONFLICT',
      code: `
        async function claim(id) {
          const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rows.length > 0) return false;
          const result = await pool.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
          return result.rowCount === 1;
        }`,
    },
    {
      name: 'find then update is not an insert race',
      code: `
        async function rename(id, name) {
          const user = await prisma.user.findUnique({ where: { id } });
          if (user) await prisma.user.update({ where: { id }, data: { name } });
        }`,
    },
    {
      name: 'upsert, then read back',
      code: `
        async function ensure(id) {
          await prisma.account.upsert({ where: { id }, create: { id }, update: {} });
          return prisma.account.findUnique({ where: { id } });
        }`,
    },
    {
      name: 'the unique violation is caught as the duplicate case',
      code: `
        async function claim(id) {
          const { rowCount } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rowCount) return;
          try {
            await pool.query('INSERT INTO inbox (message_id) VALUES ($1)', [id]);
          } catch (error) {
            if (error.code === '23505') return;
            throw error;
          }
        }`,
    },
    {
      name: 'TypeORM: the repaired save, its QueryFailedError 23505 or ER_DUP_ENTRY caught as the duplicate',
      filename: 'src/workers/ledger.ts',
      code: `
        import { Repository, QueryFailedError } from 'typeorm';
        export async function book(ledgerRepository: Repository<LedgerEntry>, invoiceId: string, accountId: string) {
          const found = await ledgerRepository.findOneBy({ invoiceId, accountId });
          if (!found) {
            try {
              await ledgerRepository.save({ invoiceId, accountId, cents: 100 });
            } catch (error) {
              if (!(error instanceof QueryFailedError) || !['23505', 'ER_DUP_ENTRY'].includes((error.driverError as { code?: string }).code ?? '')) throw error;
            }
          }
        }`,
    },
    {
      name: 'Prisma P2002 handled around the create',
      code: `
        async function claim(id) {
          const seen = await prisma.inbox.findUnique({ where: { id } });
          if (seen) return;
          try { await prisma.inbox.create({ data: { id } }); } catch (e) { if (e.code !== 'P2002') throw e; }
        }`,
    },
    {
      name: 'an advisory lock taken first serialises the workers',
      code: `
        async function claim(client, id) {
          await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [id]);
          const { rows } = await client.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rows.length === 0) await client.query('INSERT INTO inbox (message_id) VALUES ($1)', [id]);
        }`,
    },
    {
      name: 'an advisory lock in a tagged template, its key a value the tag binds (not text pasted into the SQL)',
      code: `
        import { sql } from 'drizzle-orm';
        export async function provision(db, member, organizationId, userId) {
          const lockKey = \`sso:\${organizationId}:\${userId}\`;
          return db.transaction(async (tx) => {
            await tx.execute(sql\`SELECT pg_advisory_xact_lock(hashtextextended(\${lockKey}, 0))\`);
            const existing = await tx.query.member.findFirst({ where: { organizationId, userId } });
            if (existing) return existing;
            await tx.insert(member).values({ organizationId, userId });
          });
        }`,
    },
    {
      name: 'double-checked locking: look, take an advisory lock, look again, then insert',
      code: `
        async function platformWallet(client, hostId) {
          const { rows } = await client.query('SELECT id FROM wallets WHERE host_id = $1', [hostId]);
          if (rows.length > 0) return rows[0];
          await client.query('SELECT pg_advisory_xact_lock(42, $1)', [hostId]);
          const again = await client.query('SELECT id FROM wallets WHERE host_id = $1', [hostId]);
          if (again.rows.length > 0) return again.rows[0];
          await client.query('INSERT INTO wallets (host_id) VALUES ($1)', [hostId]);
        }`,
    },
    {
      name: 'double-checked locking through one helper, with the lock and the second look taken only inside a transaction',
      code: `
        const findAccount = (client, hostId) => client.query('SELECT id FROM wallets WHERE host_id = $1', [hostId]);
        async function platformWallet(client, hostId, inTransaction) {
          const { rows } = await findAccount(client, hostId);
          if (rows.length > 0) return rows[0];
          if (inTransaction) {
            await client.query('SELECT pg_advisory_xact_lock(42, $1)', [hostId]);
            const again = await findAccount(client, hostId);
            if (again.rows.length > 0) return again.rows[0];
          }
          await client.query('INSERT INTO wallets (host_id) VALUES ($1)', [hostId]);
        }`,
    },
    {
      name: 'the parent row is locked FOR UPDATE first',
      code: `
        async function addItem(client, orderId, sku) {
          await client.query('SELECT id FROM orders WHERE id = $1 FOR UPDATE', [orderId]);
          const { rows } = await client.query('SELECT 1 FROM order_items WHERE order_id = $1 AND sku = $2', [orderId, sku]);
          if (rows.length === 0) await client.query('INSERT INTO order_items (order_id, sku) VALUES ($1, $2)', [orderId, sku]);
        }`,
    },
    {
      name: "the near miss of a Drizzle select then insert: the invite row locked first with Drizzle's .for('update')",
      code: `
        export async function accept(db, inviteId, userId) {
          await db.transaction(async (tx) => {
            const [invite] = await tx.select().from(invites).where(eq(invites.id, inviteId)).for('update');
            const [seen] = await tx.select().from(members).where(and(eq(members.orgId, invite.orgId), eq(members.userId, userId)));
            if (!seen) await tx.insert(members).values({ orgId: invite.orgId, userId });
          });
        }`,
    },
    {
      name: "the parent row locked first with knex's forUpdate()",
      code: `
        export async function addItem(trx, orderId, sku) {
          await trx('orders').where({ id: orderId }).forUpdate().first();
          const found = await trx('order_items').where({ order_id: orderId, sku }).first();
          if (!found) await trx('order_items').insert({ order_id: orderId, sku });
        }`,
    },
    {
      name: 'the parent row locked first by a helper of the same module that reads it FOR UPDATE',
      code: orderItemAfter('loadOrderForUpdate', '.forUpdate()'),
    },
    {
      name: 'a serializable Prisma transaction',
      code: `
        await prisma.$transaction(async (tx) => {
          const seen = await tx.inbox.findFirst({ where: { id } });
          if (!seen) await tx.inbox.create({ data: { id } });
        }, { isolationLevel: Prisma.TransactionIsolationLevel.Serializable });`,
    },
    {
      name: 'Redis SET NX',
      code: `
        import Redis from 'ioredis';
        async function once(key) {
          if (await redis.get(key)) return false;
          return (await redis.set(key, '1', 'NX')) === 'OK';
        }`,
    },
    {
      name: 'the read is of another table',
      code: `
        async function handle(id) {
          const { rows } = await pool.query('SELECT 1 FROM customers WHERE id = $1', [id]);
          if (rows.length === 0) return;
          await pool.query('INSERT INTO visits (customer_id) VALUES ($1)', [id]);
        }`,
    },
    {
      name: 'the write runs only when the row was found',
      code: `
        async function touch(id) {
          const { rows } = await pool.query('SELECT 1 FROM sessions WHERE id = $1', [id]);
          if (rows.length > 0) await pool.query('INSERT INTO sessions (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET seen_at = now()', [id]);
        }`,
    },
    {
      name: 'the read result does not decide the write',
      code: `
        async function audit(id) {
          const rows = await pool.query('SELECT * FROM audit WHERE id = $1', [id]);
          console.log(rows);
          await pool.query('INSERT INTO audit (id) VALUES ($1)', [id]);
        }`,
    },
    {
      name: 'TypeORM save of the entity that was found is an update',
      code: `
        async function bump(id) {
          const counter = await this.counters.findOneBy({ id });
          if (!counter) throw new Error('missing');
          counter.value += 1;
          await this.counters.save(counter);
        }`,
    },
    {
      name: 'an Agenda job that takes a try-lock after the check and stops when another holds it: of the workers the check let through, one inserts',
      code: `
        import Agenda from 'agenda';
        import Redis from 'ioredis';
        const prisma = new PrismaClient();
        const redis = new Redis();
        agenda.define('daily digest', async (job) => {
          const { day } = job.attrs.data;
          const sent = await prisma.digest.findFirst({ where: { day } });
          if (sent) return;
          if (!(await redis.set(\`digest:lock:\${day}\`, '1', 'EX', 600, 'NX'))) return;
          await prisma.digest.create({ data: { day } });
          await log(day);
        });`,
    },
    {
      name: 'a Redis lock on another key is taken first',
      code: `
        import Redis from 'ioredis';
        export const handler = async (day) => {
          const lock = await redis.set(\`digest:lock:\${day}\`, '1', 'EX', 600, 'NX');
          if (lock !== 'OK') return;
          if (await redis.get(\`digest:sent:\${day}\`)) return;
          await sendDigest();
          await redis.set(\`digest:sent:\${day}\`, '1', 'EX', 86400);
        };`,
    },
    {
      name: 'a data layer that names its tables: a read of one table and a write of another',
      code: `
        class Sync {
          async run(chainId, txHash) {
            const existing = await this.models.findFirst({ table: 'sync_record', where: { chainId } });
            if (!existing) await this.models.create({ table: 'chain_transaction', data: { chainId, txHash } });
          }
        }`,
    },
    {
      name: 'an ignored claim after a check, with no other work, is only redundant',
      code: `
        async function claim(id) {
          const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rows.length) return;
          await pool.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
        }`,
    },
    {
      name: 'DynamoDB: a put conditioned on attribute_not_exists of its key settles the duplicate by failing',
      code: `
        import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
        async function claim(id) {
          const { Item } = await client.send(new GetCommand({ TableName: 'inbox', Key: { pk: id } }));
          if (Item) return false;
          await client.send(new PutCommand({ TableName: 'inbox', Item: { pk: id }, ConditionExpression: 'attribute_not_exists(pk)' }));
          return true;
        }`,
    },
    {
      name: 'DynamoDB: a plain put whose ConditionalCheckFailedException is caught as the duplicate',
      code: `
        import AWS from 'aws-sdk';
        async function claim(id) {
          const found = await docClient.get({ TableName: 'inbox', Key: { pk: id } }).promise();
          if (found.Item) return;
          try {
            await docClient.put({ TableName: 'inbox', Item: { pk: id } }).promise();
          } catch (error) {
            if (error.code === 'ConditionalCheckFailedException') return;
            throw error;
          }
        }`,
    },
    {
      name: 'DynamoDB: get then update is not an insert race',
      code: `
        import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
        async function touch(id) {
          const { Item } = await client.send(new GetCommand({ TableName: 'sessions', Key: { pk: id } }));
          if (!Item) await client.send(new UpdateCommand({ TableName: 'sessions', Key: { pk: id }, UpdateExpression: 'SET seenAt = :now' }));
        }`,
    },
    {
      name: 'DynamoDB near miss: the get and the put are of different tables',
      code: `
        import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
        async function visit(id) {
          const { Item } = await client.send(new GetCommand({ TableName: 'customers', Key: { pk: id } }));
          if (!Item) return;
          await client.send(new PutCommand({ TableName: 'visits', Item: { pk: id } }));
        }`,
    },
    {
      name: 'MongoDB: insertOne whose error 11000 is the duplicate',
      code: `
        import { MongoClient } from 'mongodb';
        async function claim(db, id) {
          if (await db.collection('inbox').findOne({ _id: id })) return;
          try {
            await db.collection('inbox').insertOne({ _id: id });
          } catch (error) {
            if (error.code === 11000) return;
            throw error;
          }
        }`,
    },
    {
      name: 'MongoDB: an upsert with $setOnInsert whose result decides',
      code: `
        import { MongoClient } from 'mongodb';
        async function claim(db, id) {
          const seen = await db.collection('inbox').findOne({ _id: id });
          if (seen) return false;
          const result = await db.collection('inbox').updateOne({ _id: id }, { $setOnInsert: { seenAt: new Date() } }, { upsert: true });
          return result.upsertedCount === 1;
        }`,
    },
    {
      name: 'MongoDB: a lease taken on the row first (findOneAndUpdate on lockedAt, its value tested): one worker at a time checks and inserts',
      code: reconciler(`${lease}
      if (!res.value) return;`),
    },
    {
      name: 'a compare-and-set whose modified count decides, before the check',
      code: reconciler(`const taken = await db.collection('Bucket').updateOne({ _id: doc._id, phase: 'Creating' }, { $set: { phase: 'Binding' } });
      if (taken.modifiedCount === 0) return;`),
    },
    {
      name: 'MongoDB near miss: a Map named like a collection is not one',
      code: `
        async function remember(id) {
          if (seenMap.get(id)) return;
          seenMap.set(id, true);
        }`,
    },
    {
      name: 'Firestore: the event id names the document, and create() refuses a second one',
      code: `
        import Stripe from 'stripe';
        import { getFirestore } from 'firebase-admin/firestore';
        const db = getFirestore();
        const stripe = new Stripe(process.env.STRIPE_KEY);
        export async function POST(req) {
          const event = stripe.webhooks.constructEvent(await req.text(), req.headers.get('stripe-signature'), secret);
          const ref = db.collection('processed_events').doc(event.id);
          if ((await ref.get()).exists) return new Response('seen');
          await ref.create({ type: event.type });
          await db.collection('credits').add({ customer: event.data.object.customer, amount: 5 });
          return new Response('ok');
        }`,
    },
    {
      name: 'Firestore: set() on the document named by the event id overwrites it, a repeat writes the same document',
      code: `
        import Stripe from 'stripe';
        import { getFirestore } from 'firebase-admin/firestore';
        const db = getFirestore();
        const stripe = new Stripe(process.env.STRIPE_KEY);
        export async function POST(req) {
          const event = stripe.webhooks.constructEvent(await req.text(), req.headers.get('stripe-signature'), secret);
          const ref = db.collection('processed_events').doc(event.id);
          const snap = await ref.get();
          if (!snap.exists) await ref.set({ type: event.type });
          return new Response('ok');
        }`,
    },
    {
      name: 'Firestore: the check and the write in one runTransaction, which Firestore serialises and retries',
      code: `
        import Stripe from 'stripe';
        import { getFirestore } from 'firebase-admin/firestore';
        const db = getFirestore();
        const stripe = new Stripe(process.env.STRIPE_KEY);
        export async function POST(req) {
          const event = stripe.webhooks.constructEvent(await req.text(), req.headers.get('stripe-signature'), secret);
          await db.runTransaction(async (t) => {
            const seen = await t.get(db.collection('processed_events').where('eventId', '==', event.id).limit(1));
            if (!seen.empty) return;
            t.set(db.collection('processed_events').doc(), { eventId: event.id });
          });
          return new Response('ok');
        }`,
    },
    {
      name: "Firestore: the check and the write in one runTransaction, the write's data holding a field named session (the checkout's, not a transaction's)",
      code: `
        import { getFirestore } from 'firebase-admin/firestore';
        const db = getFirestore();
        export async function issueMoneys(session) {
          const { id: sessionId } = session;
          await db.runTransaction(async (t) => {
            const seen = await t.get(db.collection('stripe-transactions').where('sessionId', '==', sessionId));
            if (!seen.empty) return;
            t.set(db.collection('stripe-transactions').doc(), { sessionId, session, at: Date.now() });
          });
          await credit(session.metadata.userId);
        }`,
    },
    {
      name: 'Firestore, modular SDK: getDoc then setDoc of the document the id names',
      code: `
        import { getFirestore, doc, getDoc, setDoc } from 'firebase/firestore';
        const db = getFirestore();
        export async function handle(message) {
          const ref = doc(db, 'orders', message.orderId);
          const snap = await getDoc(ref);
          if (!snap.exists()) await setDoc(ref, { status: 'paid' });
        }`,
    },
    {
      name: 'Convex: a query by index, then insert, in one mutation: Convex serialises the mutation and retries it on conflict',
      code: `
        import { internalMutation } from './_generated/server';
        import { v } from 'convex/values';
        export const recordPayment = internalMutation({
          args: { eventId: v.string(), userId: v.id('users'), amount: v.number() },
          handler: async (ctx, args) => {
            const seen = await ctx.db.query('payments').withIndex('by_event', (q) => q.eq('eventId', args.eventId)).unique();
            if (seen) return;
            await ctx.db.insert('payments', { eventId: args.eventId, userId: args.userId, amount: args.amount });
          },
        });`,
    },
    {
      name: "Convex: a helper given the mutation's context checks and inserts inside the caller's transaction",
      code: `
        import type { MutationCtx } from './_generated/server';
        export async function grantOnce(ctx: MutationCtx, eventId: string, userId: string) {
          const seen = await ctx.db.query('grants').withIndex('by_event', (q) => q.eq('eventId', eventId)).first();
          if (seen !== null) return false;
          await ctx.db.insert('grants', { eventId, userId });
          return true;
        }`,
    },
    {
      name: 'Redis near miss: an injected store with nothing but get and set is not taken for Redis',
      code: `
        class Dedupe {
          constructor(store) { this.store = store; }
          async once(key) {
            if (await this.store.get(key)) return false;
            await this.store.set(key, '1');
            return true;
          }
        }`,
    },
    {
      name: 'Redis: SISMEMBER, then SADD whose reply decides',
      code: `
        async function once(id) {
          if (await this.store.sismember('processed', id)) return false;
          return (await this.store.sadd('processed', id)) === 1;
        }`,
    },
    {
      name: 'Redis: SET … NX queued on multi(), its reply read from exec()',
      code: `
        import Redis from 'ioredis';
        async function once(key) {
          if (await redis.get(key)) return false;
          const [[, reply]] = await redis.multi().set(key, '1', 'NX').expire(key, 60).exec();
          return reply === 'OK';
        }`,
    },
    {
      name: 'MikroORM: the unique violation is caught as the duplicate',
      code: `
        import { EntityManager, UniqueConstraintViolationException } from '@mikro-orm/core';
        async function claim(em, messageId) {
          if (await em.findOne(Inbox, { messageId })) return;
          try {
            await em.insert(Inbox, { messageId });
          } catch (error) {
            if (error instanceof UniqueConstraintViolationException) return;
            throw error;
          }
        }`,
    },
    {
      name: 'MikroORM: findOne, then an upsert',
      code: `
        import { EntityManager } from '@mikro-orm/core';
        async function ensure(em, refundId, cents) {
          const found = await em.findOne(Refund, { refundId });
          if (!found) await em.upsert(Refund, { refundId, cents });
        }`,
    },
    {
      name: 'Objection: the insert settles duplicates with onConflict().ignore() and its result decides',
      code: `
        import { Model } from 'objection';
        import { Inbox } from './models';
        async function claim(messageId) {
          if (await Inbox.query().findOne({ messageId })) return false;
          const inserted = await Inbox.query().insert({ messageId }).onConflict('messageId').ignore();
          return inserted !== undefined;
        }`,
    },
    {
      name: 'Objection near miss: findById, then a patch of the row found',
      code: `
        import { Refund } from './models';
        async function settle(id) {
          const refund = await Refund.query().findById(id);
          if (refund) await Refund.query().patch({ settled: true }).where({ id });
        }`,
    },
    {
      name: 'Drizzle insert with onConflictDoNothing',
      code: `
        const [seen] = await db.select().from(inbox).where(eq(inbox.id, id));
        if (!seen) await db.insert(inbox).values({ id }).onConflictDoNothing();`,
    },
    {
      name: 'a plain Redis marker before work that only sets state: a second pass sets the same values',
      filename: 'src/jobs/audit-sources.ts',
      code: `
        import Redis from 'ioredis';
        const redis = new Redis();
        export async function auditImage(image) {
          const checkedKey = \`audit:checked:\${image.id}\`;
          if (await redis.get(checkedKey)) return;
          await redis.set(checkedKey, '1', 'EX', 3600);
          await prisma.image.update({ where: { id: image.id }, data: { needsReview: 'source' } });
        }`,
    },
    {
      name: 'a plain Redis marker before an email, outside any delivery: a second email moves no money',
      code: `
        import Redis from 'ioredis';
        const redis = new Redis();
        export async function remind(user) {
          const key = \`remind:\${user.id}\`;
          if (await redis.get(key)) return;
          await redis.set(key, '1', 'EX', 3600);
          await mailer.sendReminder(user.email);
        }`,
    },
    {
      name: "a route in the webhooks' folder that saves a webhook: that resource's API, not the handler of its deliveries",
      filename: 'app/api/webhooks/route.ts',
      code: saveWebhook('webhook'),
    },
    {
      name: "a data migration in the jobs' folder: run once per deploy, not per delivery",
      filename: 'src/jobs/data-migrations/add-ended-state.ts',
      code: addState,
    },
    {
      name: 'a seat with only a name, made when an import finds none: a row of a seat table that names nobody takes nothing',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function custodianFor(organizationId, name) {
          const existing = await prisma.seat.findFirst({ where: { organizationId, name } });
          if (existing) return existing;
          return prisma.seat.create({ data: { organizationId, name, createdAt: new Date() } });
        }`,
    },
    {
      name: 'a form that checks, then adds a membership: a second row for the same pair grants nothing more, and is taken away with it',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function acceptInvitation(organizationId, userId) {
          const existing = await prisma.organizationMember.findFirst({ where: { organizationId, userId } });
          if (existing) return existing;
          return prisma.organizationMember.create({ data: { organizationId, userId, role: 'member' } });
        }`,
    },
    {
      name: 'a scan recorded after a look for one, then a counter of scans added to: a count is no money',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function recordScan(sessionId, assetId) {
          const existing = await prisma.auditScan.findFirst({ where: { sessionId, assetId } });
          if (existing) return existing;
          const scan = await prisma.auditScan.create({ data: { sessionId, assetId } });
          await prisma.auditSession.update({ where: { id: sessionId }, data: { foundAssetCount: { increment: 1 } } });
          return scan;
        }`,
    },
    {
      name: "the project's own repository class: its create is read in its body, not taken for a library's insert",
      filename: 'src/workers/graphs.ts',
      code: `
        class GraphRepository {
          constructor(db) { this.db = db; }
          exists(name) { return this.db.select().from(targets).where(eq(targets.name, name)); }
          create(data) { return this.db.transaction(async (tx) => tx.insert(targets).values(data)); }
        }
        export async function handle(job) {
          const graphRepo = new GraphRepository(job.data.db);
          if (await graphRepo.exists(job.data.name)) return;
          await graphRepo.create({ name: job.data.name });
        }`,
    },
    {
      name: "a model of a queue's table in the project's models folder is the data layer, not a queue's processor",
      filename: 'server/models/documentSyncQueue.js',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function watch(document) {
          const watched = await prisma.documentSyncQueue.count({ where: { documentId: document.id } });
          if (watched > 0) throw new Error('already watched');
          return prisma.documentSyncQueue.create({ data: { documentId: document.id } });
        }`,
    },
  ],
  invalid: [
    {
      name: "near miss: the lease's answer is never tested, so every worker goes on to check and insert",
      code: reconciler(lease),
      errors: [{ messageId: 'checkThenInsert', line: 10 }],
    },
    {
      name: 'the near miss of a command: the same method as an HTTP route, where a second request pays twice',
      filename: 'src/common/controllers/payment-mapping.controller.ts',
      code: paymentMapping('route'),
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 12,
          suggestions: [
            {
              messageId: 'catchUniqueViolation',
              data: { key: '@@unique([from, to, businessId]) to model PaymentTransfer', code: 'P2002' },
              output: paymentMapping('route').replace(
                '            await prisma.paymentTransfer.create({ data: { from, to, businessId } });',
                `            try {
              await prisma.paymentTransfer.create({ data: { from, to, businessId } });
            } catch (error) {
              // P2002 is the duplicate: a unique key refused the second row (add @@unique([from, to, businessId]) to model PaymentTransfer).
              if ((error as { code?: string }).code !== 'P2002') throw error;
            }`,
              ),
            },
          ],
        },
      ],
    },
    {
      name: 'the near miss of work in memory: the same marker before a publish, which a second pass repeats',
      code: markedTokens('await publish(token)'),
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 10,
          suggestions: [
            {
              messageId: 'addNx',
              output: markedTokens('await publish(token)').replace("'EX', 3600);", "'EX', 3600, 'NX');"),
            },
          ],
        },
      ],
    },
    {
      name: 'the near miss of a marked refresh: the helper inserts a row of history, and a second pass adds a second one',
      code: markedRefresh(
        `await pool.query('INSERT INTO fee_history (collection, bps) VALUES ($1, $2)', [collection, fees.bps]);`,
      ),
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 12,
          suggestions: [
            {
              messageId: 'addNx',
              output: markedRefresh(
                `await pool.query('INSERT INTO fee_history (collection, bps) VALUES ($1, $2)', [collection, fees.bps]);`,
              ).replace("'1', 'EX', 3600);", "'1', 'EX', 3600, 'NX');"),
            },
          ],
        },
      ],
    },
    {
      name: 'the near miss of a cache of a yes or no: the same constant either way is a marker, and two writes of one helper are one finding',
      code: creditsCache('1', '1'),
      errors: [{ messageId: 'checkThenInsert', line: 12, suggestions: [] }],
    },
    {
      name: 'the near miss of a rate limit: a lock named for nothing but itself keeps two workers off a publish, which a second pass repeats',
      code: hourlyLock('royalties-lock', 'publishRoyalties'),
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 8,
          suggestions: [
            {
              messageId: 'addNx',
              output: hourlyLock('royalties-lock', 'publishRoyalties').replace("'EX', 3600);", "'EX', 3600, 'NX');"),
            },
          ],
        },
      ],
    },
    {
      name: 'the near miss of a throttle: a time found only tells that the agent was seen, a marker of a once() helper',
      code: lastSeen('return false;'),
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 7,
          suggestions: [
            {
              messageId: 'addNx',
              output: lastSeen('return false;').replace('String(Date.now()));', "String(Date.now()), 'NX');"),
            },
          ],
        },
      ],
    },
    {
      name: 'the near miss of a locked sweep: no lock before the helper is called',
      code: sweep(''),
      errors: [{ messageId: 'checkThenInsert', line: 8, suggestions: [] }],
    },
    {
      name: 'the near miss of a locked sweep: the helper is exported, so callers elsewhere may call it without the lock',
      code: sweep(`const mutex = new Mutex(redis, 'sweep'); await mutex.acquire();`, 'export '),
      errors: [{ messageId: 'checkThenInsert', line: 8, suggestions: [] }],
    },
    {
      name: 'the near miss of a locked sweep: a semaphore of several permits lets several runs in',
      code: sweep(`const permit = new Semaphore(redis, 'sweep', 3); await permit.acquire();`),
      errors: [{ messageId: 'checkThenInsert', line: 8, suggestions: [] }],
    },
    {
      name: "the near miss of a Redlock lock's work: the look runs before the lock is taken",
      code: `
        import Redlock from 'redlock';
        import { Worker } from 'bullmq';
        const redlock = new Redlock([redis]);
        const prisma = new PrismaClient();
        export const worker = new Worker('alerts', async (job) => {
          const open = await prisma.alert.findFirst({ where: { ruleId: job.data.ruleId } });
          if (open) return;
          await redlock.using([\`rule:\${job.data.ruleId}\`], 5000, async () => {
            await prisma.alert.create({ data: { ruleId: job.data.ruleId } });
            await page(job.data.ruleId);
          });
        });`,
      errors: [{ messageId: 'checkThenInsert', line: 10, suggestions: [] }],
    },
    {
      name: "the near miss of the project's own repository class: its own query wrapper, handed the statement, performs what the text says",
      filename: 'src/workers/refunds.ts',
      code: `
        import { Worker } from 'bullmq';
        class Db {
          query(text, values) { return pool.query(text, values); }
        }
        const db = new Db();
        export const worker = new Worker('refunds', async (job) => {
          const { rows } = await db.query('SELECT 1 FROM refunds WHERE refund_id = $1', [job.data.refundId]);
          if (rows.length > 0) return;
          await db.query('INSERT INTO refunds (refund_id) VALUES ($1)', [job.data.refundId]);
        });`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 10,
          suggestions: [
            {
              messageId: 'addOnConflict',
              output: `
        import { Worker } from 'bullmq';
        class Db {
          query(text, values) { return pool.query(text, values); }
        }
        const db = new Db();
        export const worker = new Worker('refunds', async (job) => {
          const { rows } = await db.query('SELECT 1 FROM refunds WHERE refund_id = $1', [job.data.refundId]);
          if (rows.length > 0) return;
          await db.query('INSERT INTO refunds (refund_id) VALUES ($1) ON CONFLICT DO NOTHING', [job.data.refundId]);
        });`,
            },
          ],
        },
      ],
    },
    {
      name: "the near miss of a queue's table in the models folder: the same code among the project's queues handles deliveries",
      filename: 'server/queues/documentSync.js',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function watch(document) {
          const watched = await prisma.documentSyncQueue.count({ where: { documentId: document.id } });
          if (watched > 0) throw new Error('already watched');
          return prisma.documentSyncQueue.create({ data: { documentId: document.id } });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
    {
      name: 'the near miss of a seat with only a name: one that names the user it is given to takes a seat',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function join(organizationId, userId) {
          const existing = await prisma.seat.findFirst({ where: { organizationId, userId } });
          if (existing) return existing;
          return prisma.seat.create({ data: { organizationId, userId } });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
    {
      name: "the near miss of a day's visit counter: a day's total amount made when missing moves money",
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function settle(merchantId, day, cents) {
          const found = await prisma.dailySettlement.findFirst({ where: { merchantId, day } });
          if (found) return found;
          return prisma.dailySettlement.create({ data: { merchantId, day, totalAmount: cents } });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
    {
      name: 'the near miss of a cache of processed entries: a table of processed entries records what was handled',
      code: `
        export async function relabel(trx, nodeHash, entryId, output) {
          const cached = await trx('processed_entries').where({ node_hash: nodeHash, entry_id: entryId }).first();
          if (cached) return trx('processed_entries').where({ id: cached.id }).update({ output });
          await trx('processed_entries').insert({ node_hash: nodeHash, entry_id: entryId, output });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 5 }],
    },
    {
      name: 'the near miss of a stock count: a line recorded with its expected cost moves money',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function startCount(locationId, serviceId, onHand) {
          const open = await prisma.countLine.findFirst({ where: { locationId, serviceId } });
          if (open) throw new Error('already counting');
          return prisma.countLine.create({ data: { locationId, serviceId, expectedCost: onHand } });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
    {
      name: "the near miss of a catalogue's product with its price: a line item, no catalogue's entry, recorded with its price moves money",
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function addLine(cartId, sku) {
          const found = await prisma.lineItem.findFirst({ where: { cartId, sku } });
          if (found) return found;
          return prisma.lineItem.create({ data: { cartId, sku, unitPrice: 1200 } });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
    {
      name: 'the near miss of a coupon: its redemption, recorded with the amount taken off, is an offer taken up',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function redeem(couponId, orderRef, amountDiscount) {
          const found = await prisma.couponRedemption.findFirst({ where: { couponId, orderRef } });
          if (found) return found;
          return prisma.couponRedemption.create({ data: { couponId, orderRef, amountDiscount } });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
    {
      name: "the near miss of a catalogue's product with its price: a bonus recorded with its amount moves money",
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function bonusFor(userId, code) {
          const found = await prisma.bonus.findFirst({ where: { userId, code } });
          if (found) return found;
          return prisma.bonus.create({ data: { userId, code, amount: 500 } });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
    {
      name: 'the near miss of a counter of scans: a balance of credits added to after the insert moves money',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function redeem(userId, code) {
          const used = await prisma.redemption.findFirst({ where: { userId, code } });
          if (used) return used;
          const redemption = await prisma.redemption.create({ data: { userId, code } });
          await prisma.user.update({ where: { id: userId }, data: { credits: { increment: 100 } } });
          return redemption;
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
    {
      name: 'a plain Redis marker before an alert in a webhook: the send, which the analysis cannot see into, repeats',
      filename: 'src/webhooks/connection.ts',
      code: `
        import Redis from 'ioredis';
        const redis = new Redis();
        export async function onConnectionUpdate(instance) {
          const throttleKey = \`alert:\${instance}\`;
          if (await redis.get(throttleKey)) return true;
          await redis.setex(throttleKey, 7200, '1');
          await notifier.notifyAdmin({ title: 'instance down', instance });
          return true;
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
    {
      name: 'a plain Redis marker before a payout, outside any delivery: a second pass moves money',
      code: `
        import Redis from 'ioredis';
        import Stripe from 'stripe';
        const redis = new Redis();
        const stripe = new Stripe(process.env.KEY);
        export async function sweep(account) {
          const key = \`sweep:\${account.id}\`;
          if (await redis.get(key)) return;
          await redis.set(key, '1', 'EX', 86400);
          await stripe.payouts.create({ amount: account.balance, currency: 'usd' });
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 9,
          suggestions: [
            {
              messageId: 'addNx',
              output: `
        import Redis from 'ioredis';
        import Stripe from 'stripe';
        const redis = new Redis();
        const stripe = new Stripe(process.env.KEY);
        export async function sweep(account) {
          const key = \`sweep:\${account.id}\`;
          if (await redis.get(key)) return;
          await redis.set(key, '1', 'EX', 86400, 'NX');
          await stripe.payouts.create({ amount: account.balance, currency: 'usd' });
        }`,
            },
          ],
        },
      ],
    },
    {
      name: "near miss of a lazy singleton: a merchant's payout for a period looked for, a money table, outside any delivery",
      code: `
        export async function merchantPayout(merchantId, period) {
          let payout = await prisma.merchantPayout.findFirst({ where: { merchantId, period } });
          if (!payout) payout = await prisma.merchantPayout.create({ data: { merchantId, period } });
          return payout;
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 4 }],
    },
    {
      name: 'an HTTP handler outside any delivery that checks, then records a payment: a double submit pays twice',
      code: `
        import express from 'express';
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        const app = express();
        app.post('/orders/:id/pay', async (req, res) => {
          const paid = await prisma.payment.findFirst({ where: { orderId: req.params.id } });
          if (paid) return res.status(409).end();
          await prisma.payment.create({ data: { orderId: req.params.id, amountCents: req.body.amountCents } });
          res.status(201).end();
        });`,
      errors: [{ messageId: 'checkThenInsert', line: 9 }],
    },
    {
      name: "the near miss of a webhooks' route: one that writes another table is among the webhooks' handlers",
      filename: 'app/api/webhooks/route.ts',
      code: saveWebhook('trigger'),
      errors: [{ messageId: 'checkThenInsert', line: 8 }],
    },
    {
      name: "the near miss of a data migration in the jobs' folder: the same code among the jobs handles deliveries",
      filename: 'src/jobs/add-ended-state.ts',
      code: addState,
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
    {
      name: 'a form that checks, then assigns a licence: a second row is a second licence used up',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function assignLicense(organizationId, userId) {
          const existing = await prisma.license.findFirst({ where: { organizationId, userId } });
          if (existing) return existing;
          return prisma.license.create({ data: { organizationId, userId, plan: 'pro' } });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
    {
      name: 'a form whose insert moves nothing, but the same check lets a charge run after it: the second pass charges again',
      code: `
        import Stripe from 'stripe';
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        const stripe = new Stripe(process.env.STRIPE_KEY);
        export async function book(slotId, userId, customer) {
          const taken = await prisma.booking.findFirst({ where: { slotId } });
          if (taken) throw new Error('slot taken');
          await prisma.booking.create({ data: { slotId, userId } });
          await stripe.charges.create({ customer, amount: 5000, currency: 'eur' });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 9 }],
    },
    {
      name: "a processor among the project's queues, run by a worker the analysis does not see: the layout says a delivery is handled",
      filename: 'server/queues/processors/backlinks.ts',
      code: `
        export default class BacklinksProcessor extends BaseProcessor {
          async perform(event) {
            const existing = await Relationship.findOne({ where: { documentId: event.documentId, targetId: event.targetId } });
            if (!existing) await Relationship.create({ documentId: event.documentId, targetId: event.targetId });
          }
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 5 }],
    },
    {
      name: 'inside a consumer, any check-then-insert is reported: a redelivery makes the second pass by itself',
      code: `
        import amqp from 'amqplib';
        channel.consume('backlinks', async (msg) => {
          const { documentId, targetId } = JSON.parse(msg.content.toString());
          const found = await Backlink.findOne({ where: { documentId, targetId } });
          if (!found) await Backlink.create({ documentId, targetId });
          channel.ack(msg);
        });`,
      errors: [{ messageId: 'checkThenInsert', line: 6 }],
    },
    {
      name: 'inside a trigger.dev task that records a payment, a check-then-insert is reported: two runs at once both pay out',
      code: weeklyPayout,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 9,
          suggestions: [
            {
              messageId: 'catchUniqueViolation',
              data: { key: '@@unique([creatorId, week]) to model Payout', code: 'P2002' },
              output: caughtP2002(
                weeklyPayout,
                '            await prisma.payout.create({ data: { creatorId, week, amount: await earnings(creatorId, week) } });',
                '@@unique([creatorId, week]) to model Payout',
              ),
            },
          ],
        },
      ],
    },
    {
      name: 'the near miss: the encounter is written with an end date the job carries, which may be empty: the check may find it',
      code: dispenseWithEndDate,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 7,
          suggestions: [
            {
              messageId: 'catchUniqueViolation',
              data: { key: '@@unique([patientId, endDate]) to model Encounter', code: 'P2002' },
              output: caughtP2002(
                dispenseWithEndDate,
                '          await prisma.encounter.create({ data: { patientId: job.data.patientId, endDate: job.data.endDate } });',
                '@@unique([patientId, endDate]) to model Encounter',
              ),
            },
          ],
        },
      ],
    },
    {
      name: 'the same plain check-then-insert in a BullMQ worker is reported: a stalled job runs again beside the first',
      code: bullDigest,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 7,
          suggestions: [
            {
              messageId: 'catchUniqueViolation',
              data: { key: '@unique to field Digest.day', code: 'P2002' },
              output: caughtP2002(
                bullDigest,
                '          await prisma.digest.create({ data: { day: job.data.day } });',
                '@unique to field Digest.day',
              ),
            },
          ],
        },
      ],
    },
    {
      name: 'a trigger.dev scheduled task with nothing to read is a cron: every tick may overlap the last',
      code: `
        import { schedules } from '@trigger.dev/sdk';
        const prisma = new PrismaClient();
        export const digest = schedules.task({
          id: 'daily-digest',
          cron: '0 6 * * *',
          run: async () => {
            const day = today();
          const sent = await prisma.digest.findFirst({ where: { day } });
          if (sent) return;
          await prisma.digest.create({ data: { day } });
            return { sent: true };
          },
        });`,
      errors: [{ messageId: 'checkThenInsert', line: 11, suggestions: [] }],
    },
    {
      name: 'a node-cron schedule: every instance fires it, so two runs pass the check together',
      code: `
        import cron from 'node-cron';
        const prisma = new PrismaClient();
        cron.schedule('0 6 * * *', async () => {
          const day = today();
          const sent = await prisma.digest.findFirst({ where: { day } });
          if (sent) return;
          await prisma.digest.create({ data: { day } });
          await log(day);
        });`,
      errors: [{ messageId: 'checkThenInsert', line: 8, suggestions: [] }],
    },
    {
      name: 'a cron CronJob.from({ onTick })',
      code: `
        import { CronJob } from 'cron';
        const prisma = new PrismaClient();
        CronJob.from({
          cronTime: '0 6 * * *',
          onTick: async () => {
            const day = today();
          const sent = await prisma.digest.findFirst({ where: { day } });
          if (sent) return;
          await prisma.digest.create({ data: { day } });
            await log(day);
          },
        });`,
      errors: [{ messageId: 'checkThenInsert', line: 10, suggestions: [] }],
    },
    {
      name: 'a NestJS @Cron method',
      code: `
        import { Cron } from '@nestjs/schedule';
        export class Digests {
          @Cron('0 6 * * *')
          async sendDigest() {
            const day = today();
          const sent = await this.prisma.digest.findFirst({ where: { day } });
          if (sent) return;
          await this.prisma.digest.create({ data: { day } });
            await log(day);
          }
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 9, suggestions: [] }],
    },
    {
      name: "a NestJS @Cron method's own helper, called on this: the helper runs in every scheduled run",
      code: `
        import { Cron } from '@nestjs/schedule';
        export class Digests {
          @Cron('0 6 * * *')
          async tick() {
            await this.sendDigest(today());
          }
          private async sendDigest(day) {
            const sent = await this.prisma.digest.findFirst({ where: { day } });
            if (sent) return;
            await this.prisma.digest.create({ data: { day } });
            await log(day);
          }
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 11, suggestions: [] }],
    },
    {
      name: 'a helper of the file that a node-cron schedule with nothing to read calls',
      code: `
        import cron from 'node-cron';
        async function sendDigest(day) {
          const sent = await prisma.digest.findFirst({ where: { day } });
          if (sent) return;
          await prisma.digest.create({ data: { day } });
          await log(day);
        }
        cron.schedule('0 6 * * *', () => sendDigest(today()));`,
      errors: [{ messageId: 'checkThenInsert', line: 6, suggestions: [] }],
    },
    {
      name: 'the near miss of a try-lock after the check: its answer decides nothing, and every worker inserts',
      code: `
        import Agenda from 'agenda';
        import Redis from 'ioredis';
        const prisma = new PrismaClient();
        const redis = new Redis();
        agenda.define('daily digest', async (job) => {
          const { day } = job.attrs.data;
          const sent = await prisma.digest.findFirst({ where: { day } });
          if (sent) return;
          await redis.set(\`digest:lock:\${day}\`, '1', 'EX', 600, 'NX');
          await prisma.digest.create({ data: { day } });
          await log(day);
        });`,
      errors: [{ messageId: 'checkThenInsert', line: 11, suggestions: [] }],
    },
    {
      name: 'the near miss of a try-lock after the check, let go before the insert: a worker that looked before it can take it',
      code: `
        import Agenda from 'agenda';
        import Redis from 'ioredis';
        const prisma = new PrismaClient();
        const redis = new Redis();
        agenda.define('daily digest', async (job) => {
          const { day } = job.attrs.data;
          const sent = await prisma.digest.findFirst({ where: { day } });
          if (sent) return;
          if (!(await redis.set(\`digest:lock:\${day}\`, '1', 'EX', 600, 'NX'))) return;
          await redis.del(\`digest:lock:\${day}\`);
          await prisma.digest.create({ data: { day } });
          await log(day);
        });`,
      errors: [{ messageId: 'checkThenInsert', line: 12, suggestions: [] }],
    },
    {
      name: 'an Agenda job',
      code: `
        import Agenda from 'agenda';
        const prisma = new PrismaClient();
        agenda.define('daily digest', async (job) => {
          const { day } = job.attrs.data;
          const sent = await prisma.digest.findFirst({ where: { day } });
          if (sent) return;
          await prisma.digest.create({ data: { day } });
          await log(day);
        });`,
      errors: [{ messageId: 'checkThenInsert', line: 8, suggestions: [] }],
    },
    {
      name: "a helper that answers with the row or null decides a helper's insert: reported at the call that decides",
      code: `
        async function findMember(email) {
          const rows = await db.query('SELECT id FROM seats WHERE email = $1', [email]);
          if (rows.rowCount > 0) return rows.rows[0];
          return null;
        }
        async function addMember(email) {
          await db.query('INSERT INTO seats (email) VALUES ($1)', [email]);
        }
        async function join(email) {
          if (await findMember(email)) return;
          await addMember(email);
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 12 }],
    },
    {
      name: 'near miss of double-checked locking: looking twice without a lock is still a race',
      code: `
        async function hostPayout(client, hostId) {
          const { rows } = await client.query('SELECT id FROM payouts WHERE host_id = $1', [hostId]);
          if (rows.length > 0) return rows[0];
          const again = await client.query('SELECT id FROM payouts WHERE host_id = $1', [hostId]);
          if (again.rows.length > 0) return again.rows[0];
          await client.query('INSERT INTO payouts (host_id) VALUES ($1)', [hostId]);
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 7,
          suggestions: [
            {
              messageId: 'addOnConflict',
              output: `
        async function hostPayout(client, hostId) {
          const { rows } = await client.query('SELECT id FROM payouts WHERE host_id = $1', [hostId]);
          if (rows.length > 0) return rows[0];
          const again = await client.query('SELECT id FROM payouts WHERE host_id = $1', [hostId]);
          if (again.rows.length > 0) return again.rows[0];
          await client.query('INSERT INTO payouts (host_id) VALUES ($1) ON CONFLICT DO NOTHING', [hostId]);
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'a marker set after a GET found nothing: the check decides, and a second worker passes it too',
      code: `
        import Redis from 'ioredis';
        async function once(redis, id) {
          if (await redis.get(\`seen:\${id}\`)) return;
          await redis.set(\`seen:\${id}\`, '1', 'EX', 86400);
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 5,
          suggestions: [
            {
              messageId: 'addNx',
              output: `
        import Redis from 'ioredis';
        async function once(redis, id) {
          if (await redis.get(\`seen:\${id}\`)) return;
          await redis.set(\`seen:\${id}\`, '1', 'EX', 86400, 'NX');
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'a Prisma call is quoted as written, not capitalised',
      code: `
        async function claim(id) {
          const seen = await prisma.inbox.findFirst({ where: { id } });
          if (!seen) await prisma.inbox.create({ data: { id } });
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          data: {
            write: 'prisma.inbox.create()',
            read: 'prisma.inbox.findFirst()',
            line: '3',
            remedy: 'an upsert, or create and treat error P2002 as the duplicate',
          },
          suggestions: [
            {
              messageId: 'catchUniqueViolation',
              data: { key: '@unique to field Inbox.id', code: 'P2002' },
              output: `
        async function claim(id) {
          const seen = await prisma.inbox.findFirst({ where: { id } });
          if (!seen) {
            try {
              await prisma.inbox.create({ data: { id } });
            } catch (error) {
              // P2002 is the duplicate: a unique key refused the second row (add @unique to field Inbox.id).
              if ((error as { code?: string }).code !== 'P2002') throw error;
            }
          }
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'SELECT then INSERT after an early return',
      code: `
        async function claim(id) {
          const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rows.length > 0) return;
          await pool.query('INSERT INTO inbox (message_id) VALUES ($1)', [id]);
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 5,
          data: {
            write: 'the INSERT into inbox',
            read: 'a SELECT on inbox',
            line: '3',
            remedy: 'INSERT … ON CONFLICT DO NOTHING and check the row count',
          },
          suggestions: [
            {
              messageId: 'addOnConflict',
              output: `
        async function claim(id) {
          const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rows.length > 0) return;
          await pool.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'count(*) then INSERT … RETURNING in the zero branch',
      code: `
        async function record(client, refundId, cents) {
          const result = await client.query('SELECT count(*) AS n FROM refunds WHERE refund_id = $1', [refundId]);
          const exists = Number(result.rows[0].n) > 0;
          if (!exists) {
            await client.query(\`INSERT INTO refunds (refund_id, cents) VALUES ($1, $2) RETURNING refund_id\`, [refundId, cents]);
          }
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 6,
          suggestions: [
            {
              messageId: 'addOnConflict',
              output: `
        async function record(client, refundId, cents) {
          const result = await client.query('SELECT count(*) AS n FROM refunds WHERE refund_id = $1', [refundId]);
          const exists = Number(result.rows[0].n) > 0;
          if (!exists) {
            await client.query(\`INSERT INTO refunds (refund_id, cents) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING refund_id\`, [refundId, cents]);
          }
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'an EXISTS check in a helper function',
      code: `
        async function seen(id) {
          const { rows } = await pool.query('SELECT EXISTS (SELECT 1 FROM inbox WHERE message_id = $1) AS found', [id]);
          return rows[0].found;
        }
        channel.consume('q', async (msg) => {
          if (await seen(msg.properties.messageId)) return channel.ack(msg);
          await pool.query('INSERT INTO inbox (message_id) VALUES ($1)', [msg.properties.messageId]);
        });`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 8,
          suggestions: [
            {
              messageId: 'addOnConflict',
              output: `
        async function seen(id) {
          const { rows } = await pool.query('SELECT EXISTS (SELECT 1 FROM inbox WHERE message_id = $1) AS found', [id]);
          return rows[0].found;
        }
        channel.consume('q', async (msg) => {
          if (await seen(msg.properties.messageId)) return channel.ack(msg);
          await pool.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [msg.properties.messageId]);
        });`,
            },
          ],
        },
      ],
    },
    {
      name: 'Prisma findUnique then create in the else branch, then a return: no repair, the caught duplicate would return true',
      code: `
        async function claim(id) {
          const existing = await prisma.processedMessage.findUnique({ where: { id } });
          if (existing) {
            return false;
          } else {
            await prisma.processedMessage.create({ data: { id } });
            return true;
          }
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 7,
          // A caught duplicate would still `return true`: the caller would take the claim as its own.
          suggestions: [],
        },
      ],
    },
    {
      name: 'Prisma findFirst on two fields then create, in JavaScript: the repair catches P2002 and names the key on both',
      filename: 'billing.js',
      code: `
        async function book(prisma, invoiceId, accountId, cents) {
          const found = await prisma.entry.findFirst({ where: { invoiceId, accountId } });
          if (found) return;
          await prisma.entry.create({
            data: { invoiceId, accountId, cents },
          });
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 5,
          suggestions: [
            {
              messageId: 'catchUniqueViolation',
              data: { key: '@@unique([invoiceId, accountId]) to model Entry', code: 'P2002' },
              output: `
        async function book(prisma, invoiceId, accountId, cents) {
          const found = await prisma.entry.findFirst({ where: { invoiceId, accountId } });
          if (found) return;
          try {
            await prisma.entry.create({
              data: { invoiceId, accountId, cents },
            });
          } catch (error) {
            // P2002 is the duplicate: a unique key refused the second row (add @@unique([invoiceId, accountId]) to model Entry).
            if (error?.code !== 'P2002') throw error;
          }
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'a Prisma create whose result is kept gets no repair: its variable would be left inside the try',
      filename: 'src/workers/book.ts',
      code: `
        async function book(prisma, invoiceId) {
          const found = await prisma.entry.findFirst({ where: { invoiceId } });
          if (found) return found;
          const entry = await prisma.entry.create({ data: { invoiceId } });
          return entry;
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 5, suggestions: [] }],
    },
    {
      name: 'a Prisma create followed by more code gets no repair: the code after it would still run after the duplicate',
      filename: 'src/workers/book.ts',
      code: `
        async function book(prisma, invoiceId, notify) {
          const found = await prisma.entry.findFirst({ where: { invoiceId } });
          if (found) return;
          await prisma.entry.create({ data: { invoiceId } });
          await notify(invoiceId);
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 5, suggestions: [] }],
    },
    {
      name: 'TypeORM findOneBy then save of a new entity',
      code: `
        async function claim(id) {
          const found = await this.inboxRepository.findOneBy({ messageId: id });
          if (!found) await this.inboxRepository.save({ messageId: id });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 4 }],
    },
    {
      name: 'TypeORM findOneBy on two fields then save: the repair catches QueryFailedError 23505 or ER_DUP_ENTRY, imports it beside Repository, and names the key',
      filename: 'src/workers/ledger.ts',
      code: `
        import { Repository } from 'typeorm';
        export async function book(ledgerRepository: Repository<LedgerEntry>, invoiceId: string, accountId: string) {
          const found = await ledgerRepository.findOneBy({ invoiceId, accountId });
          if (!found) await ledgerRepository.save({ invoiceId, accountId, cents: 100 });
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 5,
          suggestions: [
            {
              messageId: 'catchUniqueViolation',
              data: {
                key: "@Unique(['invoiceId', 'accountId']) to entity Ledger",
                code: 'QueryFailedError 23505 or ER_DUP_ENTRY',
              },
              output: `
        import { Repository, QueryFailedError } from 'typeorm';
        export async function book(ledgerRepository: Repository<LedgerEntry>, invoiceId: string, accountId: string) {
          const found = await ledgerRepository.findOneBy({ invoiceId, accountId });
          if (!found) {
            try {
              await ledgerRepository.save({ invoiceId, accountId, cents: 100 });
            } catch (error) {
              // 23505 or ER_DUP_ENTRY is the duplicate: a unique key refused the second row (add @Unique(['invoiceId', 'accountId']) to entity Ledger).
              if (!(error instanceof QueryFailedError) || !['23505', 'ER_DUP_ENTRY'].includes((error.driverError as { code?: string }).code ?? '')) throw error;
            }
          }
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'TypeORM in JavaScript, through the entity manager, in a NestJS file: the class is imported on a line of its own, the entity named by the call',
      filename: 'src/workers/refunds.js',
      code: `
        import { InjectEntityManager } from '@nestjs/typeorm';
        export async function refund(manager, paymentId) {
          const done = await manager.findOneBy(Refund, { paymentId });
          if (done) return;
          await manager.insert(Refund, { paymentId, state: 'requested' });
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 6,
          suggestions: [
            {
              messageId: 'catchUniqueViolation',
              data: { key: "@Unique(['paymentId']) to entity Refund", code: 'QueryFailedError 23505 or ER_DUP_ENTRY' },
              output: `
        import { InjectEntityManager } from '@nestjs/typeorm';
import { QueryFailedError } from 'typeorm';
        export async function refund(manager, paymentId) {
          const done = await manager.findOneBy(Refund, { paymentId });
          if (done) return;
          try {
            await manager.insert(Refund, { paymentId, state: 'requested' });
          } catch (error) {
            // 23505 or ER_DUP_ENTRY is the duplicate: a unique key refused the second row (add @Unique(['paymentId']) to entity Refund).
            if (!(error instanceof QueryFailedError) || !['23505', 'ER_DUP_ENTRY'].includes(error.driverError?.code)) throw error;
          }
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'TypeORM with QueryFailedError imported under another name: the repair uses that name and imports nothing',
      filename: 'src/workers/inbox.ts',
      code: `
        import { QueryFailedError as DbError, Repository } from 'typeorm';
        export async function claim(inboxRepository: Repository<Inbox>, messageId: string) {
          if (await inboxRepository.countBy({ messageId })) return;
          await inboxRepository.insert({ messageId });
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 5,
          suggestions: [
            {
              messageId: 'catchUniqueViolation',
              data: { key: "@Unique(['messageId']) to entity Inbox", code: 'QueryFailedError 23505 or ER_DUP_ENTRY' },
              output: `
        import { QueryFailedError as DbError, Repository } from 'typeorm';
        export async function claim(inboxRepository: Repository<Inbox>, messageId: string) {
          if (await inboxRepository.countBy({ messageId })) return;
          try {
            await inboxRepository.insert({ messageId });
          } catch (error) {
            // 23505 or ER_DUP_ENTRY is the duplicate: a unique key refused the second row (add @Unique(['messageId']) to entity Inbox).
            if (!(error instanceof DbError) || !['23505', 'ER_DUP_ENTRY'].includes((error.driverError as { code?: string }).code ?? '')) throw error;
          }
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'TypeORM in a CommonJS module: the class comes from a require after the directive',
      filename: 'src/workers/refunds.cjs',
      code: `'use strict';
const typeorm = require('typeorm');
module.exports.refund = async function refund(refundRepository, paymentId) {
  if (await refundRepository.findOneBy({ paymentId })) return;
  await refundRepository.save({ paymentId });
};`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 5,
          suggestions: [
            {
              messageId: 'catchUniqueViolation',
              data: { key: "@Unique(['paymentId']) to entity Refund", code: 'QueryFailedError 23505 or ER_DUP_ENTRY' },
              output: `'use strict';
const { QueryFailedError } = require('typeorm');
const typeorm = require('typeorm');
module.exports.refund = async function refund(refundRepository, paymentId) {
  if (await refundRepository.findOneBy({ paymentId })) return;
  try {
    await refundRepository.save({ paymentId });
  } catch (error) {
    // 23505 or ER_DUP_ENTRY is the duplicate: a unique key refused the second row (add @Unique(['paymentId']) to entity Refund).
    if (!(error instanceof QueryFailedError) || !['23505', 'ER_DUP_ENTRY'].includes(error.driverError?.code)) throw error;
  }
};`,
            },
          ],
        },
      ],
    },
    {
      name: 'a TypeORM save followed by more code gets no repair: the code after it would still run after the duplicate',
      filename: 'src/workers/ledger.ts',
      code: `
        import { Repository } from 'typeorm';
        export async function book(ledgerRepository: Repository<LedgerEntry>, invoiceId: string, notify) {
          const found = await ledgerRepository.findOneBy({ invoiceId });
          if (found) return;
          await ledgerRepository.save({ invoiceId });
          await notify(invoiceId);
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 6, suggestions: [] }],
    },
    {
      name: 'near miss: the same repository calls in a file that imports no library get no TypeORM repair, whose library is only a guess there',
      filename: 'src/workers/ledger.ts',
      code: `
        export async function book(ledgerRepository, invoiceId) {
          const found = await ledgerRepository.findOneBy({ invoiceId });
          if (!found) await ledgerRepository.save({ invoiceId });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 4, suggestions: [] }],
    },
    {
      name: 'Sequelize findOne then create',
      code: `
        async function claim(id) {
          if (await Inbox.findOne({ where: { messageId: id } })) return;
          await Inbox.create({ messageId: id });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 4 }],
    },
    {
      name: 'Mongoose exists then create',
      code: `
        async function claim(id) {
          const exists = await Processed.exists({ _id: id });
          return exists || Processed.create({ _id: id });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 4 }],
    },
    {
      name: 'knex first then insert',
      code: `
        async function claim(id) {
          const row = await knex('inbox').where({ message_id: id }).first();
          if (row) return;
          await knex('inbox').insert({ message_id: id });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 5 }],
    },
    {
      name: 'the near miss of a lock in a helper: the helper of the same module reads the parent row without FOR UPDATE',
      code: orderItemAfter('loadOrder', ''),
      errors: [{ messageId: 'checkThenInsert', line: 11 }],
    },
    {
      name: 'Drizzle select then insert, with a suggestion',
      code: `
        const [seen] = await db.select().from(inbox).where(eq(inbox.id, id));
        if (!seen) await db.insert(inbox).values({ id });`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 3,
          suggestions: [
            {
              messageId: 'addOnConflictDoNothing',
              output: `
        const [seen] = await db.select().from(inbox).where(eq(inbox.id, id));
        if (!seen) await db.insert(inbox).values({ id }).onConflictDoNothing();`,
            },
          ],
        },
      ],
    },
    {
      name: 'Kysely selectFrom then insertInto',
      code: `
        const row = await db.selectFrom('inbox').select('id').where('id', '=', id).executeTakeFirst();
        if (row === undefined) await db.insertInto('inbox').values({ id }).execute();`,
      errors: [{ messageId: 'checkThenInsert', line: 3 }],
    },
    {
      name: 'Redis GET then SET, with a suggestion',
      code: `
        import Redis from 'ioredis';
        async function once(key) {
          if (await redis.get(key)) return false;
          await redis.set(key, '1');
          return true;
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 5,
          suggestions: [
            {
              messageId: 'addNx',
              output: `
        import Redis from 'ioredis';
        async function once(key) {
          if (await redis.get(key)) return false;
          await redis.set(key, '1', 'NX');
          return true;
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'the near miss of a default set when missing: a marker whose branch answers the caller is a once helper',
      code: `
        import Redis from 'ioredis';
        const redis = new Redis();
        export async function firstTime(key) {
          const seen = await redis.get(key);
          if (!seen) {
            await redis.set(key, '1');
            return true;
          }
          return false;
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 7,
          suggestions: [
            {
              messageId: 'addNx',
              output: `
        import Redis from 'ioredis';
        const redis = new Redis();
        export async function firstTime(key) {
          const seen = await redis.get(key);
          if (!seen) {
            await redis.set(key, '1', 'NX');
            return true;
          }
          return false;
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'node-redis takes NX as an option',
      code: `
        import { createClient } from 'redis';
        async function once(key) {
          const seen = await client.exists(key);
          if (seen === 1) return;
          await client.set(key, '1', { EX: 60 });
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 6,
          suggestions: [
            {
              messageId: 'addNx',
              output: `
        import { createClient } from 'redis';
        async function once(key) {
          const seen = await client.exists(key);
          if (seen === 1) return;
          await client.set(key, '1', { NX: true, EX: 60 });
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'postgres.js tagged templates',
      code: `
        async function claim(id) {
          const [row] = await sql\`SELECT 1 FROM inbox WHERE message_id = \${id}\`;
          if (!row) await sql\`INSERT INTO inbox (message_id) VALUES (\${id})\`;
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 4,
          suggestions: [
            {
              messageId: 'addOnConflict',
              output: `
        async function claim(id) {
          const [row] = await sql\`SELECT 1 FROM inbox WHERE message_id = \${id}\`;
          if (!row) await sql\`INSERT INTO inbox (message_id) VALUES (\${id}) ON CONFLICT DO NOTHING\`;
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'knex held by a class',
      code: `
        class Ledger {
          constructor(knex) { this.knex = knex; }
          async record(providerTxId, amount) {
            const existing = await this.knex('transactions').where({ providerTxId }).first();
            if (!existing) await this.knex('transactions').insert({ providerTxId, amount });
          }
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 6 }],
    },
    {
      name: 'a SELECT … FOR UPDATE on the same table locks no row that does not exist yet',
      code: `
        async function claim(client, id) {
          const { rows } = await client.query('SELECT 1 FROM inbox WHERE message_id = $1 FOR UPDATE', [id]);
          if (rows.length === 0) await client.query('INSERT INTO inbox (message_id) VALUES ($1)', [id]);
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 4,
          suggestions: [
            {
              messageId: 'addOnConflict',
              output: `
        async function claim(client, id) {
          const { rows } = await client.query('SELECT 1 FROM inbox WHERE message_id = $1 FOR UPDATE', [id]);
          if (rows.length === 0) await client.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'DynamoDB: GetCommand, then a plain PutCommand when nothing was found',
      code: `
        import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
        async function claim(id) {
          const { Item } = await client.send(new GetCommand({ TableName: 'inbox', Key: { pk: id } }));
          if (Item) return false;
          await client.send(new PutCommand({ TableName: 'inbox', Item: { pk: id } }));
          return true;
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 6,
          data: {
            write: 'the DynamoDB PutCommand on inbox',
            read: 'a DynamoDB GetCommand on inbox',
            line: '4',
            remedy: dynamoRemedy,
          },
          suggestions: [],
        },
      ],
    },
    {
      name: 'DynamoDB near miss: a ConditionExpression on the status does not refuse an existing item',
      code: `
        import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
        async function claim(id) {
          const { Item } = await client.send(new GetCommand({ TableName: 'inbox', Key: { pk: id } }));
          if (Item) return;
          await client.send(new PutCommand({
            TableName: 'inbox',
            Item: { pk: id, status: 'pending' },
            ConditionExpression: '#status = :pending',
            ExpressionAttributeNames: { '#status': 'status' },
          }));
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 6 }],
    },
    {
      name: 'DynamoDB DocumentClient v2: get(…).promise(), then put(…).promise()',
      code: `
        const AWS = require('aws-sdk');
        const docClient = new AWS.DynamoDB.DocumentClient();
        exports.handler = async (event) => {
          for (const record of event.Records) {
            const seen = await docClient.get({ TableName: process.env.INBOX_TABLE, Key: { pk: record.messageId } }).promise();
            if (seen.Item) continue;
            await docClient.put({ TableName: process.env.INBOX_TABLE, Item: { pk: record.messageId } }).promise();
          }
        };`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 8,
          data: {
            write: 'the DynamoDB put() on process.env.INBOX_TABLE',
            read: 'a DynamoDB get() on process.env.INBOX_TABLE',
            line: '6',
            remedy: dynamoRemedy,
          },
        },
      ],
    },
    {
      name: 'MongoDB: findOne, then insertOne when nothing was found',
      code: `
        import { MongoClient } from 'mongodb';
        const inbox = client.db('app').collection('inbox');
        async function claim(id) {
          const seen = await inbox.findOne({ messageId: id });
          if (!seen) await inbox.insertOne({ messageId: id, seenAt: new Date() });
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 6,
          data: {
            write: 'the MongoDB insertOne() on inbox',
            read: 'a MongoDB findOne() on inbox',
            line: '5',
            remedy:
              'updateOne(filter, { $setOnInsert: … }, { upsert: true }) on a unique key and check upsertedCount, or insertOne and treat error 11000 as the duplicate',
          },
        },
      ],
    },
    {
      name: 'Firestore: a query for the event id, then add() when nothing was found',
      code: `
        import Stripe from 'stripe';
        import { getFirestore } from 'firebase-admin/firestore';
        const db = getFirestore();
        const stripe = new Stripe(process.env.STRIPE_KEY);
        export async function POST(req) {
          const event = stripe.webhooks.constructEvent(await req.text(), req.headers.get('stripe-signature'), secret);
          const seen = await db.collection('processed_events').where('eventId', '==', event.id).limit(1).get();
          if (!seen.empty) return new Response('seen');
          await db.collection('processed_events').add({ eventId: event.id });
          await db.collection('credits').add({ customer: event.data.object.customer, amount: 5 });
          return new Response('ok');
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 10,
          data: {
            write: 'the Firestore add() on processed_events',
            read: 'a Firestore get() on processed_events',
            line: '8',
            remedy: firestoreRemedy,
          },
        },
      ],
    },
    {
      name: "Firestore near miss: the check in runTransaction, but the write is not the transaction's",
      code: `
        import Stripe from 'stripe';
        import { getFirestore } from 'firebase-admin/firestore';
        const db = getFirestore();
        const stripe = new Stripe(process.env.STRIPE_KEY);
        export async function POST(req) {
          const event = stripe.webhooks.constructEvent(await req.text(), req.headers.get('stripe-signature'), secret);
          await db.runTransaction(async (t) => {
            const seen = await t.get(db.collection('processed_events').where('eventId', '==', event.id).limit(1));
            if (!seen.empty) return;
            await db.collection('processed_events').add({ eventId: event.id });
          });
          return new Response('ok');
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 11,
          data: {
            write: 'the Firestore add() on processed_events',
            read: 'a Firestore transaction get() on processed_events',
            line: '9',
            remedy: firestoreRemedy,
          },
        },
      ],
    },
    {
      name: 'Firestore, modular SDK: getDocs of a query, then addDoc when it came back empty',
      code: `
        import Stripe from 'stripe';
        import { getFirestore, collection, query, where, getDocs, addDoc } from 'firebase/firestore';
        const db = getFirestore();
        const stripe = new Stripe(process.env.STRIPE_KEY);
        export async function POST(req) {
          const event = stripe.webhooks.constructEvent(await req.text(), req.headers.get('stripe-signature'), secret);
          const sessionId = event.data.object.id;
          const found = await getDocs(query(collection(db, 'orders'), where('sessionId', '==', sessionId)));
          if (found.empty) await addDoc(collection(db, 'orders'), { sessionId, status: 'paid' });
          return new Response('ok');
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 10,
          data: {
            write: 'the Firestore addDoc() on orders',
            read: 'a Firestore getDocs() on orders',
            line: '9',
            remedy: firestoreRemedy,
          },
        },
      ],
    },
    {
      name: 'Redis by command shape: an injected client whose SET takes EX, after its GET',
      code: `
        class Dedupe {
          constructor(store) { this.store = store; }
          async once(key) {
            if (await this.store.get(key)) return false;
            await this.store.set(key, '1', 'EX', 60);
            return true;
          }
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 6,
          data: {
            write: "the Redis SET of 'key'",
            read: "the Redis GET of 'key'",
            line: '5',
            remedy: 'SET … NX and check its reply',
          },
          suggestions: [
            {
              messageId: 'addNx',
              output: `
        class Dedupe {
          constructor(store) { this.store = store; }
          async once(key) {
            if (await this.store.get(key)) return false;
            await this.store.set(key, '1', 'EX', 60, 'NX');
            return true;
          }
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'Redis: GET, then a plain SET queued on a pipeline',
      code: `
        import Redis from 'ioredis';
        async function once(key) {
          if (await redis.get(key)) return;
          await redis.pipeline().set(key, '1').expire(key, 60).exec();
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 5,
          suggestions: [
            {
              messageId: 'addNx',
              output: `
        import Redis from 'ioredis';
        async function once(key) {
          if (await redis.get(key)) return;
          await redis.pipeline().set(key, '1', 'NX').expire(key, 60).exec();
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'MikroORM: findOne, then create and persistAndFlush',
      code: `
        import { EntityManager } from '@mikro-orm/core';
        class InboxService {
          constructor(private readonly em: EntityManager) {}
          async claim(messageId: string) {
            const seen = await this.em.findOne(ProcessedMessage, { messageId });
            if (seen) return false;
            const row = this.em.create(ProcessedMessage, { messageId });
            await this.em.persistAndFlush(row);
            return true;
          }
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 8,
          data: {
            write: 'the MikroORM create() of ProcessedMessage',
            read: 'a MikroORM findOne() of ProcessedMessage',
            line: '6',
            remedy:
              "em.upsert(…, { onConflictAction: 'ignore' }) on a unique key, or insert and treat UniqueConstraintViolationException as the duplicate",
          },
        },
      ],
    },
    {
      name: 'Objection: findOne, then insert, on a model imported from the app',
      code: `
        import { ProcessedEvent } from '../models/processed-event';
        export async function handle(event) {
          const seen = await ProcessedEvent.query().findOne({ eventId: event.id });
          if (seen) return;
          await ProcessedEvent.query().insert({ eventId: event.id });
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 6,
          data: {
            write: 'the Objection insert into ProcessedEvent',
            read: 'an Objection findOne on ProcessedEvent',
            line: '4',
            remedy:
              '.insert(…).onConflict(…).ignore() and check what it returns, or insert and treat the unique violation as the duplicate',
          },
        },
      ],
    },
    {
      name: 'Objection: where().first(), then upsertGraph, which inserts in application code',
      code: `
        import { Model } from 'objection';
        import { Refund } from './models';
        async function record(refundId, cents) {
          const existing = await Refund.query().where({ refundId }).first();
          if (!existing) await Refund.query().upsertGraph({ refundId, cents }, { insertMissing: true });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 6 }],
    },
  ],
});

/** A BullMQ worker that records a client's tracker event unless `recent` finds one like it. */
const trackerWorker = (recent: string) => `
  import { Worker } from 'bullmq';
  export const worker = new Worker('tracker', async (job) => {
    const { userId, eventId } = job.data;
    const seen = await prisma.bizEvent.findFirst({ where: { userId, eventId${recent} } });
    if (seen) return;
    await prisma.bizEvent.create({ data: { userId, eventId } });
  });`;

/** A BullMQ worker that records a refund once, inside a try whose catch is `handler`. */
const refundWorker = (handler: string) => `
  import { Worker } from 'bullmq';
  export const worker = new Worker('refunds', async (job) => {
    try {
      const existing = await prisma.refund.findFirst({ where: { stripeRefundId: job.data.refundId } });
      if (existing) return;
      await prisma.refund.create({ data: { stripeRefundId: job.data.refundId, amount: job.data.amount } });
    } catch (error) {
      ${handler}
    }
  });`;

ruleTester.run('no-check-then-insert', noCheckThenInsert, {
  valid: [
    {
      name: 'a look for a like row of the last three seconds: a window that spaces repeats out, which no unique key can say',
      code: trackerWorker(', createdAt: { gte: new Date(Date.now() - 3000) }'),
    },
    {
      name: 'the catch takes the unique violation as the duplicate',
      code: refundWorker("if (error.code === 'P2002') return; throw error;"),
    },
    {
      name: "Mongoose: looked up by _id, then created with that _id: MongoDB's primary key settles the race",
      code: `
        import mongoose from 'mongoose';
        export async function onGroupCreated(data) {
          const group = await Group.findOne({ _id: data.id });
          if (group) return;
          await Group.create({ _id: data.id, businessId: data.businessId });
        }`,
    },
    {
      name: 'Mongoose: a claim by _id, made by create with that _id',
      code: `
        import mongoose from 'mongoose';
        async function claim(id) {
          const exists = await Processed.findOne({ _id: id });
          return exists || Processed.create({ _id: id });
        }`,
    },
    {
      name: 'Mongoose: findById of the document’s own _id, then the document created whole, in a job',
      filename: 'src/jobs/subscribers.ts',
      code: `
        import mongoose from 'mongoose';
        export async function upsertGroup(data) {
          if (await Group.findById(data._id)) return;
          await Group.create(data);
        }`,
    },
    {
      name: 'Mongoose: findById of a chat’s _id, then a document created from the chat spread, in a job',
      filename: 'src/jobs/chats.ts',
      code: `
        import mongoose from 'mongoose';
        export async function onFirstMessage(dto) {
          if (await Chat.findById(dto.chat._id)) return;
          await Chat.create({ members: [], ...dto.chat, type: 'customer' });
        }`,
    },
    {
      name: 'Mongoose: findById, then created with that _id',
      code: `
        import mongoose from 'mongoose';
        export async function onMigrated(dto) {
          if (await Connection.findById(dto.uuid)) return;
          await Connection.create({ _id: dto.uuid, name: dto.name });
        }`,
    },
  ],
  invalid: [
    {
      name: 'near miss: a look for a like row since a date the job was given, not a window back from now',
      code: trackerWorker(', createdAt: { gte: job.data.since }'),
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 7,
          suggestions: [
            {
              messageId: 'catchUniqueViolation',
              output: trackerWorker(', createdAt: { gte: job.data.since }').replace(
                'await prisma.bizEvent.create({ data: { userId, eventId } });',
                `try {
      await prisma.bizEvent.create({ data: { userId, eventId } });
    } catch (error) {
      // P2002 is the duplicate: a unique key refused the second row (add @@unique([userId, eventId]) to model BizEvent).
      if ((error as { code?: string }).code !== 'P2002') throw error;
    }`,
              ),
            },
          ],
        },
      ],
    },
    {
      name: 'near miss: a catch whose comment speaks of duplicates but whose code takes none as done',
      code: refundWorker(
        '// Never fail the job: a retry would lead to duplicate processing.\n      logger.error(error);',
      ),
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 7,
          suggestions: [
            {
              messageId: 'catchUniqueViolation',
              output: refundWorker(
                '// Never fail the job: a retry would lead to duplicate processing.\n      logger.error(error);',
              ).replace(
                'await prisma.refund.create({ data: { stripeRefundId: job.data.refundId, amount: job.data.amount } });',
                `try {
        await prisma.refund.create({ data: { stripeRefundId: job.data.refundId, amount: job.data.amount } });
      } catch (error) {
        // P2002 is the duplicate: a unique key refused the second row (add @unique to field Refund.stripeRefundId).
        if ((error as { code?: string }).code !== 'P2002') throw error;
      }`,
              ),
            },
          ],
        },
      ],
    },
    {
      name: 'near miss: the chat spread, then another _id written over it, in a job',
      filename: 'src/jobs/chats.ts',
      code: `
        import mongoose from 'mongoose';
        export async function onFirstMessage(dto) {
          if (await Chat.findById(dto.chat._id)) return;
          await Chat.create({ ...dto.chat, _id: dto.chat.threadId });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 5 }],
    },
    {
      name: 'near miss: findById of another id the document holds, then the document created whole, in a job',
      filename: 'src/jobs/subscribers.ts',
      code: `
        import mongoose from 'mongoose';
        export async function upsertGroup(data) {
          if (await Group.findById(data.parentId)) return;
          await Group.create(data);
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 5 }],
    },
    {
      name: 'near miss: a claim by _id in a store whose tables have no built-in _id key (Sequelize)',
      code: `
        import { Model } from 'sequelize';
        async function claim(id) {
          const exists = await Processed.findOne({ where: { _id: id } });
          return exists || Processed.create({ _id: id });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 5 }],
    },
  ],
});

/** A Mongoose consumer that makes a user's notification state when it has none, then reads it. */
const notifyState = (row: string, after = '') => `
  import mongoose from 'mongoose';
  export async function checkLimits(counts) {
    const user_id = counts.user_id;
    const entry = await LimitNotify.findOne({ user_id });
    if (!entry) {
      await LimitNotify.create({ user_id, ${row} });
      ${after}
    }
    return LimitNotify.findOne({ user_id });
  }`;

/** A referral recorded when its code is new, then the referrer's balance given its bonus. */
const referral = (balance: string) => `
  import { Model } from 'sequelize';
  export async function redeem(code, user) {
    if (await Referral.findOne({ where: { code } })) return;
    await Referral.create({ code, userId: user.id });
    await User.update({ balance: ${balance} }, { where: { id: user.id } });
  }`;

/** A route under webhooks/ that saves what it is given, after looking for the same. */
const webhooksRoute = (model: string) => `
  const prisma = new PrismaClient();
  export async function register(input) {
    const existing = await prisma.${model}.findFirst({ where: { urlHash: input.urlHash } });
    if (existing) throw new Error('exists');
    return prisma.${model}.create({ data: { urlHash: input.urlHash, url: input.url } });
  }`;

ruleTester.run('no-check-then-insert', noCheckThenInsert, {
  valid: [
    {
      name: 'a row of starting values made when missing, in a consumer: a second copy holds the same defaults',
      filename: 'consumer/src/limits.ts',
      code: notifyState('limit1: false, limit2: false, sent: 0'),
    },
    {
      name: 'a bonus set, not added to the balance it had: a second run sets the same',
      filename: 'src/routes/referrals.ts',
      code: referral('10'),
    },
    {
      name: "a route under webhooks/ that saves a webhook's endpoint is that resource's API, not a delivery",
      filename: 'src/routes/api/webhooks/index.ts',
      code: webhooksRoute('webhookEndpoint'),
    },
  ],
  invalid: [
    {
      name: 'near miss: the row made when missing holds a status, a step of work',
      filename: 'consumer/src/limits.ts',
      code: notifyState("status: 'pending'"),
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
    {
      name: 'near miss: the check lets an email go after the row of starting values',
      filename: 'consumer/src/limits.ts',
      code: notifyState('limit1: false', 'await mailer.send({ to: user_id });'),
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
    {
      name: 'near miss: the bonus added to the balance read before, outside a delivery',
      filename: 'src/routes/referrals.ts',
      code: referral('user.balance + 10'),
      errors: [{ messageId: 'checkThenInsert', line: 5 }],
    },
    {
      name: 'near miss: the same route under webhooks/ saving a notification handles a delivery',
      filename: 'src/routes/api/webhooks/index.ts',
      code: webhooksRoute('notification'),
      errors: [{ messageId: 'checkThenInsert', line: 6 }],
    },
    {
      name: 'a TypeORM repository held in a variable saves a row: an insert, not an entity saving itself',
      filename: 'src/workers/purchases.ts',
      code: `
        import { getRepository } from 'typeorm';
        export async function record(receipt) {
          const purchases = getRepository(Purchase);
          if (await purchases.findOne({ transactionId: receipt.id })) return;
          await purchases.save({ transactionId: receipt.id, quantity: 1 });
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 6,
          suggestions: [
            {
              messageId: 'catchUniqueViolation',
              data: {
                key: "@Unique(['transactionId']) to entity Purchase",
                code: 'QueryFailedError 23505 or ER_DUP_ENTRY',
              },
              output: `
        import { getRepository, QueryFailedError } from 'typeorm';
        export async function record(receipt) {
          const purchases = getRepository(Purchase);
          if (await purchases.findOne({ transactionId: receipt.id })) return;
          try {
            await purchases.save({ transactionId: receipt.id, quantity: 1 });
          } catch (error) {
            // 23505 or ER_DUP_ENTRY is the duplicate: a unique key refused the second row (add @Unique(['transactionId']) to entity Purchase).
            if (!(error instanceof QueryFailedError) || !['23505', 'ER_DUP_ENTRY'].includes((error.driverError as { code?: string }).code ?? '')) throw error;
          }
        }`,
            },
          ],
        },
      ],
    },
  ],
});

/** A shop's route that adds a row when the check finds none, with the MongoDB driver. */
const shopRoute = (collection: string, filter: string) => `
  import { MongoClient } from 'mongodb';
  export async function add(db, body) {
    const count = await db.collection('${collection}').countDocuments(${filter});
    if (count === 0) await db.collection('${collection}').insertOne({ ref: body.ref, name: body.name, total: body.total });
  }`;

ruleTester.run('no-check-then-insert', noCheckThenInsert, {
  valid: [
    {
      name: 'MongoDB: a count of any document (`{}`) makes a row when the collection is empty, once per deployment',
      filename: 'src/routes/orders.ts',
      code: shopRoute('orders', '{}'),
    },
    {
      name: "a shop's payment methods say how money may move, not that it moved",
      filename: 'src/routes/orders.ts',
      code: shopRoute('paymentMethods', '{ name: body.name }'),
    },
  ],
  invalid: [
    {
      name: 'near miss: MongoDB: a count of the orders of one reference, then the order',
      filename: 'src/routes/orders.ts',
      code: shopRoute('orders', '{ ref: body.ref }'),
      errors: [{ messageId: 'checkThenInsert', line: 5 }],
    },
    {
      name: 'near miss: payments, not their methods',
      filename: 'src/routes/orders.ts',
      code: shopRoute('payments', '{ name: body.name }'),
      errors: [{ messageId: 'checkThenInsert', line: 5 }],
    },
  ],
});

/** A handler written as a promise chain: the look hands its row to `then`, whose callback is `callback`. */
const chainedLook = (callback: string) => `
  import { ProcessedEvent } from '../models/processed-event';
  export function handle(event) {
    return ProcessedEvent.query()
      .findOne({ eventId: event.id })
      .then(${callback});
  }`;

ruleTester.run('no-check-then-insert (promise chains)', noCheckThenInsert, {
  valid: [
    {
      name: 'the callback tests something other than the row it is handed',
      code: chainedLook(`(seen) => {
        if (event.replayed) return undefined;
        return ProcessedEvent.query().insert({ eventId: event.id });
      }`),
    },
    {
      name: 'the insert settles duplicates itself, and its result decides',
      code: chainedLook(`(seen) => {
        if (seen) return undefined;
        return ProcessedEvent.query().insert({ eventId: event.id }).onConflict('eventId').ignore();
      }`),
    },
  ],
  invalid: [
    {
      name: 'the row handed to then is tested, and the insert runs when there is none',
      code: chainedLook(`(seen) => {
        if (seen) return undefined;
        return ProcessedEvent.query().insert({ eventId: event.id });
      }`),
      errors: [{ messageId: 'checkThenInsert', line: 8 }],
    },
    {
      name: 'a function expression, the insert on the branch where nothing was found',
      code: chainedLook(`function (seen) {
        if (!seen) return ProcessedEvent.query().insert({ eventId: event.id });
        return seen;
      }`),
      errors: [{ messageId: 'checkThenInsert', line: 7 }],
    },
  ],
});

/** A route that records a row of `table` with `fields` unless a look by `filter` finds one: outside a delivery, only money or a seat makes the repeat count. */
const recordRoute = (table: string, filter: string, fields: string) => `
  import { PrismaClient } from '@prisma/client';
  const prisma = new PrismaClient();
  export async function POST(request) {
    const body = await request.json();
    const found = await prisma.${table}.findFirst({ where: ${filter} });
    if (found) return Response.json(found);
    return Response.json(await prisma.${table}.create({ data: ${fields} }));
  }`;

ruleTester.run('no-check-then-insert (what the write holds)', noCheckThenInsert, {
  valid: [
    {
      name: 'the insert shows all it writes and leaves out the column the look matched on a value from the request: never the row looked for',
      code: recordRoute(
        'payment',
        '{ paymentRequest: body.paymentRequest, tenant: body.tenant }',
        '{ tenant: body.tenant, amount: body.amount, status: "confirmed" }',
      ),
    },
    {
      name: 'an amount written as zero moves no money: a bot with no price per use',
      code: recordRoute(
        'chatBot',
        '{ chatId: body.chatId, prefix: "/badge" }',
        '{ chatId: body.chatId, prefix: "/badge", pricePerUse: 0 }',
      ),
    },
    {
      name: "an order's history keeps its past states: a second entry moves nothing",
      code: recordRoute(
        'orderHistory',
        '{ orderId: body.orderId, state: body.state }',
        '{ orderId: body.orderId, state: body.state }',
      ),
    },
  ],
  invalid: [
    {
      name: 'near miss: in a worker, a look that never finds what the insert writes stops no redelivery from inserting again',
      code: `
        import { Worker } from 'bullmq';
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        new Worker('invoices', async (job) => {
          const pending = await prisma.invoice.findFirst({ where: { invoiceId: job.data.invoiceId, status: 'PENDING' } });
          if (pending) return prisma.invoice.update({ where: { id: pending.id }, data: { status: 'PAID' } });
          return prisma.invoice.create({ data: { membershipId: job.data.membershipId, amount: job.data.amount, status: 'PAID' } });
        });`,
      errors: [{ messageId: 'checkThenInsert', line: 8 }],
    },
    {
      name: 'near miss: the insert writes the column the look matched on',
      code: recordRoute(
        'payment',
        '{ paymentRequest: body.paymentRequest, tenant: body.tenant }',
        '{ paymentRequest: body.paymentRequest, tenant: body.tenant, amount: body.amount }',
      ),
      errors: [{ messageId: 'checkThenInsert', line: 8 }],
    },
    {
      name: 'near miss: the insert does not show all it writes (a spread may hold the column left out)',
      code: recordRoute(
        'payment',
        '{ paymentRequest: body.paymentRequest, tenant: body.tenant }',
        '{ tenant: body.tenant, ...body.extra }',
      ),
      errors: [{ messageId: 'checkThenInsert', line: 8 }],
    },
    {
      name: 'near miss: a price the request sets',
      code: recordRoute(
        'chatBot',
        '{ chatId: body.chatId, prefix: "/badge" }',
        '{ chatId: body.chatId, prefix: "/badge", pricePerUse: body.price }',
      ),
      errors: [{ messageId: 'checkThenInsert', line: 8 }],
    },
    {
      name: 'near miss: the order itself, not its history',
      code: recordRoute('order', '{ cartId: body.cartId }', '{ cartId: body.cartId, userId: body.userId }'),
      errors: [{ messageId: 'checkThenInsert', line: 8 }],
    },
    {
      name: 'near miss: a history that carries an amount is a ledger',
      code: recordRoute(
        'paymentHistory',
        '{ orderId: body.orderId }',
        '{ orderId: body.orderId, amount: body.amount }',
      ),
      errors: [{ messageId: 'checkThenInsert', line: 8 }],
    },
  ],
});
