import { describe, expect, it } from 'vitest';

import { noClaimAfterEffect } from '../../../eslint-plugin/src/rules/no-claim-after-effect.js';
import { ruleTester } from '../rule-tester.js';
import { lintProject } from '../support/project.js';

/** A job's loop that marks each transaction seen only after it has POSTed it to `url`. */
const catchUpJob = (url: string) => `
  import { createClient } from 'redis';
  import got from 'got';
  const db = createClient();
  export async function catchUp(txns) {
    for (const { txid } of txns) {
      if (await db.zScore('seen', txid)) continue;
      await got.post(\`${url}\`, { json: { txid } });
      await db.zAdd('seen', { score: Date.now(), value: txid });
    }
  }`;

/** A job that marks a collection with key `name` for ten minutes after work it cannot see into. */
const markedAfterWork = (name: string) => `
  import Redis from 'ioredis';
  import { Worker } from 'bullmq';
  import { tokenSets } from './token-sets';
  const redis = new Redis();
  export const worker = new Worker('mints', async (job) => {
    const key = \`${name}:\${job.data.collection}\`;
    if (!(await redis.get(key))) {
      await tokenSets.save(job.data.collection);
      await redis.set(key, 'locked', 'EX', 600);
    }
  });`;

/** A consumer whose helper sends a message with the id `eventId` (in its JSON payload) before the inbox claim. */
const reserveThenClaim = (eventId: string) => `
  import { Kafka } from 'kafkajs';
  import { randomUUID } from 'node:crypto';
  const producer = new Kafka({ brokers: [] }).producer();
  async function reserveStock(order) {
    await producer.send({
      topic: 'reserve-stock',
      messages: [{ key: order.orderId, value: JSON.stringify({ orderId: order.orderId, eventId: ${eventId} }) }],
    });
  }
  async function handle(db, order) {
    const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
    if (handled.rows.length > 0) return;
    await reserveStock(order);
    await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
  }`;

/** A saga's consumer that checks its inbox, advances the saga through a helper, then claims the event. */
const advanceThenClaim = (write: string) => `
  import { Kafka } from 'kafkajs';
  import { PrismaClient } from '@prisma/client';
  const prisma = new PrismaClient();
  const consumer = new Kafka({ brokers: [] }).consumer({ groupId: 'saga' });
  async function advanceSaga(event) {
    ${write}
  }
  await consumer.run({
    eachMessage: async ({ message }) => {
      const event = JSON.parse(message.value.toString());
      const processed = await prisma.processedEvent.findUnique({ where: { eventId: event.eventId } });
      if (processed) return;
      await advanceSaga(event);
      await prisma.processedEvent.create({ data: { eventId: event.eventId } });
    },
  });`;

ruleTester.run('no-claim-after-effect', noClaimAfterEffect, {
  valid: [
    {
      name: "a helper that sets the saga's state, every field shown, before the claim: a repeat leaves the row as the first run did",
      code: advanceThenClaim(
        "await prisma.saga.update({ where: { orderId: event.orderId }, data: { status: 'STOCK_RESERVED', currentStep: 'CHARGING_PAYMENT' } });",
      ),
    },
    {
      name: "outside a delivery, an invitation whose claim is ignored: a second audit row is the owner's own double submit",
      code: `
        export async function inviteMember(db, orgId, email) {
          const seen = await db.query('SELECT 1 FROM invites WHERE org_id = $1 AND email = $2', [orgId, email]);
          if (seen.rows.length > 0) return;
          await db.query('INSERT INTO invites (org_id, email) VALUES ($1, $2) ON CONFLICT (org_id, email) DO NOTHING', [orgId, email]);
          await db.query('INSERT INTO audit_events (action, email) VALUES ($1, $2)', ['invite', email]);
        }`,
    },
    {
      name: 'a failed message copied to its dead letter stream, then its id marked: a second copy repeats nothing',
      code: `
        import { createClient } from 'redis';
        const client = createClient();
        async function deadLetter(stream, message) {
          const deadLetterStream = \`\${stream}:dead-letter\`;
          if (await client.sIsMember(\`moved:\${stream}\`, message.id)) return;
          await client.xAdd(deadLetterStream, '*', message.message);
          await client.sAdd(\`moved:\${stream}\`, message.id);
        }`,
    },
    {
      name: "a message whose own id is made from the operation, sent by a helper before the claim: its consumers refuse the repeat's copy",
      code: reserveThenClaim('`reserve-stock-${order.orderId}`'),
    },
    {
      name: "outside a delivery, an invitation emailed before the invited user's row: only an admin's second click repeats it, and a second email moves nothing",
      code: `
        export async function invite(db, email, workspaceId) {
          const found = await db.query('SELECT 1 FROM users WHERE email = $1', [email]);
          if (found.rows.length > 0) throw new Error('already a member');
          await sendInvitationEmail(email, workspaceId);
          await db.query('INSERT INTO users (email, workspace_id) VALUES ($1, $2)', [email, workspaceId]);
        }`,
    },
    {
      name: "Firestore near miss: the event's document is created before the refund, and a repeat's create() fails",
      code: `
        import Stripe from 'stripe';
        import { getFirestore } from 'firebase-admin/firestore';
        const db = getFirestore();
        const stripe = new Stripe(process.env.STRIPE_KEY);
        export async function POST(req) {
          const event = stripe.webhooks.constructEvent(await req.text(), req.headers.get('stripe-signature'), secret);
          const ref = db.collection('processed_events').doc(event.id);
          if ((await ref.get()).exists) return new Response('seen');
          await ref.create({ at: Date.now() });
          await stripe.refunds.create({ charge: event.data.object.id });
          return new Response('ok');
        }`,
    },
    {
      name: 'Convex: the check, the credit and the record in one mutation, which Convex runs as one serialisable transaction',
      code: `
        import { internalMutation } from './_generated/server';
        import { v } from 'convex/values';
        export const handle = internalMutation({
          args: { eventId: v.string(), userId: v.id('users') },
          handler: async (ctx, args) => {
            const seen = await ctx.db.query('processed_events').withIndex('by_event', (q) => q.eq('eventId', args.eventId)).unique();
            if (seen) return;
            await ctx.db.patch(args.userId, { credits: 10 });
            await ctx.db.insert('processed_events', { eventId: args.eventId });
          },
        });`,
    },
    {
      name: 'Sequelize: the work and the record are given the same transaction as an option',
      code: `
        import { Sequelize } from 'sequelize';
        async function connect(sequelize, user, url) {
          await sequelize.transaction(async (transaction) => {
            const existing = await Integration.findOne({ where: { teamId: user.teamId, url }, transaction });
            if (existing) return;
            const auth = await IntegrationAuthentication.create({ userId: user.id }, { transaction });
            await Integration.create({ teamId: user.teamId, url, authenticationId: auth.id }, { transaction });
          });
        }`,
    },
    {
      name: 'work in a branch that leaves before the record does not run on its way',
      code: `
        async function handle(redis, token, order) {
          const clickId = await redis.hget('checkout:' + token, 'clickId');
          if (clickId === '') {
            await redis.del('checkout:' + token);
            return;
          }
          if (clickId) return;
          await redis.hset('checkout:' + token, { order });
        }`,
    },
    {
      name: 'a call awaited only to ask or wait is no work',
      code: `
        async function handle(db, order) {
          const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
          if (handled.rows.length > 0) return;
          await assertWithinLimits(order.account);
          await sleep(10);
          await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
        }`,
    },
    {
      name: 'claim first: the ON CONFLICT claim is the check, and its result gates the credit',
      code: `
        async function handle(db, order) {
          const claim = await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING message_id', [order.id]);
          if (claim.rows.length === 0) return false;
          await db.query('INSERT INTO effects (effect_id, amount) VALUES ($1, $2)', [order.cashbackId, order.cents]);
          return true;
        }`,
    },
    {
      name: 'the credit and the record share the transaction of the Prisma callback',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        async function handle(event) {
          await prisma.$transaction(async (tx) => {
            const seen = await tx.processedEvent.findUnique({ where: { eventId: event.id } });
            if (seen) return;
            await tx.payment.create({ data: { orderId: event.orderId, cents: event.cents } });
            await tx.processedEvent.create({ data: { eventId: event.id } });
          });
        }`,
    },
    {
      name: 'the external call carries its own idempotency key, so the record after it is bookkeeping',
      code: `
        async function handle(db, stripe, refund) {
          const done = await db.query('SELECT 1 FROM refunds_sent WHERE refund_id = $1', [refund.id]);
          if (done.rows.length > 0) return;
          await stripe.refunds.create({ payment_intent: refund.paymentIntent }, { idempotencyKey: refund.id });
          await db.query('INSERT INTO refunds_sent (refund_id) VALUES ($1) ON CONFLICT DO NOTHING', [refund.id]);
        }`,
    },
    {
      name: "a PayPal payout carries PayPal's own key, sender_batch_id, in its batch header: PayPal refuses the second batch, so the record after it is bookkeeping",
      code: `
        import paypal from 'paypal-rest-sdk';
        async function payOut(db, payout) {
          const done = await db.query('SELECT 1 FROM payouts_sent WHERE payout_id = $1', [payout.id]);
          if (done.rows.length > 0) return;
          const body = {
            sender_batch_header: { sender_batch_id: payout.id, email_subject: 'Your payout' },
            items: [{ recipient_type: 'EMAIL', receiver: payout.email, amount: payout.amount }],
          };
          await paypal.payout.create(body);
          await db.query('INSERT INTO payouts_sent (payout_id) VALUES ($1) ON CONFLICT DO NOTHING', [payout.id]);
        }`,
    },
    {
      name: "the project's own helpers open and commit the transaction on the client: the work before the record is taken back with it",
      code: `
        async function applyOps(conn, ops) {
          for (const op of ops) await conn.query('INSERT INTO widget (uuid) VALUES ($1)', [op.uuid]);
        }
        export async function install(pool, themeId, ops) {
          const conn = await pool.connect();
          await startTransaction(conn);
          const state = await conn.query('SELECT snapshot FROM theme_state WHERE theme = $1', [themeId]);
          if (state.rows.length === 0) {
            await applyOps(conn, ops);
            await conn.query('INSERT INTO theme_state (theme, snapshot) VALUES ($1, $2)', [themeId, ops]);
          }
          await commit(conn);
        }`,
    },
    {
      name: 'a request whose 409 Conflict the code takes as done: the other system refuses the repeat, so the record after it is bookkeeping',
      code: `
        import ky from 'ky';
        export async function addDomain(name, workspaceId) {
          const existing = await prisma.customDomain.findFirst({ where: { name } });
          if (existing) throw new Error('domain taken');
          try {
            await ky.post('https://api.example.com/domains', { json: { name } });
          } catch (err) {
            if (err.response?.status !== 409) throw err;
          }
          await prisma.customDomain.create({ data: { name, workspaceId } });
        }`,
    },
    {
      name: 'a lock taken before the check: the state is read again under it',
      code: `
        import Redis from 'ioredis';
        const redis = new Redis();
        async function handle(db, order) {
          if (!(await redis.set('lock:' + order.id, '1', 'EX', 30, 'NX'))) return;
          const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
          if (handled.rows.length > 0) return;
          await db.query('INSERT INTO effects (effect_id, amount) VALUES ($1, $2)', [order.cashbackId, order.cents]);
          await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
        }`,
    },
    {
      name: 'a helper that only overwrites keys and adds set members before the record: a second run leaves the same state',
      filename: 'src/jobs/release-notes.ts',
      code: `
        import Redis from 'ioredis';
        const redis = new Redis();
        async function groupComplete(group, service) {
          await redis.set(\`group:\${group}:run:\${service}\`, service, 'EX', 3600);
          await redis.sadd(\`group:\${group}:done\`, service);
          return (await redis.scard(\`group:\${group}:done\`)) >= 3;
        }
        export const handler = async (group, service) => {
          if (await redis.get(\`notes:\${group}\`)) return;
          if (!(await groupComplete(group, service))) return;
          await redis.set(\`notes:\${group}\`, '1', 'EX', 86400);
        };`,
    },
    {
      name: 'the work before the record is an upsert, which a repeat leaves as it was',
      code: `
        async function handle(db, order) {
          const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
          if (handled.rows.length > 0) return;
          await db.query('INSERT INTO effects (effect_id, amount) VALUES ($1, $2) ON CONFLICT (effect_id) DO NOTHING', [order.cashbackId, order.cents]);
          await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
        }`,
    },
    {
      name: 'the write runs only when the row was found: not on the side the record is on',
      code: `
        async function handle(db, order) {
          const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
          if (handled.rows.length > 0) {
            await db.query('UPDATE inbox SET seen = seen + 1 WHERE message_id = $1', [order.id]);
            return;
          }
          await db.query('INSERT INTO inbox (message_id) VALUES ($1)', [order.id]);
        }`,
    },
    {
      name: 'the read is of another table than the one recorded',
      code: `
        async function handle(db, order) {
          const user = await db.query('SELECT 1 FROM users WHERE id = $1', [order.userId]);
          if (user.rows.length === 0) return;
          await db.query('INSERT INTO effects (effect_id, amount) VALUES ($1, $2)', [order.cashbackId, order.cents]);
          await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
        }`,
    },
    {
      name: 'a check then a claim whose result is ignored, with nothing else to guard, is merely redundant',
      code: `
        async function remember(db, id) {
          const known = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (known.rows.length > 0) return;
          await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
        }`,
    },
    {
      name: 'a row made to exist (look, insert it ignoring conflicts): the work after runs whatever the look found, so the look guards nothing',
      code: `
        async function pay(db, grantId, payment) {
          const grant = await db.query('SELECT 1 FROM grants WHERE id = $1', [grantId]);
          if (grant.rows.length === 0) {
            await db.query('INSERT INTO grants (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [grantId]);
          }
          await db.query('INSERT INTO payments (id, grant_id, amount) VALUES ($1, $2, $3)', [payment.id, grantId, payment.amount]);
        }`,
    },
    {
      name: 'check then insert with nothing between is no-check-then-insert, not this rule',
      code: `
        async function handle(db, order) {
          const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
          if (handled.rows.length > 0) return;
          await db.query('INSERT INTO inbox (message_id) VALUES ($1)', [order.id]);
        }`,
    },
    {
      name: 'a helper that only reads is no work',
      code: `
        async function load(db, id) {
          return db.query('SELECT * FROM orders WHERE id = $1', [id]);
        }
        async function handle(db, order) {
          const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
          if (handled.rows.length > 0) return;
          await load(db, order.id);
          await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
        }`,
    },
    {
      name: 'Set.add in a file with a queue is not a message sent',
      code: `
        import { Queue } from 'bullmq';
        async function handle(db, order, seen) {
          const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
          if (handled.rows.length > 0) return;
          seen.add(order.id);
          await db.query('INSERT INTO inbox (message_id) VALUES ($1)', [order.id]);
        }`,
    },
    {
      name: 'a table made if missing before the record changes no data a repeat would duplicate',
      code: `
        async function handle(pool, nonce) {
          const seen = await pool.query('SELECT 1 FROM processed_events WHERE event_key = $1', [nonce]);
          if (seen.rows.length > 0) return;
          await pool.query(\`CREATE TABLE IF NOT EXISTS processed_events (event_key text PRIMARY KEY, INDEX idx (event_key))\`);
          await pool.query('INSERT INTO processed_events (event_key) VALUES ($1)', [nonce]);
        }`,
    },
    {
      name: 'pg: BEGIN and COMMIT sent on one client make the payment and the record one transaction',
      code: `
        async function handle(pool, event) {
          const client = await pool.connect();
          const seen = await client.query('SELECT 1 FROM processed_events WHERE event_key = $1', [event.key]);
          if (seen.rows.length > 0) return;
          await client.query('BEGIN');
          await client.query('INSERT INTO payments (order_id, amount) VALUES ($1, $2)', [event.orderId, event.amount]);
          await client.query('INSERT INTO processed_events (event_key) VALUES ($1)', [event.key]);
          await client.query('COMMIT');
        }`,
    },
    {
      name: 'mysql2: beginTransaction() and commit() on one connection',
      code: `
        async function handle(pool, event) {
          const connection = await pool.getConnection();
          const [found] = await connection.execute('SELECT id FROM processed WHERE id = ?', [event.id]);
          if (found.length > 0) return;
          await connection.beginTransaction();
          await connection.execute('INSERT INTO notifications (user_id) VALUES (?)', [event.userId]);
          await connection.execute('INSERT INTO processed (id) VALUES (?)', [event.id]);
          await connection.commit();
        }`,
    },
    {
      name: "Prisma's array $transaction runs the payment and the record as one",
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        async function handle(event) {
          const seen = await prisma.processedEvent.findUnique({ where: { eventId: event.id } });
          if (seen) return;
          await prisma.$transaction([
            prisma.payment.create({ data: { orderId: event.orderId, cents: event.cents } }),
            prisma.processedEvent.create({ data: { eventId: event.id } }),
          ]);
        }`,
    },
    {
      name: 'a plain record in the BEGIN … COMMIT the handed-in handler runs in: a duplicate fails there and takes the work back',
      code: `
        async function process(pool, envelope, handler) {
          const seen = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [envelope.id]);
          if (seen.rows.length > 0) return null;
          const client = await pool.connect();
          await client.query('BEGIN');
          const result = await handler(envelope, client);
          await client.query('INSERT INTO inbox (message_id) VALUES ($1)', [envelope.id]);
          await client.query('COMMIT');
          return result;
        }`,
    },
    {
      name: 'a handed-in function called without keeping its answer, on a path that leaves, is not on the way to the record',
      code: `
        async function process(pool, envelope, onDuplicate) {
          const seen = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [envelope.id]);
          if (seen.rows.length > 0) {
            const reply = await onDuplicate(envelope);
            return reply;
          }
          await pool.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [envelope.id]);
        }`,
    },
    {
      name: 'work that runs whether or not the row was there is not gated by the check the later insert records',
      code: `
        async function track(db, email, status) {
          const existing = await db.emailEvent.findFirst({ where: { emailId: email.id, status } });
          await updateCampaignAnalytics(email.campaignId, status, Boolean(existing));
          await db.emailEvent.create({ data: { emailId: email.id, status, teamId: email.teamId } });
        }`,
    },
    {
      name: 'an insert that fills only some of the checked columns is not the record of what the check asked',
      code: `
        async function track(db, email, status) {
          const existing = await db.emailEvent.findFirst({ where: { emailId: email.id, status } });
          if (!existing) {
            await updateCampaignAnalytics(email.campaignId, status);
          }
          await db.emailEvent.create({ data: { emailId: email.id, teamId: email.teamId } });
        }`,
    },
    {
      name: 'a plain Redis marker set after work that only sets state, in a job: a second pass sets the same values',
      filename: 'src/jobs/award-winners.ts',
      code: `
        import Redis from 'ioredis';
        const redis = new Redis();
        export async function awardWinner(eventName, userId) {
          const doneKey = \`award:\${eventName}\`;
          if (await redis.get(doneKey)) return;
          await prisma.userCosmetic.updateMany({ where: { userId }, data: { equippedAt: null } });
          await redis.set(doneKey, '1');
        }`,
    },
    {
      name: 'a marker named for the refresh it spaces out, set after work out of sight: that work is the refresh',
      code: markedAfterWork('refresh-token-set'),
    },
    {
      name: "a marker set after a request to the project's own server, in a job: its handler does the work, judged where it does it",
      filename: 'src/jobs/catch-up.ts',
      code: catchUpJob('http://localhost:${process.env.PORT}/confirm'),
    },
    {
      name: 'a record of handled jobs written first, before the payout: a claim, not a late record',
      code: `
        import { Worker } from 'bullmq';
        import { PrismaClient } from '@prisma/client';
        import Stripe from 'stripe';
        const prisma = new PrismaClient();
        const stripe = new Stripe('key');
        export const payouts = new Worker('payouts', async (job) => {
          await prisma.processedJob.create({ data: { jobId: job.id } });
          await stripe.payouts.create({ amount: job.data.cents, currency: 'usd' });
        });`,
    },
    {
      name: 'a record of handled jobs after work that only sets a state: a repeat leaves the state as it was',
      code: `
        import { Worker } from 'bullmq';
        import { PrismaClient } from '@prisma/client';
        import Stripe from 'stripe';
        const prisma = new PrismaClient();
        const stripe = new Stripe('key');
        export const orders = new Worker('orders', async (job) => {
          await prisma.order.update({ where: { id: job.data.orderId }, data: { status: 'shipped' } });
          await prisma.processedJob.create({ data: { jobId: job.id } });
        });`,
    },
    {
      name: 'an audit row of the job after the payout: a log, not a record of what was handled',
      code: `
        import { Worker } from 'bullmq';
        import { PrismaClient } from '@prisma/client';
        import Stripe from 'stripe';
        const prisma = new PrismaClient();
        const stripe = new Stripe('key');
        export const payouts = new Worker('payouts', async (job) => {
          await stripe.payouts.create({ amount: job.data.cents, currency: 'usd' });
          await prisma.auditLog.create({ data: { jobId: job.id } });
        });`,
    },
    {
      name: 'a payout keyed by the job, then a record of it: the provider refuses the repeat',
      code: `
        import { Worker } from 'bullmq';
        import { PrismaClient } from '@prisma/client';
        import Stripe from 'stripe';
        const prisma = new PrismaClient();
        const stripe = new Stripe('key');
        export const payouts = new Worker('payouts', async (job) => {
          await stripe.payouts.create({ amount: job.data.cents, currency: 'usd' }, { idempotencyKey: job.data.payoutId });
          await prisma.processedJob.create({ data: { jobId: job.id } });
        });`,
    },
    {
      name: 'the insert whose violation is caught as the duplicate comes first: a repeat is refused before the refund',
      code: `
        import { Worker } from 'bullmq';
        import { PrismaClient } from '@prisma/client';
        import Stripe from 'stripe';
        const prisma = new PrismaClient();
        const stripe = new Stripe('key');
        export const refunds = new Worker('refunds', async (job) => {
          try {
            await prisma.refund.create({ data: { chargeId: job.data.chargeId, cents: job.data.cents } });
          } catch (error) {
            if (error.code === 'P2002') return;
            throw error;
          }
          await stripe.refunds.create({ charge: job.data.chargeId, amount: job.data.cents });
        });`,
    },
    {
      name: "outside a delivery, an email before an insert whose violation is caught: only a user's second click sends a second one",
      code: `
        import { PrismaClient } from '@prisma/client';
        import { Resend } from 'resend';
        const prisma = new PrismaClient();
        const resend = new Resend('key');
        export async function invite(teamId, email) {
          await resend.emails.send({ to: email, subject: 'You are invited' });
          try {
            await prisma.invitation.create({ data: { teamId, email } });
          } catch (error) {
            if (error.code === 'P2002') return;
            throw error;
          }
        }`,
    },
  ],
  invalid: [
    {
      name: "near miss: the helper's update is handed data filled in out of sight, an attempt counted up on every run",
      code: advanceThenClaim(
        "const data = { status: 'STOCK_RESERVED' }; data.attempts = { increment: 1 }; await prisma.saga.update({ where: { orderId: event.orderId }, data });",
      ),
      errors: [{ messageId: 'recordAfterWork', line: 15 }],
    },
    {
      name: 'near miss: the same ignored claim while a job is handled, where a retry records it again',
      code: `
        new Worker('invites', async ({ data: { orgId, email } }) => {
          const seen = await db.query('SELECT 1 FROM invites WHERE org_id = $1 AND email = $2', [orgId, email]);
          if (seen.rows.length > 0) return;
          await db.query('INSERT INTO invites (org_id, email) VALUES ($1, $2) ON CONFLICT (org_id, email) DO NOTHING', [orgId, email]);
          await db.query('INSERT INTO audit_events (action, email) VALUES ($1, $2)', ['invite', email]);
        });`,
      errors: [{ messageId: 'resultIgnored', line: 5 }],
    },
    {
      name: 'the near miss of a dead letter: the message copied to another stream, then its id marked',
      code: `
        import { createClient } from 'redis';
        const client = createClient();
        async function deadLetter(stream, message) {
          const retryStream = \`\${stream}:retry\`;
          if (await client.sIsMember(\`moved:\${stream}\`, message.id)) return;
          await client.xAdd(retryStream, '*', message.message);
          await client.sAdd(\`moved:\${stream}\`, message.id);
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 8 }],
    },
    {
      name: 'an unkeyed refund, then the refund row whose unique violation is caught as "already processed": a redelivery refunds again first',
      code: `
        import { Worker } from 'bullmq';
        import { PrismaClient } from '@prisma/client';
        import Stripe from 'stripe';
        const prisma = new PrismaClient();
        const stripe = new Stripe('key');
        export const refunds = new Worker('refunds', async (job) => {
          try {
            await stripe.refunds.create({ charge: job.data.chargeId, amount: job.data.cents });
            await prisma.refund.create({ data: { chargeId: job.data.chargeId, cents: job.data.cents } });
          } catch (error) {
            if (error.code === 'P2002') return;
            throw error;
          }
        });`,
      errors: [
        {
          messageId: 'refusedOnlyAfterWork',
          data: { write: 'prisma.refund.create()', work: 'stripe.refunds.create()' },
          line: 10,
        },
      ],
    },
    {
      name: 'outside a delivery too, when the work before the caught insert moves money: a second click refunds twice',
      code: `
        import { PrismaClient } from '@prisma/client';
        import Stripe from 'stripe';
        const prisma = new PrismaClient();
        const stripe = new Stripe('key');
        export async function refundOrder(chargeId, cents) {
          try {
            await stripe.refunds.create({ charge: chargeId, amount: cents });
            await prisma.refund.create({ data: { chargeId, cents } });
          } catch (error) {
            if (error.code === 'P2002') return;
            throw error;
          }
        }`,
      errors: [{ messageId: 'refusedOnlyAfterWork', line: 9 }],
    },
    {
      name: 'the near miss of a refresh: a marker named for nothing but its collection, set after work out of sight',
      code: markedAfterWork('token-set'),
      errors: [{ messageId: 'recordAfterWork', line: 10 }],
    },
    {
      name: 'a record of handled jobs that nothing asks first, written after an unkeyed payout',
      code: `
        import { Worker } from 'bullmq';
        import { PrismaClient } from '@prisma/client';
        import Stripe from 'stripe';
        const prisma = new PrismaClient();
        const stripe = new Stripe('key');
        export const payouts = new Worker('payouts', async (job) => {
          await stripe.payouts.create({ amount: job.data.cents, currency: 'usd' });
          await prisma.processedJob.create({ data: { jobId: job.id } });
        });`,
      errors: [
        {
          messageId: 'recordOnlyAfterWork',
          data: { write: 'prisma.processedJob.create()', work: 'stripe.payouts.create()' },
          line: 9,
        },
      ],
    },
    {
      name: 'the near miss of an invitation outside a delivery: a charge before the record moves money on a second click',
      code: `
        import Stripe from 'stripe';
        const stripe = new Stripe(process.env.STRIPE_KEY);
        export async function invite(db, email, customerId) {
          const found = await db.query('SELECT 1 FROM users WHERE email = $1', [email]);
          if (found.rows.length > 0) throw new Error('already a member');
          await stripe.paymentIntents.create({ amount: 900, currency: 'eur', customer: customerId, confirm: true });
          await db.query('INSERT INTO users (email, customer_id) VALUES ($1, $2)', [email, customerId]);
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 8 }],
    },
    {
      name: "Firestore: the event's document created only after the refund, so a redelivery in between refunds again",
      code: `
        import Stripe from 'stripe';
        import { getFirestore } from 'firebase-admin/firestore';
        const db = getFirestore();
        const stripe = new Stripe(process.env.STRIPE_KEY);
        export async function POST(req) {
          const event = stripe.webhooks.constructEvent(await req.text(), req.headers.get('stripe-signature'), secret);
          const ref = db.collection('processed_events').doc(event.id);
          if ((await ref.get()).exists) return new Response('seen');
          await stripe.refunds.create({ charge: event.data.object.id });
          await ref.create({ at: Date.now() });
          return new Response('ok');
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 11 }],
    },
    {
      name: 'the near miss of a request taken as done on a conflict: a handler that only logs lets a repeat add it again',
      filename: 'src/jobs/add-domain.ts',
      code: `
        import ky from 'ky';
        export async function addDomain(name, workspaceId) {
          const existing = await prisma.customDomain.findFirst({ where: { name } });
          if (existing) throw new Error('domain taken');
          try {
            await ky.post('https://api.example.com/domains', { json: { name } });
          } catch (err) {
            console.warn('domain not added', err);
          }
          await prisma.customDomain.create({ data: { name, workspaceId } });
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 11 }],
    },
    {
      name: 'the near miss of a transaction opened by a helper: a commit with no begin leaves each statement on its own',
      filename: 'src/jobs/install-theme.ts',
      code: `
        async function applyOps(conn, ops) {
          for (const op of ops) await conn.query('INSERT INTO widget (uuid) VALUES ($1)', [op.uuid]);
        }
        export async function install(pool, themeId, ops) {
          const conn = await pool.connect();
          await conn.query('SET search_path TO app');
          const state = await conn.query('SELECT snapshot FROM theme_state WHERE theme = $1', [themeId]);
          if (state.rows.length === 0) {
            await applyOps(conn, ops);
            await conn.query('INSERT INTO theme_state (theme, snapshot) VALUES ($1, $2)', [themeId, ops]);
          }
          await commit(conn);
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 11 }],
    },
    {
      name: 'the near miss of a keyed PayPal payout: a batch header without sender_batch_id lets PayPal pay a second batch',
      code: `
        import paypal from 'paypal-rest-sdk';
        async function payOut(db, payout) {
          const done = await db.query('SELECT 1 FROM payouts_sent WHERE payout_id = $1', [payout.id]);
          if (done.rows.length > 0) return;
          const body = {
            sender_batch_header: { email_subject: 'Your payout' },
            items: [{ recipient_type: 'EMAIL', receiver: payout.email, amount: payout.amount }],
          };
          await paypal.payout.create(body);
          await db.query('INSERT INTO payouts_sent (payout_id) VALUES ($1) ON CONFLICT DO NOTHING', [payout.id]);
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 11 }],
    },
    {
      name: 'an insert of the checked key that runs either way is the record, written after the work the check let through',
      filename: 'src/workers/track.ts',
      code: `
        async function track(db, email, status) {
          const existing = await db.emailEvent.findFirst({ where: { emailId: email.id, status } });
          if (!existing) {
            await updateCampaignAnalytics(email.campaignId, status);
          }
          await db.emailEvent.create({ data: { emailId: email.id, status, teamId: email.teamId } });
        }`,
      errors: [
        {
          messageId: 'recordAfterWork',
          line: 7,
          data: { write: 'db.emailEvent.create()', work: 'updateCampaignAnalytics()', line: '3' },
        },
      ],
    },
    {
      name: "a class's check answers with the row or null, the handed-in handler runs, and the record comes after: reported at the caller's call",
      code: `
        class Consumer {
          async process(envelope, handler) {
            const done = await this.checkProcessed(envelope.id);
            if (done) return done.result;
            const result = await handler(envelope.data);
            await this.recordProcessed(envelope.id, result);
            return result;
          }
          async checkProcessed(id) {
            const found = await db.query('SELECT result FROM inbox WHERE message_id = $1', [id]);
            if (found.rows.length > 0) {
              return { result: found.rows[0].result };
            }
            return null;
          }
          async recordProcessed(id, result) {
            await db.query('INSERT INTO inbox (message_id, result) VALUES ($1, $2) ON CONFLICT (message_id) DO NOTHING', [id, result]);
          }
        }`,
      errors: [
        {
          messageId: 'recordAfterWork',
          line: 7,
          data: { write: 'the INSERT into inbox', work: 'handler()', line: '11' },
        },
      ],
    },
    {
      name: 'static helpers: a field of the answer tells, the read is either side of a ternary, and DO NOTHING inside BEGIN still lets the second commit its work',
      code: `
        class Inbox {
          static async check(id, client) {
            const found = client ? await client.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]) : await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
            if (found.rows.length > 0) {
              return { processed: true };
            }
            return { processed: false };
          }
          static async record(id, client) {
            await client.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
          }
        }
        function wrap(handler) {
          return async (envelope) => {
            const { processed } = await Inbox.check(envelope.id);
            if (processed) return null;
            const client = await pool.connect();
            await client.query('BEGIN');
            const result = await handler(envelope, client);
            await Inbox.record(envelope.id, client);
            await client.query('COMMIT');
            return result;
          };
        }`,
      errors: [
        {
          messageId: 'recordAfterWork',
          line: 21,
          data: { write: 'the INSERT into inbox', work: 'handler()', line: '4' },
        },
      ],
    },
    {
      name: 'the payment sent before BEGIN is outside the transaction the record is in',
      code: `
        async function handle(pool, event) {
          const client = await pool.connect();
          const seen = await client.query('SELECT 1 FROM processed_events WHERE event_key = $1', [event.key]);
          if (seen.rows.length > 0) return;
          await client.query('INSERT INTO payments (order_id, amount) VALUES ($1, $2)', [event.orderId, event.amount]);
          await client.query('BEGIN');
          await client.query('INSERT INTO processed_events (event_key) VALUES ($1)', [event.key]);
          await client.query('COMMIT');
        }`,
      errors: [
        {
          messageId: 'recordAfterWork',
          line: 8,
          data: { write: 'the INSERT into processed_events', work: 'the INSERT into payments', line: '4' },
        },
      ],
    },
    {
      name: 'a client with no BEGIN sent on it runs each statement on its own',
      code: `
        async function handle(pool, event) {
          const client = await pool.connect();
          const seen = await client.query('SELECT 1 FROM processed_events WHERE event_key = $1', [event.key]);
          if (seen.rows.length > 0) return;
          await client.query('INSERT INTO payments (order_id, amount) VALUES ($1, $2)', [event.orderId, event.amount]);
          await client.query('INSERT INTO processed_events (event_key) VALUES ($1)', [event.key]);
          client.release();
        }`,
      errors: [
        {
          messageId: 'recordAfterWork',
          line: 7,
          data: { write: 'the INSERT into processed_events', work: 'the INSERT into payments', line: '4' },
        },
      ],
    },
    {
      name: 'pg: check, then the payment, then an ON CONFLICT record whose result nobody reads',
      code: `
        channel.consume('reserved', async (msg) => {
          const event = JSON.parse(msg.content.toString());
          const seen = await pool.query('SELECT 1 FROM processed_events WHERE event_key = $1', [event.key]);
          if (seen.rows.length > 0) return;
          await pool.query('INSERT INTO payments (order_id, amount) VALUES ($1, $2)', [event.orderId, event.amount]);
          await pool.query('INSERT INTO processed_events (event_key) VALUES ($1) ON CONFLICT (event_key) DO NOTHING', [event.key]);
        });`,
      errors: [
        {
          messageId: 'recordAfterWork',
          line: 7,
          data: { write: 'the INSERT into processed_events', work: 'the INSERT into payments', line: '4' },
        },
      ],
    },
    {
      name: 'the credit done by a helper of the same file, as in the lesson',
      code: `
        async function creditCashback(db, order) {
          await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [order.cashbackId, order.cents]);
        }
        async function creditThenRecord(db, order) {
          const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
          if (handled.rows.length > 0) return false;
          await creditCashback(db, order);
          await db.query('INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
          return true;
        }`,
      errors: [
        {
          messageId: 'recordAfterWork',
          line: 9,
          data: { write: 'the INSERT into inbox', work: 'creditCashback()', line: '6' },
        },
      ],
    },
    {
      name: 'a plain record after the effect is reported here, not as a check-then-insert',
      code: `
        async function handle(db, order) {
          const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
          if (handled.rows.length > 0) return;
          await db.query('UPDATE balances SET cents = cents + $2 WHERE account = $1', [order.account, order.cents]);
          await db.query('INSERT INTO inbox (message_id) VALUES ($1)', [order.id]);
        }`,
      errors: [
        {
          messageId: 'recordAfterWork',
          line: 6,
          data: { write: 'the INSERT into inbox', work: 'the UPDATE of balances', line: '3' },
        },
      ],
    },
    {
      name: 'MongoDB: check, then the payment, then an upsert record',
      code: `
        import { MongoClient } from 'mongodb';
        async function handle(db, event) {
          if (await db.collection('processed_events').countDocuments({ key: event.key })) return;
          await db.collection('payments').insertOne({ orderId: event.orderId, amount: event.amount });
          await db.collection('processed_events').updateOne({ key: event.key }, { $setOnInsert: { at: new Date() } }, { upsert: true });
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 6 }],
    },
    {
      name: 'a marker set after a request to another system, in a job: a crash in between sends it again',
      filename: 'src/jobs/catch-up.ts',
      code: catchUpJob('https://wallet.example.com/confirm'),
      errors: [{ messageId: 'recordAfterWork', line: 9 }],
    },
    {
      name: 'Redis: SISMEMBER, then the refund, then an SADD',
      code: `
        import Redis from 'ioredis';
        async function handle(event) {
          if (await redis.sismember('refunded', event.refundId)) return;
          await pool.query('INSERT INTO refunds (refund_id, cents) VALUES ($1, $2)', [event.refundId, event.cents]);
          await redis.sadd('refunded', event.refundId);
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 6 }],
    },
    {
      name: 'Prisma: the record created after the payment, outside any transaction',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        async function handle(event) {
          const seen = await prisma.processedEvent.findUnique({ where: { eventId: event.id } });
          if (seen) return;
          await prisma.payment.create({ data: { orderId: event.orderId, cents: event.cents } });
          await prisma.processedEvent.create({ data: { eventId: event.id } });
        }`,
      errors: [
        {
          messageId: 'recordAfterWork',
          line: 8,
          data: { write: 'prisma.processedEvent.create()', work: 'prisma.payment.create()', line: '5' },
        },
      ],
    },
    {
      name: 'DynamoDB: GetCommand on the inbox, the payment, then the inbox put',
      code: `
        import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
        async function handle(ddb, event) {
          const { Item } = await ddb.send(new GetCommand({ TableName: 'inbox', Key: { messageId: event.id } }));
          if (Item) return;
          await ddb.send(new PutCommand({ TableName: 'payments', Item: { paymentId: event.paymentId, cents: event.cents } }));
          await ddb.send(new PutCommand({ TableName: 'inbox', Item: { messageId: event.id } }));
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 7 }],
    },
    {
      name: 'the work is a message sent to Kafka',
      code: `
        import { Kafka } from 'kafkajs';
        const producer = new Kafka({ brokers: [] }).producer();
        async function handle(db, order) {
          const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
          if (handled.rows.length > 0) return;
          await producer.send({ topic: 'cashback', messages: [{ key: order.cashbackId, value: String(order.cents) }] });
          await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
        }`,
      errors: [
        {
          messageId: 'recordAfterWork',
          line: 8,
          data: { write: 'the INSERT into inbox', work: 'producer.send()', line: '5' },
        },
      ],
    },
    {
      name: "the near miss of a message whose own id is steady: a fresh eventId makes the repeat's copy a new message",
      code: reserveThenClaim('randomUUID()'),
      errors: [{ messageId: 'recordAfterWork', line: 15 }],
    },
    {
      name: 'the near miss of a helper that overwrites keys: it stores a total it added up, and a second run adds again',
      filename: 'src/jobs/release-notes.ts',
      code: `
        import Redis from 'ioredis';
        const redis = new Redis();
        async function groupComplete(group, service) {
          const total = Number(await redis.get(\`group:\${group}:total\`)) + 1;
          await redis.set(\`group:\${group}:total\`, total);
          return (await redis.scard(\`group:\${group}:done\`)) >= 3;
        }
        export const handler = async (group, service) => {
          if (await redis.get(\`notes:\${group}\`)) return;
          if (!(await groupComplete(group, service))) return;
          await redis.set(\`notes:\${group}\`, '1', 'EX', 86400);
        };`,
      errors: [{ messageId: 'recordAfterWork', line: 12 }],
    },
    {
      name: 'a lock taken after the check comes too late: the state is not read again under it',
      code: `
        import Redis from 'ioredis';
        const redis = new Redis();
        async function handle(db, order) {
          const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
          if (handled.rows.length > 0) return;
          if (!(await redis.set('lock:' + order.id, '1', 'EX', 30, 'NX'))) return;
          await db.query('INSERT INTO effects (effect_id, amount) VALUES ($1, $2)', [order.cashbackId, order.cents]);
          await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 9 }],
    },
    {
      name: 'a Redis lock taken after the check, then a digest sent by a call nobody can see into',
      filename: 'src/jobs/digest.ts',
      code: `
        import Redis from 'ioredis';
        export const handler = async (day) => {
          if (await redis.get(\`digest:sent:\${day}\`)) return;
          const lock = await redis.set(\`digest:lock:\${day}\`, '1', 'EX', 600, 'NX');
          if (lock !== 'OK') return;
          await sendDigest();
          await redis.set(\`digest:sent:\${day}\`, '1', 'EX', 86400);
        };`,
      errors: [
        {
          messageId: 'recordAfterWork',
          line: 8,
          data: { write: "the Redis SET of 'digest:sent:*'", work: 'sendDigest()', line: '4' },
        },
      ],
    },
    {
      name: 'Supabase: the balance upserted from a value read and added to, then the transaction recorded (checked by a path in its JSON column)',
      filename: 'app/api/webhooks/payments/route.ts',
      code: `
        async function handle(supabase, body, userId, credits) {
          const { data: existing } = await supabase.from('transactions').select('id').eq('metadata->>OrderId', body.OrderId).maybeSingle();
          if (existing) return;
          const { data: stats } = await supabase.from('user_stats').select('balance').eq('user_id', userId).maybeSingle();
          const balance = (stats?.balance || 0) + credits;
          await supabase.from('user_stats').upsert({ user_id: userId, balance }, { onConflict: 'user_id' });
          await supabase.from('transactions').insert({ metadata: body, user_id: userId, amount: credits });
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 8 }],
    },
    {
      name: 'an external call awaited with its errors handled is named by the call, not its catch',
      filename: 'src/jobs/add-domain.ts',
      code: `
        async function addDomain(db, domain) {
          const found = await db.query('SELECT 1 FROM email_domains WHERE domain = $1', [domain]);
          if (found.rows.length > 0) return;
          await verifyDomainWithProvider(domain).catch((error) => { throw error; });
          await db.query('INSERT INTO email_domains (domain) VALUES ($1)', [domain]);
        }`,
      errors: [
        {
          messageId: 'recordAfterWork',
          line: 6,
          data: { write: 'the INSERT into email_domains', work: 'verifyDomainWithProvider()', line: '3' },
        },
      ],
    },
    {
      name: 'near miss: a statement the reader cannot parse, awaited before the record, may change data',
      code: `
        async function handle(pool, nonce) {
          const seen = await pool.query('SELECT 1 FROM processed_events WHERE event_key = $1', [nonce]);
          if (seen.rows.length > 0) return;
          await pool.query(\`CALL settle_payment(1, INDEX idx)\`);
          await pool.query('INSERT INTO processed_events (event_key) VALUES ($1)', [nonce]);
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 6 }],
    },
    {
      name: "check, a claim made with pg-promise's none(), which answers nothing, then the payment",
      code: `
        async function handle(db, event) {
          const seen = await db.oneOrNone('SELECT 1 FROM processed_events WHERE event_key = $1', [event.key]);
          if (seen) return;
          const claimed = await db.none('INSERT INTO processed_events (event_key) VALUES ($1) ON CONFLICT (event_key) DO NOTHING', [event.key]);
          await db.query('INSERT INTO payments (order_id, amount) VALUES ($1, $2)', [event.orderId, event.amount]);
          return claimed;
        }`,
      errors: [{ messageId: 'resultIgnored', line: 5, data: { write: 'the INSERT into processed_events', line: '3' } }],
    },
    {
      name: 'check, a claim whose result nobody reads, then the payment',
      code: `
        async function handle(db, event) {
          const seen = await db.query('SELECT 1 FROM processed_events WHERE event_key = $1', [event.key]);
          if (seen.rows.length > 0) return;
          await db.query('INSERT INTO processed_events (event_key) VALUES ($1) ON CONFLICT (event_key) DO NOTHING', [event.key]);
          await db.query('INSERT INTO payments (order_id, amount) VALUES ($1, $2)', [event.orderId, event.amount]);
        }`,
      errors: [{ messageId: 'resultIgnored', line: 5, data: { write: 'the INSERT into processed_events', line: '3' } }],
    },
  ],
});

describe('no-claim-after-effect across the files of a project', () => {
  const transfers = (options: string) => `
import Stripe from 'stripe';
let instance: Stripe | null = null;
function getStripe(): Stripe {
  if (!instance) instance = new Stripe('key');
  return instance;
}
export async function payGuide(bookingId: string, cents: number, account: string) {
  const stripe = getStripe();
  return stripe.transfers.create({ amount: cents, currency: 'eur', destination: account }${options});
}
`;
  const cron = `
import { and, eq, isNull } from 'drizzle-orm';
import { payGuide } from '../../lib/transfers';
export async function GET() {
  const due = await db.select({ bookingId: bookings.id, cents: bookings.cents, account: bookings.account }).from(bookings).where(and(eq(bookings.status, 'paid'), isNull(bookings.transferId)));
  for (const booking of due) {
    const transfer = await payGuide(booking.bookingId, booking.cents, booking.account);
    await db.update(bookings).set({ transferId: transfer.id }).where(eq(bookings.id, booking.bookingId));
  }
  return new Response('ok');
}
`;

  it("a helper of another module that calls a provider without its key does the helper's work: a transfer before the flag", async () => {
    const { findings } = await lintProject({
      'src/lib/transfers.ts': transfers(''),
      'src/routes/cron/transfers.ts': cron,
    });
    expect(findings).toEqual(['src/routes/cron/transfers.ts:8 idempotency/no-claim-after-effect/flagSetAfterWork']);
  });

  it('the near miss: the helper hands the provider a key of the booking, and a second run is refused there', async () => {
    const { findings } = await lintProject({
      'src/lib/transfers.ts': transfers(', { idempotencyKey: `transfer-${bookingId}` }'),
      'src/routes/cron/transfers.ts': cron,
    });
    expect(findings).toEqual([]);
  });

  it("follows the check and the record into another module's helpers, on a Redis client that module imports from where it is made", async () => {
    const files = (set: string) => ({
      'src/redis.ts': `
import { Redis } from 'ioredis';
export const connection = new Redis({ host: '127.0.0.1' });
`,
      'src/idempotency.ts': `
import { connection } from './redis.js';
export async function isProcessed(key: string) {
  return (await connection.get('idem:' + key)) === '1';
}
export async function markProcessed(key: string) {
  ${set}
}
`,
      'src/email.processor.ts': `
import { isProcessed, markProcessed } from './idempotency.js';
import { sendEmail } from './mailer.js';
export async function processEmailJob(job: { data: { to: string; subject: string; key: string } }) {
  if (await isProcessed(job.data.key)) return 'skipped';
  await sendEmail(job.data.to, job.data.subject);
  await markProcessed(job.data.key);
  return 'processed';
}
`,
      'src/mailer.ts': `
export async function sendEmail(to: string, subject: string) {
  await fetch('https://mail.example/send', { method: 'POST', body: JSON.stringify({ to, subject }) });
}
`,
      'src/email.worker.ts': `
import { Worker } from 'bullmq';
import { processEmailJob } from './email.processor.js';
export const worker = new Worker('email', async (job) => processEmailJob(job));
`,
    });
    const plain = await lintProject(files("await connection.set('idem:' + key, '1');"));
    expect(plain.findings).toEqual(['src/email.processor.ts:7 idempotency/no-claim-after-effect/recordAfterWork']);
    expect(plain.messages[0]).toContain(
      'markProcessed() records what the check on line 5 asked only after sendEmail() ran',
    );
    // A helper that also reads is judged in its own module: it does not stand for a plain write.
    const checked = await lintProject(
      files("if (await connection.get('idem:' + key)) return;\n  await connection.set('idem:' + key, '1');"),
    );
    expect(checked.findings.filter((finding) => finding.startsWith('src/email.processor.ts'))).toEqual([]);
  });

  it('a project helper that reads and throws is no work before the claim; one that awaits a call it cannot see into may be', async () => {
    const files = (before: string) => ({
      'prisma/schema.prisma': `
datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}
model PostReaction {
  id     Int    @id @default(autoincrement())
  userId Int
  postId Int
  @@unique([userId, postId])
}
`,
      'src/checks.ts': `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function throwIfBlocked(userId: number, postId: number) {
  const ownerIds = await ownersOf(postId);
  await throwIfBlockedBy(userId, ownerIds);
}
async function ownersOf(postId: number) {
  return prisma.post.findMany({ where: { id: postId }, select: { ownerId: true } });
}
async function throwIfBlockedBy(userId: number, owners: { ownerId: number }[]) {
  const blocked = await prisma.block.findFirst({ where: { userId, ownerId: { in: owners.map((o) => o.ownerId) } } });
  if (blocked) throw new Error('blocked');
}
export async function announce(userId: number, postId: number) {
  await pager.page({ userId, postId });
}
declare const pager: { page(body: object): Promise<void> };
`,
      'src/workers/reactions.ts': `
import { PrismaClient } from '@prisma/client';
import { announce, throwIfBlocked } from '../checks.js';
const prisma = new PrismaClient();
export async function react(userId: number, postId: number) {
  const existing = await prisma.postReaction.findFirst({ where: { userId, postId } });
  if (existing) return;
  ${before}
  await prisma.postReaction.create({ data: { userId, postId } });
}
`,
    });
    const throws = await lintProject(files('await throwIfBlocked(userId, postId);'));
    expect(throws.findings).toEqual([]);
    const announces = await lintProject(files('await announce(userId, postId);'));
    expect(announces.findings).toEqual([
      'src/workers/reactions.ts:9 idempotency/no-claim-after-effect/protectedButWorkBefore',
    ]);
  });

  it('an earlier try at the same insert, retried without a column, is not work before it', async () => {
    const accept = (first: string) => `
export async function accept(db, id, email) {
  const { rows } = await db.query('SELECT 1 FROM members WHERE id = $1', [id]);
  if (rows.length > 0) return;
  try {
    await db.query(${first}, [id, email]);
  } catch {
    await db.query('INSERT INTO members (id, email) VALUES ($1, $2)', [id, email]);
  }
}
`;
    const mine = (findings: string[]) => findings.filter((finding) => finding.includes('no-claim-after-effect'));
    const retried = await lintProject({
      'src/workers/accept.js': accept("'INSERT INTO members (id, email, invited) VALUES ($1, $2, true)'"),
    });
    expect(mine(retried.findings)).toEqual([]);
    const other = await lintProject({
      'src/workers/accept.js': accept("'INSERT INTO invitations_sent (member_id, email) VALUES ($1, $2)'"),
    });
    expect(mine(other.findings)).toEqual(['src/workers/accept.js:8 idempotency/no-claim-after-effect/recordAfterWork']);
  });

  it('follows the charge into a service object another module exports, and not a method that only asks', async () => {
    const service = (charge: string) => `
async function processPayment(body: { id: string; cents: number }) {
  ${charge}
}
async function health() {
  return fetch('https://processor.example/health');
}
const service = { processPayment, health };
export default service;
`;
    const handler = (call: string) => `
import service from './service';
import { PaymentModel } from './model';
export async function paymentsJob(job: { data: { id: string; cents: number } }) {
  const existing = await PaymentModel.findOne({ correlationId: job.data.id });
  if (existing) return;
  const { processor } = await service.${call}(job.data);
  await PaymentModel.create({ correlationId: job.data.id, cents: job.data.cents, processor });
}
`;
    const model = `
import mongoose from 'mongoose';
const paymentSchema = new mongoose.Schema({ correlationId: String, cents: Number, processor: String });
paymentSchema.index({ correlationId: 1 }, { unique: true });
export const PaymentModel = mongoose.model('Payment', paymentSchema);
`;
    const charge =
      "return fetch('https://processor.example/payments', { method: 'POST', body: JSON.stringify(body) });";
    const charged = await lintProject({
      'src/service.ts': service(charge),
      'src/model.ts': model,
      'src/job.ts': handler('processPayment'),
    });
    expect(charged.findings).toEqual(['src/job.ts:8 idempotency/no-claim-after-effect/protectedButWorkBefore']);
    expect(charged.messages[0]).toContain('service.processPayment() runs after the check on line 5');
    const asked = await lintProject({
      'src/service.ts': service(charge),
      'src/model.ts': model,
      'src/job.ts': handler('health'),
    });
    expect(asked.findings).toEqual([]);
  });
  it('follows the credit into a helper of another module', async () => {
    const { findings, messages } = await lintProject({
      'src/credit.ts': `
export async function creditCashback(db: Db, order: Order): Promise<void> {
  await db.query('INSERT INTO effects (effect_id, amount) VALUES ($1, $2)', [order.cashbackId, order.cents]);
}
interface Db { query(sql: string, values: unknown[]): Promise<{ rows: unknown[] }> }
interface Order { id: string; cashbackId: string; cents: number }
`,
      'src/handle.ts': `
import { creditCashback } from './credit';
export async function handle(db: any, order: any): Promise<void> {
  const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
  if (handled.rows.length > 0) return;
  await creditCashback(db, order);
  await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
}
`,
    });
    expect(findings).toEqual(['src/handle.ts:7 idempotency/no-claim-after-effect/recordAfterWork']);
    expect(messages[0]).toContain('after creditCashback() ran');
  });

  it('stays silent when the imported helper only reads', async () => {
    const { findings } = await lintProject({
      'src/orders.ts': `
export async function loadOrder(db: any, id: string) {
  return db.query('SELECT * FROM orders WHERE id = $1', [id]);
}
`,
      'src/handle.ts': `
import { loadOrder } from './orders';
export async function handle(db: any, order: any): Promise<void> {
  const handled = await db.query('SELECT 1 FROM inbox WHERE message_id = $1', [order.id]);
  if (handled.rows.length > 0) return;
  await loadOrder(db, order.id);
  await db.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
}
`,
    });
    expect(findings).toEqual([]);
  });

  it('TypeORM: the marker saved after the payment, its table keyed by the event id', async () => {
    const { findings } = await lintProject({
      'src/processed-event.entity.ts': `
import { Entity, PrimaryColumn } from 'typeorm';
@Entity()
export class ProcessedEvent {
  @PrimaryColumn() eventId!: string;
}
`,
      'src/handler.ts': `
import { Repository } from 'typeorm';
export class PaymentHandler {
  constructor(private readonly processedEventRepository: Repository<any>, private readonly paymentRepository: Repository<any>) {}
  async handle(event: { id: string; orderId: string; cents: number }): Promise<void> {
    const seen = await this.processedEventRepository.findOneBy({ eventId: event.id });
    if (seen) return;
    await this.paymentRepository.insert({ orderId: event.orderId, cents: event.cents });
    await this.processedEventRepository.insert({ eventId: event.id });
  }
}
`,
      'src/main.ts':
        "import { PaymentHandler } from './handler';\nexport const onEvent = (handler: PaymentHandler, event) => handler.handle(event);\n",
    });
    expect(findings).toEqual(['src/handler.ts:9 idempotency/no-claim-after-effect/protectedButWorkBefore']);
  });

  it('a marker on a unique key inside the effect’s transaction is arbitration, for both rules', async () => {
    const { findings } = await lintProject({
      'prisma/schema.prisma': `
model ProcessedEvent {
  eventId String @id
}
model Payment {
  id      String @id @default(cuid())
  orderId String
  cents   Int
}
`,
      'src/handle.ts': `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function handle(event: { id: string; orderId: string; cents: number }): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const seen = await tx.processedEvent.findUnique({ where: { eventId: event.id } });
    if (seen) return;
    await tx.payment.create({ data: { orderId: event.orderId, cents: event.cents } });
    await tx.processedEvent.create({ data: { eventId: event.id } });
  });
}
`,
    });
    expect(findings).toEqual([]);
  });
});

/**
 * A library function that looks for a notification by `column`, then hands it to the sender of its
 * channel: the email sender sends (keeping the provider's answer), then writes the log row.
 */
const notifier = (column: string) => `
import { Resend } from 'resend';
const resend = new Resend('key');
export async function notify(channel, payload) {
  const existing = await prisma.notificationLog.findFirst({ where: { ${column}: payload.${column} } });
  if (existing) return;
  switch (channel) {
    case 'email':
      return await sendEmail(payload);
    case 'in_app':
      return await saveInApp(payload);
  }
}
async function sendEmail(payload) {
  const { data } = await resend.emails.send({ to: payload.to, subject: payload.title, html: payload.html });
  await prisma.notificationLog.create({ data: { ${column}: payload.${column}, providerId: data?.id } });
}
async function saveInApp(payload) {
  await prisma.notificationLog.create({ data: { ${column}: payload.${column}, channel: 'in_app' } });
}
`;

ruleTester.run('no-claim-after-effect', noClaimAfterEffect, {
  valid: [
    {
      name: 'near miss: a log looked up by its title, outside a delivery, before an email: only a second click repeats it',
      code: notifier('title'),
    },
  ],
  invalid: [
    {
      name: 'a dedupe key checked, then recorded by the sender after its email: the work inside the helper counts, the other case does not',
      code: notifier('dedupKey'),
      errors: [
        {
          messageId: 'recordAfterWork',
          data: { write: 'prisma.notificationLog.create()', line: 5, work: 'resend.emails.send()' },
          // At the sender's own record, after its email, where the fix goes; not at the call.
          line: 16,
        },
      ],
    },
  ],
});

/** A Stripe webhook that keeps each event as a row and marks it processed; `body` runs after the event's row is read. */
const eventRowWebhook = (read: string, body: string) => `
import Stripe from 'stripe';
const stripe = new Stripe('key');
export async function POST(req) {
  const event = stripe.webhooks.constructEvent(await req.text(), req.headers.get('stripe-signature'), 'secret');
  ${read}
${body}
  return new Response('ok');
}
`;
const upsertedEvent =
  "const record = await prisma.webhookEvent.upsert({ where: { stripeId: event.id }, create: { stripeId: event.id, type: event.type }, update: {} });\n  if (record.processedAt) return new Response('ok');";
const credit =
  '  await prisma.credit.create({ data: { userId: event.data.object.client_reference_id, amount: 100 } });';
const markRecord =
  '  await prisma.webhookEvent.update({ where: { id: record.id }, data: { processedAt: new Date() } });';

ruleTester.run('no-claim-after-effect', noClaimAfterEffect, {
  valid: [
    {
      name: 'near miss: the upserted event marked first by a compare-and-set whose count decides the credit',
      code: eventRowWebhook(
        upsertedEvent,
        "  const { count } = await prisma.webhookEvent.updateMany({ where: { id: record.id, processedAt: null }, data: { processedAt: new Date() } });\n  if (count === 0) return new Response('ok');\n" +
          credit,
      ),
    },
  ],
  invalid: [
    {
      name: 'the upserted event marked before the credit, whatever it holds: two deliveries at once both credit',
      code: eventRowWebhook(upsertedEvent, `${markRecord}\n${credit}`),
      errors: [
        {
          messageId: 'flagSetWithoutCompare',
          data: { write: 'prisma.webhookEvent.update()', flag: 'processedAt', line: 6, work: 'prisma.credit.create()' },
          line: 8,
        },
      ],
    },
    {
      name: 'an upsert hands back the event row: its flag, tested and set only after the credit, is recorded late',
      code: eventRowWebhook(upsertedEvent, `${credit}\n${markRecord}`),
      errors: [
        {
          messageId: 'flagSetAfterWork',
          data: { write: 'prisma.webhookEvent.update()', flag: 'processedAt', line: 6, work: 'prisma.credit.create()' },
          line: 9,
        },
      ],
    },
    {
      name: 'a status set by an upsert of the row the check read, after the credit, is recorded late',
      code: eventRowWebhook(
        "const existing = await prisma.webhookEvent.findUnique({ where: { stripeId: event.id } });\n  if (existing?.status === 'processed') return new Response('ok');",
        `${credit}\n  await prisma.webhookEvent.upsert({ where: { stripeId: event.id }, create: { stripeId: event.id, status: 'processed' }, update: { status: 'processed' } });`,
      ),
      errors: [
        {
          messageId: 'flagSetAfterWork',
          data: { write: 'prisma.webhookEvent.upsert()', flag: 'status', line: 6, work: 'prisma.credit.create()' },
          line: 9,
        },
      ],
    },
  ],
});

describe('a done-flag in a module whose caller is a handler elsewhere', () => {
  /** A notification dispatcher that skips what was delivered, POSTs (or PUTs) to the user's webhook, then marks it delivered. */
  const dispatcher = (method: string) => `
import { prisma } from './db';
export async function dispatchNotification(notificationId: string) {
  const notification = await prisma.notification.findUnique({ where: { id: notificationId }, include: { user: true } });
  if (!notification || notification.deliveredAt) return;
  await fetch(notification.user.webhookUrl, { method: '${method}', body: JSON.stringify({ id: notification.id }) });
  await prisma.notification.update({ where: { id: notification.id }, data: { deliveredAt: new Date() } });
}
`;
  const db = 'export const prisma: any = {};\n';
  const worker = (from: string) =>
    `import { Worker } from 'bullmq';\nimport { dispatchNotification } from './${from}';\nexport const worker = new Worker('notifications', async (job) => {\n  await dispatchNotification(job.data.notificationId);\n});\n`;

  it('is reported when a BullMQ worker of another module calls it, for a POST, not a PUT', async () => {
    const { findings } = await lintProject({
      'src/db.ts': db,
      'src/dispatch.ts': dispatcher('POST'),
      'src/put.ts': dispatcher('PUT'),
      'src/worker.ts': worker('dispatch'),
      'src/worker-put.ts': worker('put'),
    });
    expect(findings).toEqual(['src/dispatch.ts:7 idempotency/no-claim-after-effect/flagSetAfterWork']);
  });

  it('is not reported when only a plain function of another module calls it', async () => {
    const { findings } = await lintProject({
      'src/db.ts': db,
      'src/dispatch.ts': dispatcher('POST'),
      'src/admin.ts':
        "import { dispatchNotification } from './dispatch';\nexport async function resend(id: string) {\n  await dispatchNotification(id);\n}\n",
    });
    expect(findings).toEqual([]);
  });

  /** A service of a third module between the caller and the dispatcher. */
  const service =
    "import { dispatchNotification } from './dispatch';\nexport async function notifyUser(id: string) {\n  await dispatchNotification(id);\n}\n";

  it('is reported when the worker reaches it through a service of a third module, not when a plain function does', async () => {
    const throughService = await lintProject({
      'src/db.ts': db,
      'src/dispatch.ts': dispatcher('POST'),
      'src/service.ts': service,
      'src/worker.ts': worker('service').replaceAll('dispatchNotification', 'notifyUser'),
    });
    expect(throughService.findings).toEqual(['src/dispatch.ts:7 idempotency/no-claim-after-effect/flagSetAfterWork']);
    const fromAdmin = await lintProject({
      'src/db.ts': db,
      'src/dispatch.ts': dispatcher('POST'),
      'src/service.ts': service,
      'src/admin.ts':
        "import { notifyUser } from './service';\nexport async function resend(id: string) {\n  await notifyUser(id);\n}\n",
    });
    expect(fromAdmin.findings).toEqual([]);
  });

  /** The project's factory of handlers, and a worker that registers what it makes (or keeps it as a plain function). */
  const factory =
    'export function withLogging(handler: (job: any) => Promise<void>) {\n  return async (job: any) => {\n    console.log(job.id);\n    return handler(job);\n  };\n}\n';
  const wrapped = (use: string) =>
    `import { Worker } from 'bullmq';\nimport { withLogging } from './logging';\nimport { dispatchNotification } from './dispatch';\nasync function execute(job: any) {\n  await dispatchNotification(job.data.notificationId);\n}\n${use}\n`;

  it('is reported when the worker registers the handler the project wraps in a factory, not when the wrapped function is only kept', async () => {
    const registered = await lintProject({
      'src/db.ts': db,
      'src/dispatch.ts': dispatcher('POST'),
      'src/logging.ts': factory,
      'src/worker.ts': wrapped("export const worker = new Worker('notifications', withLogging(execute));"),
    });
    expect(registered.findings).toEqual(['src/dispatch.ts:7 idempotency/no-claim-after-effect/flagSetAfterWork']);
    const kept = await lintProject({
      'src/db.ts': db,
      'src/dispatch.ts': dispatcher('POST'),
      'src/logging.ts': factory,
      'src/worker.ts': wrapped('export const run = withLogging(execute);'),
    });
    expect(kept.findings).toEqual([]);
  });
});

/** A cron run that picks the emails not yet sent by the query's own filter, sends each, then marks it sent with `where`. */
const drainDueEmails = (where: string) => `
import cron from 'node-cron';
import { Resend } from 'resend';
const resend = new Resend('key');
export async function drain() {
  const due = await prisma.scheduledEmail.findMany({ where: { sentAt: null } });
  for (const row of due) {
    await resend.emails.send({ to: row.to, subject: row.subject, html: row.html });
    await prisma.scheduledEmail.updateMany({ where: ${where}, data: { sentAt: new Date() } });
  }
}
cron.schedule('* * * * *', drain);
`;

ruleTester.run('no-claim-after-effect', noClaimAfterEffect, {
  valid: [
    {
      name: 'near miss: the row marked sent only where it is still unsent is a compare-and-set',
      code: drainDueEmails('{ id: row.id, sentAt: null }'),
    },
    {
      name: 'near miss: another row marked, not the one the query picked',
      code: drainDueEmails('{ id: row.batchId }'),
    },
  ],
  invalid: [
    {
      name: "rows the query picked as unsent, marked sent only after each email: the filter is the flag's test",
      code: drainDueEmails('{ id: row.id }'),
      errors: [
        {
          messageId: 'flagSetAfterWork',
          data: {
            write: 'prisma.scheduledEmail.updateMany()',
            flag: 'sentAt',
            line: 6,
            work: 'resend.emails.send()',
          },
          line: 9,
        },
      ],
    },
  ],
});

/**
 * An HTTP function nothing in the project schedules (a scheduler outside it calls the URL) that
 * drains the email jobs its query picked as pending; `pick` is the read, marked sent or failed after each send.
 */
const remindersFunction = (pick: string) => `
import { createClient } from '@supabase/supabase-js';
import { Resend } from 'resend';
const resend = new Resend(key);
const supabase = createClient(url, serviceKey);
export default async function handler(req) {
  ${pick}
  for (const email of jobs) {
    try {
      await resend.emails.send({ to: email.to, subject: email.subject, html: email.html });
      await supabase.from('email_jobs').update({ status: 'sent' }).eq('id', email.id);
    } catch (error) {
      await supabase.from('email_jobs').update({ status: 'failed' }).eq('id', email.id);
    }
  }
  return new Response('ok');
}
`;

/** A cron run that hands each scheduled post its query picked as pending to a helper, which publishes it and marks it; `where` is the mark's filter. */
const publishDue = (where: string) => `
import cron from 'node-cron';
async function publish(scheduleId) {
  const schedule = await prisma.schedule.findUnique({ where: { id: scheduleId } });
  await fetch('https://graph.example.com/media_publish', { method: 'POST', body: JSON.stringify({ id: schedule.mediaId }) });
  await prisma.schedule.update({ where: ${where}, data: { status: 'PUBLISHED' } });
}
export async function run() {
  const due = await prisma.schedule.findMany({ where: { status: 'PENDING' }, take: 3 });
  for (const schedule of due) await publish(schedule.id);
}
cron.schedule('* * * * *', run);
`;

/** The drain above, its POST's answer read for the new object's id: `endpoint` is where it posts. */
const publishDueRead = (endpoint: string) => `
import cron from 'node-cron';
async function publish(scheduleId) {
  const res = await fetch(\`https://graph.example.com/\${scheduleId}/${endpoint}\`, { method: 'POST', body: '{}' });
  const created = await res.json();
  await prisma.schedule.update({ where: { id: scheduleId }, data: { status: 'PUBLISHED', mediaId: created.id } });
}
export async function run() {
  const due = await prisma.schedule.findMany({ where: { status: 'PENDING' }, take: 3 });
  for (const schedule of due) await publish(schedule.id);
}
cron.schedule('* * * * *', run);
`;

ruleTester.run('no-claim-after-effect (a drain of pending rows)', noClaimAfterEffect, {
  valid: [
    {
      name: 'a POST whose answer is read, to the root of a host named for mail: the host names no endpoint, so it asks',
      code: publishDueRead('search').replace(
        'https://graph.example.com/${scheduleId}/search',
        'https://sms.example.com',
      ),
    },
    {
      name: 'near miss: a POST whose answer is read, to an endpoint named for a question (`/search`), asks',
      code: publishDueRead('search'),
    },
    {
      name: 'near miss: the rows picked by their owner, not by a status that says the work is still to do',
      code: remindersFunction(
        "const { data: jobs } = await supabase.from('email_jobs').select('*').eq('user_id', req.headers.get('x-user'));",
      ),
    },
    {
      name: 'near miss: the helper marks the post only while it is still pending, a compare-and-set',
      code: publishDue("{ id: scheduleId, status: 'PENDING' }"),
    },
    {
      name: 'near miss: the helper marks another row than the one it was handed',
      code: publishDue('{ id: schedule.batchId }'),
    },
    {
      name: 'near miss: an admin action archives the active rows, each with a change event in the same database',
      code: `
        export async function revokeKey(keyId) {
          await prisma.$transaction(async (tx) => {
            const budgets = await tx.budget.findMany({ where: { keyId, archivedAt: null } });
            for (const budget of budgets) {
              await tx.budget.update({ where: { id: budget.id }, data: { archivedAt: new Date() } });
              await tx.changeEvent.create({ data: { kind: 'BUDGET_ARCHIVED', budgetId: budget.id } });
            }
          });
        }`,
    },
  ],
  invalid: [
    {
      name: "a mark two checks reach (the drain's filter, then the helper's own test of the row) is one finding, named for the check beside it",
      code: `
import cron from 'node-cron';
async function publish(scheduleId) {
  const schedule = await prisma.schedule.findUnique({ where: { id: scheduleId } });
  if (schedule?.status !== 'PENDING') return;
  await fetch('https://graph.example.com/media_publish', { method: 'POST', body: JSON.stringify({ id: schedule.mediaId }) });
  await prisma.schedule.update({ where: { id: scheduleId }, data: { status: 'PUBLISHED' } });
}
export async function run() {
  const due = await prisma.schedule.findMany({ where: { status: 'PENDING' }, take: 3 });
  for (const schedule of due) await publish(schedule.id);
}
cron.schedule('* * * * *', run);
`,
      errors: [
        {
          messageId: 'flagSetAfterWork',
          data: { flag: 'status', line: 4, work: 'fetch()', write: 'prisma.schedule.update()' },
          line: 7,
        },
      ],
    },
    {
      name: "a POST whose answer is read for the new object's id, to an endpoint named for what it delivers (`/media_publish`), delivers",
      code: publishDueRead('media_publish'),
      errors: [
        {
          messageId: 'flagSetAfterWork',
          data: { flag: 'status', line: 9, work: 'fetch()', write: 'prisma.schedule.update()' },
          line: 6,
        },
      ],
    },
    {
      name: 'each pending row handed to a helper that publishes it, then marks it by the id it was handed: found at the mark, where all the work is',
      code: publishDue('{ id: scheduleId }'),
      errors: [
        {
          messageId: 'flagSetAfterWork',
          data: { flag: 'status', line: 9, work: 'fetch()', write: 'prisma.schedule.update()' },
          line: 6,
        },
      ],
    },
    {
      name: 'the rows a query picked as pending, sent, then marked: a drain runs again and again, found once for both marks',
      code: remindersFunction(
        "const { data: jobs } = await supabase.from('email_jobs').select('*').eq('status', 'pending').limit(50);",
      ),
      errors: [
        {
          messageId: 'flagSetAfterWork',
          data: { flag: 'status', line: 7, work: 'resend.emails.send()', write: 'the Supabase update of email_jobs' },
          line: 11,
        },
      ],
    },
  ],
});

/** A cron job that pushes the notifications its query picked as unpushed, then stamps each; `stamp` is the update. */
const pushDue = (stamp: string) => `
import cron from 'node-cron';
import webpush from 'web-push';
import { createClient } from '@supabase/supabase-js';
const supabase = createClient(url, key);
export async function dispatchNotifications() {
  const { data: notifications } = await supabase.from('notifications').select('*').is('push_sent_at', null).limit(100);
  for (const notification of notifications) {
    await webpush.sendNotification(notification.subscription, JSON.stringify({ title: notification.title }));
    ${stamp}
  }
}
cron.schedule('*/5 * * * *', dispatchNotifications);
`;

/** A Drizzle cron that pays each booking its query picked without a transfer, in a callback of the rows, then records it. */
const payDue = (where: string) => `
import Stripe from 'stripe';
import { and, eq, isNull } from 'drizzle-orm';
const stripe = new Stripe(key);
export async function GET() {
  const due = await db.select({ bookingId: bookings.id, amount: bookings.amount, account: bookings.account }).from(bookings).where(and(eq(bookings.status, 'paid'), isNull(bookings.transferId)));
  await Promise.all(due.map(async (booking) => {
    const transfer = await stripe.transfers.create({ amount: booking.amount, currency: 'eur', destination: booking.account });
    await db.update(bookings).set({ transferId: transfer.id }).where(${where});
  }));
  return new Response('ok');
}
`;

ruleTester.run('no-claim-after-effect', noClaimAfterEffect, {
  valid: [
    {
      name: 'near miss: the stamp is a compare-and-set on the field the query asked to be empty',
      code: pushDue(
        "await supabase.from('notifications').update({ push_sent_at: new Date() }).eq('id', notification.id).is('push_sent_at', null);",
      ),
    },
    {
      name: 'near miss: the transfer recorded on another row than the one picked',
      code: payDue('eq(bookings.id, booking.account)'),
    },
  ],
  invalid: [
    {
      name: "Supabase rows picked by .is(field, null), pushed, then stamped by id: the query's filter is the flag's test",
      code: pushDue(
        "await supabase.from('notifications').update({ push_sent_at: new Date() }).eq('id', notification.id);",
      ),
      errors: [
        {
          messageId: 'flagSetAfterWork',
          data: {
            write: 'the Supabase update of notifications',
            flag: 'push_sent_at',
            line: 7,
            work: 'webpush.sendNotification()',
          },
          line: 10,
        },
      ],
    },
    {
      name: 'Drizzle rows picked by isNull, paid in a map callback, recorded by the id the query renamed after its table',
      code: payDue('eq(bookings.id, booking.bookingId)'),
      errors: [
        {
          messageId: 'flagSetAfterWork',
          data: {
            write: 'the Drizzle update of bookings',
            flag: 'transferId',
            line: 6,
            work: 'stripe.transfers.create()',
          },
          line: 9,
        },
      ],
    },
  ],
});

ruleTester.run('no-claim-after-effect', noClaimAfterEffect, {
  valid: [
    {
      name: 'a cleanup DELETE between the check and the claim is no work: a second run finds nothing more to delete',
      filename: 'src/webhooks/nonce.ts',
      code: `
        export async function rememberNonce(pool, nonce) {
          const seen = await pool.query('SELECT 1 FROM webhook_nonces WHERE nonce = $1', [nonce]);
          if (seen.rows.length > 0) return false;
          await pool.query('DELETE FROM webhook_nonces WHERE expires_at < now()');
          await pool.query('INSERT INTO webhook_nonces (nonce, expires_at) VALUES ($1, now())', [nonce]);
          return true;
        }`,
    },
    {
      name: 'an UPDATE that only sets values between the check and the record is no work: a second run leaves the row as the first did',
      filename: 'src/webhooks/account.ts',
      code: `
        export async function onAccountUpdated(pool, event) {
          const seen = await pool.query('SELECT 1 FROM webhook_events WHERE event_id = $1', [event.id]);
          if (seen.rows.length > 0) return;
          await pool.query('UPDATE venues SET stripe_status = $1, charges_enabled = $2 WHERE stripe_account_id = $3', [event.status, event.charges, event.account]);
          await pool.query('INSERT INTO webhook_events (event_id) VALUES ($1)', [event.id]);
        }`,
    },
  ],
  invalid: [
    {
      name: 'near miss: an UPDATE that adds to a balance between the check and the record is work',
      filename: 'src/webhooks/account.ts',
      code: `
        export async function onPayout(pool, event) {
          const seen = await pool.query('SELECT 1 FROM webhook_events WHERE event_id = $1', [event.id]);
          if (seen.rows.length > 0) return;
          await pool.query('UPDATE venues SET balance_cents = balance_cents + $1 WHERE stripe_account_id = $2', [event.cents, event.account]);
          await pool.query('INSERT INTO webhook_events (event_id) VALUES ($1)', [event.id]);
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 6 }],
    },
    {
      name: 'near miss: an UPDATE of a total the code added up is work too',
      filename: 'src/webhooks/account.ts',
      code: `
        import { PrismaClient } from '@prisma/client';
        const prisma = new PrismaClient();
        export async function onPayout(event) {
          const seen = await prisma.webhookEvent.findUnique({ where: { eventId: event.id } });
          if (seen) return;
          const venue = await prisma.venue.findUnique({ where: { accountId: event.account } });
          await prisma.venue.update({ where: { accountId: event.account }, data: { balanceCents: venue.balanceCents + event.cents } });
          await prisma.webhookEvent.create({ data: { eventId: event.id } });
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 9 }],
    },
    {
      name: 'near miss: an INSERT of an effect between the check and the record is work',
      filename: 'src/webhooks/nonce.ts',
      code: `
        export async function rememberNonce(pool, nonce, order) {
          const seen = await pool.query('SELECT 1 FROM webhook_nonces WHERE nonce = $1', [nonce]);
          if (seen.rows.length > 0) return false;
          await pool.query('INSERT INTO credits (order_id, cents) VALUES ($1, $2)', [order.id, order.cents]);
          await pool.query('INSERT INTO webhook_nonces (nonce, expires_at) VALUES ($1, now())', [nonce]);
          return true;
        }`,
      errors: [{ messageId: 'recordAfterWork', line: 6 }],
    },
  ],
});

/** A BullMQ job that emails about a task not yet completed, after `claim`, then marks the task completed. */
const taskMail = (claim: string) => `
import { and, eq } from 'drizzle-orm';
import { Worker } from 'bullmq';
import { Resend } from 'resend';
const resend = new Resend('key');
new Worker('mail', async (job) => {
  const [task] = await db.select().from(tasks).where(eq(tasks.id, job.data.id)).limit(1);
  if (!task || task.status === 'completed') return;
  ${claim}
  await resend.emails.send({ to: job.data.to, subject: 'Done', from: 'us@example.com' });
  await db.update(tasks).set({ status: 'completed' }).where(eq(tasks.id, job.data.id));
});
`;
const claimTask =
  "db.update(tasks).set({ status: 'processing' }).where(and(eq(tasks.id, job.data.id), eq(tasks.status, 'received'))).returning({ id: tasks.id })";

ruleTester.run('no-claim-after-effect (a claim between the check and the work)', noClaimAfterEffect, {
  valid: [
    {
      name: 'a compare-and-set of the status after the check, whose answer decides: one worker does the work, the flag says how it ended',
      code: taskMail(`const [claimed] = await ${claimTask};\n  if (!claimed) return;`),
    },
    {
      name: 'the same claim awaited beside another lookup in Promise.all: its answer keeps its place',
      code: taskMail(
        `const [[claimed], sender] = await Promise.all([${claimTask}, lookupSender(job.data.to)]);\n  if (!claimed) return;`,
      ),
    },
  ],
  invalid: [
    {
      name: 'near miss: the claim made, but its answer not read',
      code: taskMail(`await ${claimTask};`),
      errors: [{ messageId: 'flagSetAfterWork', line: 11 }],
    },
    {
      name: 'near miss: Promise.all with the claim, its answer not read',
      code: taskMail(`const [, sender] = await Promise.all([${claimTask}, lookupSender(job.data.to)]);`),
      errors: [{ messageId: 'flagSetAfterWork', line: 11 }],
    },
  ],
});

describe('no-claim-after-effect: an insert a unique key refuses on a repeat', () => {
  const schema = (chargeKey: string) => `
datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}
model Charge {
  id         String @id
  identifier String ${chargeKey}
}
model Purchase {
  id       String @id
  chargeId String
  amount   Int
}
model Coupon {
  id      String @id
  maxUses Int
}
`;
  const worker = `
import { Worker } from 'bullmq';
import { PrismaClient } from '@prisma/client';
import { randomUUID } from 'node:crypto';
const prisma = new PrismaClient();
new Worker('purchases', async (job) => {
  const existing = await prisma.purchase.findFirst({ where: { chargeId: job.data.chargeId } });
  if (existing) return existing.id;
  await prisma.charge.create({ data: { id: randomUUID(), identifier: job.data.chargeId } });
  await prisma.coupon.update({ where: { id: job.data.couponId }, data: { maxUses: { increment: 1 } } });
  await prisma.purchase.create({ data: { id: randomUUID(), chargeId: job.data.chargeId, amount: job.data.amount } });
});
`;

  it('comes first, keyed by the charge the check asked about: a second worker stops there, before the work', async () => {
    const { findings } = await lintProject({ 'prisma/schema.prisma': schema('@unique'), 'src/worker.ts': worker });
    expect(findings).toEqual([]);
  });

  it('the near miss: the charge row is written on one branch only, so the other path reaches the work unrefused', async () => {
    const branched = worker.replace(
      '  await prisma.charge.create(',
      '  if (job.data.card) await prisma.charge.create(',
    );
    const { findings } = await lintProject({ 'prisma/schema.prisma': schema('@unique'), 'src/worker.ts': branched });
    expect(findings).toEqual(['src/worker.ts:11 idempotency/no-claim-after-effect/recordAfterWork']);
  });

  it('the near miss: without the unique key, the charge row is one more write and the coupon is counted twice', async () => {
    const { findings } = await lintProject({ 'prisma/schema.prisma': schema(''), 'src/worker.ts': worker });
    expect(findings).toEqual(['src/worker.ts:11 idempotency/no-claim-after-effect/recordAfterWork']);
  });
});

/** A one-time token redeemed by a route: its flag tested, a membership extended by a helper, the flag saved. */
const redeem = (membershipEnd: string) => ({
  'src/entities.ts': `
import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
@Entity('claim_tokens')
export class ClaimToken {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ default: false }) claimed!: boolean;
  @Column({ default: 1 }) yearsToAdd!: number;
}
@Entity('users')
export class User {
  @PrimaryColumn() id!: string;
  @Column() membershipExpiration!: Date;
}
`,
  'src/users.ts': `
import { getRepository } from 'typeorm';
import { User } from './entities';
export async function addYears(id: string, years: number) {
  const users = getRepository(User);
  const user = await users.findOneOrFail({ id });
  const membershipExpiration = ${membershipEnd};
  await users.update(id, { membershipExpiration });
}
`,
  'src/tokens.ts': `
import { getRepository } from 'typeorm';
import { ClaimToken } from './entities';
import { addYears } from './users';
export async function redeem(id: string, userId: string) {
  const tokens = getRepository(ClaimToken);
  const token = await tokens.findOneOrFail({ id });
  if (token.claimed) throw new Error('already claimed');
  await addYears(userId, token.yearsToAdd);
  token.claimed = true;
  await tokens.save(token);
}
`,
});

describe('no-claim-after-effect: a paid access moved on before the flag is set', () => {
  it('reports the flag saved after years are added to the membership the user had', async () => {
    const { findings } = await lintProject(
      redeem('new Date(user.membershipExpiration.getTime() + years * 365 * 86400000)'),
    );
    expect(findings).toEqual(['src/tokens.ts:11 idempotency/no-claim-after-effect/flagSetAfterWork']);
  });

  it('near miss: an end counted from the clock is set, not added to, by a second redeem', async () => {
    const { findings } = await lintProject(redeem('new Date(Date.now() + years * 365 * 86400000)'));
    expect(findings).toEqual([]);
  });
});
