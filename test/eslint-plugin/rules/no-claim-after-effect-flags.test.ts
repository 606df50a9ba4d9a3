import { describe, expect, it } from 'vitest';

import { noClaimAfterEffect } from '../../../eslint-plugin/src/rules/no-claim-after-effect.js';
import { ruleTester } from '../rule-tester.js';
import { lintProject } from '../support/project.js';

/**
 * A field of the row read, tested to skip work already done, and set only after that work: the
 * done-flag is the claim, recorded too late. Its near misses: the flag set first, compared and
 * set in one statement, the work keyed, another row updated, the flag cleared, a form's flag.
 */
const worker = (body: string) => `
  import { Queue, Worker } from 'bullmq';
  import Stripe from 'stripe';
  const stripe = new Stripe(process.env.STRIPE_KEY);
  const shipmentQueue = new Queue('shipments');
  new Worker('billing', async (job) => {
    const order = await prisma.order.findUnique({ where: { id: job.data.orderId } });
    ${body}
  });`;

const sqlWorker = (body: string) => `
  import { Queue, Worker } from 'bullmq';
  import pg from 'pg';
  import Stripe from 'stripe';
  const pool = new pg.Pool();
  const stripe = new Stripe(process.env.STRIPE_KEY);
  const shipmentQueue = new Queue('shipments');
  new Worker('billing', async (job) => {
    ${body}
  });`;

/** A TypeORM worker that reads the order in a transaction, with `lock` the read's lock option, charges, then sets paidAt. */
const typeormWorker = (lock: string) => `
  import { Worker } from 'bullmq';
  import Stripe from 'stripe';
  import { DataSource } from 'typeorm';
  import { Order } from './order.entity';
  const stripe = new Stripe(process.env.STRIPE_KEY);
  const dataSource = new DataSource({ type: 'postgres' });
  new Worker('billing', async (job) => {
    await dataSource.transaction(async (manager) => {
      const order = await manager.getRepository(Order).findOne({ where: { id: job.data.orderId }${lock} });
      if (order.paidAt) return;
      await stripe.paymentIntents.create({ amount: order.total, currency: 'eur', confirm: true });
      await manager.getRepository(Order).update({ id: order.id }, { paidAt: new Date() });
    });
  });`;

/** A payment provider's webhook that credits a user in one Prisma transaction; `options` are the transaction's. */
const creditWebhook = (
  options: string,
  credit = 'await tx.user.update({ where: { id: payment.userId }, data: { credits: { increment: payment.credits } } });',
) => `
  export async function POST(request) {
    const { order_id } = await request.json();
    await prisma.$transaction(async (tx) => {
      const payment = await tx.payment.findUnique({ where: { orderId: order_id } });
      if (!payment || payment.creditsAdded) return;
      ${credit}
      await tx.payment.update({ where: { id: payment.id }, data: { creditsAdded: true } });
    }${options});
    return Response.json({ ok: true });
  }`;

ruleTester.run('no-claim-after-effect (done-flags)', noClaimAfterEffect, {
  valid: [
    {
      name: 'the flag is set and the row saved only on a branch that leaves: the save after the work stores another field',
      code: `
        import { Worker } from 'bullmq';
        import Stripe from 'stripe';
        const stripe = new Stripe(process.env.STRIPE_KEY);
        new Worker('billing', async (job) => {
          const order = await orderRepository.findOne({ where: { id: job.data.orderId } });
          if (order.paidAt) return;
          if (order.total === 0) {
            order.paidAt = new Date();
            await orderRepository.save(order);
            return;
          }
          const intent = await stripe.paymentIntents.create({ amount: order.total, currency: 'eur', customer: order.customerId, confirm: true });
          order.intentId = intent.id;
          await orderRepository.save(order);
        });`,
    },
    {
      name: 'the flag is set first by a compare-and-set, and only the worker whose update changed the row charges',
      code: worker(`
        if (order.paidAt) return;
        const { count } = await prisma.order.updateMany({ where: { id: job.data.orderId, paidAt: null }, data: { paidAt: new Date() } });
        if (count === 0) return;
        await stripe.paymentIntents.create({ amount: order.total, currency: 'eur', customer: order.customerId, confirm: true });`),
    },
    {
      name: 'SQL: the row is read FOR UPDATE and its flag set before the charge, so a second worker waits and reads it set',
      code: sqlWorker(`
        const { rows } = await pool.query('SELECT paid_at, total FROM orders WHERE id = $1 FOR UPDATE', [job.data.orderId]);
        if (rows[0].paid_at) return;
        await pool.query('UPDATE orders SET paid_at = now() WHERE id = $1', [job.data.orderId]);
        await stripe.paymentIntents.create({ amount: rows[0].total, currency: 'eur', confirm: true });`),
    },
    {
      name: "outside a delivery, a form's flag set before an email: only the user racing their own form sends two",
      code: `
        import { Resend } from 'resend';
        const resend = new Resend(process.env.RESEND_KEY);
        export async function sendWelcome(userId) {
          const user = await prisma.user.findUnique({ where: { id: userId } });
          if (user.welcomedAt) return;
          await prisma.user.update({ where: { id: userId }, data: { welcomedAt: new Date() } });
          await resend.emails.send({ to: user.email, subject: 'Welcome' });
        }`,
    },
    {
      name: 'the update compares the flag as it sets it',
      code: worker(`
        if (order.paidAt) return;
        await stripe.paymentIntents.create({ amount: order.total, currency: 'eur', customer: order.customerId, confirm: true });
        await prisma.order.updateMany({ where: { id: job.data.orderId, paidAt: null }, data: { paidAt: new Date() } });`),
    },
    {
      name: 'the charge carries its own idempotency key',
      code: worker(`
        if (order.paidAt) return;
        await stripe.paymentIntents.create(
          { amount: order.total, currency: 'eur', customer: order.customerId, confirm: true },
          { idempotencyKey: \`order-\${order.id}\` },
        );
        await prisma.order.update({ where: { id: job.data.orderId }, data: { paidAt: new Date() } });`),
    },
    {
      name: 'another row is updated',
      code: worker(`
        if (order.paidAt) return;
        await stripe.paymentIntents.create({ amount: order.total, currency: 'eur', customer: order.customerId, confirm: true });
        await prisma.order.update({ where: { id: order.parentId }, data: { paidAt: new Date() } });`),
    },
    {
      name: 'a prompt sent to a moderation service, its answer read, then the row flagged: asking again changes nothing',
      code: worker(`
        if (order.needsReview) return;
        const response = await fetch('https://moderation.example.com/check', { method: 'POST', body: order.note });
        const { flagged } = await response.json();
        if (flagged) await prisma.order.update({ where: { id: job.data.orderId }, data: { needsReview: true } });`),
    },
    {
      name: 'the update clears the flag the check tested',
      code: worker(`
        if (!order.lockedAt) return;
        await stripe.paymentIntents.create({ amount: order.total, currency: 'eur', customer: order.customerId, confirm: true });
        await prisma.order.update({ where: { id: job.data.orderId }, data: { lockedAt: null } });`),
    },
    {
      name: 'a status compared with one value and set to another',
      code: worker(`
        if (order.status === 'PAID') return;
        await stripe.paymentIntents.create({ amount: order.total, currency: 'eur', customer: order.customerId, confirm: true });
        await prisma.order.update({ where: { id: job.data.orderId }, data: { status: 'REVIEWED' } });`),
    },
    {
      name: 'a status that must be PAUSED, a subscription resumed, the row saved ACTIVE: the repeat resumes what is resumed',
      code: `
        import { Worker } from 'bullmq';
        new Worker('subscriptions', async (job) => {
          const subscription = await subscriptionRepository.findOne({ where: { id: job.data.subscriptionId } });
          if (subscription.status !== 'PAUSED') return;
          await billing.resumeSubscription(subscription.providerSubscriptionId);
          subscription.status = 'ACTIVE';
          await subscriptionRepository.save(subscription);
        });`,
    },
    {
      name: "outside a delivery, a form's flag set after an email: a second click sends a second email, no more",
      code: `
        import { Resend } from 'resend';
        const resend = new Resend(process.env.RESEND_KEY);
        export async function sendWelcome(userId) {
          const user = await prisma.user.findUnique({ where: { id: userId } });
          if (user.welcomedAt) return;
          await resend.emails.send({ to: user.email, subject: 'Welcome' });
          await prisma.user.update({ where: { id: userId }, data: { welcomedAt: new Date() } });
        }`,
    },
    {
      name: 'the credit and the flag in one SERIALIZABLE transaction: the second of two at once fails and takes its credit back',
      code: creditWebhook(', { isolationLevel: Prisma.TransactionIsolationLevel.Serializable }'),
      filename: 'app/api/webhooks/payments/route.ts',
    },
    {
      name: "an insert in the flag's transaction: a unique key may refuse the second worker's and take its transaction back, so the rule stays silent",
      code: creditWebhook(
        '',
        'await tx.creditGrant.create({ data: { paymentId: payment.id, credits: payment.credits } });',
      ),
      filename: 'app/api/webhooks/payments/route.ts',
    },
    {
      name: 'SQL: the update sets the flag only where it is still NULL',
      code: sqlWorker(`
        const { rows } = await pool.query('SELECT paid_at, total FROM orders WHERE id = $1', [job.data.orderId]);
        if (rows[0].paid_at) return;
        await stripe.paymentIntents.create({ amount: rows[0].total, currency: 'eur', confirm: true });
        await pool.query('UPDATE orders SET paid_at = now() WHERE id = $1 AND paid_at IS NULL', [job.data.orderId]);`),
    },
    {
      name: 'SQL: the row is read FOR UPDATE, so a second worker waits and reads the flag set',
      code: sqlWorker(`
        const { rows } = await pool.query('SELECT paid_at, total FROM orders WHERE id = $1 FOR UPDATE', [job.data.orderId]);
        if (rows[0].paid_at) return;
        await stripe.paymentIntents.create({ amount: rows[0].total, currency: 'eur', confirm: true });
        await pool.query('UPDATE orders SET paid_at = now() WHERE id = $1', [job.data.orderId]);`),
    },
    {
      name: "TypeORM: the row is read with lock: { mode: 'pessimistic_write' }, so a second worker waits and reads the flag set",
      code: typeormWorker(", lock: { mode: 'pessimistic_write' }"),
    },
    {
      name: 'Sequelize-style lock: true on the read locks the row too',
      code: typeormWorker(', lock: true'),
    },
    {
      name: 'SQL: the update clears the column the check tested',
      code: sqlWorker(`
        const { rows } = await pool.query('SELECT paid_at, total FROM orders WHERE id = $1', [job.data.orderId]);
        if (!rows[0].paid_at) return;
        await stripe.refunds.create({ payment_intent: rows[0].intent_id });
        await pool.query('UPDATE orders SET paid_at = NULL WHERE id = $1', [job.data.orderId]);`),
    },
  ],
  invalid: [
    {
      name: 'TypeORM: an optimistic lock takes no row lock, so a second worker reads the flag unset too',
      code: typeormWorker(", lock: { mode: 'optimistic', version: 3 }"),
      errors: [{ messageId: 'flagSetAfterWork', line: 13 }],
    },
    {
      name: 'TypeORM: the read without a lock',
      code: typeormWorker(''),
      errors: [{ messageId: 'flagSetAfterWork', line: 13 }],
    },
    {
      name: 'Drizzle: the row selected, its sentAt tested, the email sent, then sentAt set',
      code: `
        import { Worker } from 'bullmq';
        import { eq } from 'drizzle-orm';
        import { invoices } from './schema';
        new Worker('reminders', async (job) => {
          const [invoice] = await db.select().from(invoices).where(eq(invoices.id, job.data.invoiceId));
          if (invoice.reminderSentAt) return;
          await queue.add('send-email', { to: invoice.email });
          await db.update(invoices).set({ reminderSentAt: new Date() }).where(eq(invoices.id, invoice.id));
        });`,
      errors: [{ messageId: 'flagSetAfterWork', line: 9 }],
    },
    {
      name: 'SQL: the row read, its paid_at tested, the charge, then paid_at set',
      code: sqlWorker(`
        const { rows } = await pool.query('SELECT paid_at, total FROM orders WHERE id = $1', [job.data.orderId]);
        if (rows[0].paid_at) return;
        await stripe.paymentIntents.create({ amount: rows[0].total, currency: 'eur', confirm: true });
        await pool.query('UPDATE orders SET paid_at = now() WHERE id = $1', [job.data.orderId]);`),
      errors: [{ messageId: 'flagSetAfterWork', line: 13 }],
    },
    {
      name: "SQL: the row named again, its status compared with 'shipped', the status written by the statement",
      code: sqlWorker(`
        const result = await pool.query('SELECT * FROM orders WHERE id = $1', [job.data.orderId]);
        const order = result.rows[0];
        if (order.status === 'shipped') return;
        await shipmentQueue.add('ship', { order: order.id });
        await pool.query("UPDATE orders SET status = 'shipped' WHERE id = $1", [order.id]);`),
      errors: [{ messageId: 'flagSetAfterWork', line: 14 }],
    },
    {
      name: 'a job checks paidAt, charges, then sets paidAt',
      code: worker(`
        if (!order || order.paidAt) return;
        await stripe.paymentIntents.create({ amount: order.total, currency: 'eur', customer: order.customerId, confirm: true });
        await prisma.order.update({ where: { id: job.data.orderId }, data: { paidAt: new Date() } });`),
      errors: [{ messageId: 'flagSetAfterWork', line: 11 }],
    },
    {
      name: 'a job checks the link to a refund intent, creates one, then links it',
      code: worker(`
        if (order.refundIntentId && order.refundIntent) return;
        const intent = await prisma.refundIntent.create({ data: { orderId: order.id, amount: order.total } });
        await prisma.order.update({ where: { id: job.data.orderId }, data: { refundIntentId: intent.id } });`),
      errors: [{ messageId: 'flagSetAfterWork', line: 11 }],
    },
    {
      name: 'a status compared with the value the update sets, the row named by its own id',
      code: worker(`
        if (order.status === 'SHIPPED') return;
        await shipmentQueue.add('ship', { order: order.id });
        await prisma.order.update({ where: { id: order.id }, data: { status: 'SHIPPED' } });`),
      errors: [{ messageId: 'flagSetAfterWork', line: 11 }],
    },
    {
      name: "a status that must still be 'PENDING', set to another value after the payout",
      code: worker(`
        if (order.status !== 'PENDING') return;
        await stripe.transfers.create({ amount: order.total, currency: 'eur', destination: order.accountId });
        await prisma.order.update({ where: { id: job.data.orderId }, data: { status: 'PAID_OUT' } });`),
      errors: [{ messageId: 'flagSetAfterWork', line: 11 }],
    },
    {
      name: 'a job added to a BullMQ queue whose name does not say queue, then the flag set',
      code: `
        import { Queue, Worker } from 'bullmq';
        const shipments = new Queue('shipments');
        new Worker('billing', async (job) => {
          const order = await prisma.order.findUnique({ where: { id: job.data.orderId } });
          if (order.shippedAt) return;
          await shipments.add('ship', { order: order.id });
          await prisma.order.update({ where: { id: order.id }, data: { shippedAt: new Date() } });
        });`,
      errors: [{ messageId: 'flagSetAfterWork', line: 8 }],
    },
    {
      name: 'the flag set on the row and the row saved again',
      code: `
        import { Worker } from 'bullmq';
        import Stripe from 'stripe';
        const stripe = new Stripe(process.env.STRIPE_KEY);
        new Worker('billing', async (job) => {
          const order = await orderRepository.findOne({ where: { id: job.data.orderId } });
          if (order.paidAt) return;
          await stripe.paymentIntents.create({ amount: order.total, currency: 'eur', customer: order.customerId, confirm: true });
          order.paidAt = new Date();
          await orderRepository.save(order);
        });`,
      errors: [{ messageId: 'flagSetAfterWork', line: 10 }],
    },
    {
      name: 'the flag set before the charge, whatever it holds: two jobs that both read it empty both charge',
      code: worker(`
        if (order.paidAt) return;
        await prisma.order.update({ where: { id: job.data.orderId }, data: { paidAt: new Date() } });
        await stripe.paymentIntents.create({ amount: order.total, currency: 'eur', customer: order.customerId, confirm: true });`),
      errors: [
        {
          messageId: 'flagSetWithoutCompare',
          data: { write: 'prisma.order.update()', flag: 'paidAt', line: 7, work: 'stripe.paymentIntents.create()' },
          line: 10,
        },
      ],
    },
    {
      name: "Supabase: a purchase picked by .eq('status', 'pending'), set completed by id, then the item granted",
      code: `
        import { createClient } from '@supabase/supabase-js';
        const sb = createClient(url, key);
        export async function POST(request) {
          const body = await request.json();
          const { data: purchase } = await sb.from('purchases').select('id, developer_id').eq('status', 'pending').eq('provider_tx_id', body.order_id).maybeSingle();
          if (!purchase) return Response.json({ received: true });
          await sb.from('purchases').update({ status: 'completed' }).eq('id', purchase.id);
          await sb.from('streak_freeze_log').insert({ developer_id: purchase.developer_id, action: 'purchased' });
          return Response.json({ received: true });
        }`,
      filename: 'app/api/webhooks/nowpayments/route.ts',
      errors: [{ messageId: 'flagSetWithoutCompare', line: 8 }],
    },
    {
      name: 'the credit and the flag in one transaction at the default isolation: the flag update fails for neither of two at once, so both credit',
      code: creditWebhook(''),
      filename: 'app/api/webhooks/payments/route.ts',
      errors: [
        {
          messageId: 'flagSetAfterWork',
          data: { write: 'tx.payment.update()', flag: 'creditsAdded', line: 5, work: 'tx.user.update()' },
          line: 8,
        },
      ],
    },
    {
      name: 'outside a delivery, a charge before the flag: one double-click charges twice',
      code: `
        import Stripe from 'stripe';
        const stripe = new Stripe(process.env.STRIPE_KEY);
        export async function payInvoice(invoiceId) {
          const invoice = await prisma.invoice.findUnique({ where: { id: invoiceId } });
          if (invoice.paidAt) throw new Error('already paid');
          await stripe.paymentIntents.create({ amount: invoice.total, currency: 'eur', customer: invoice.customerId, confirm: true });
          await prisma.invoice.update({ where: { id: invoiceId }, data: { paidAt: new Date() } });
        }`,
      errors: [{ messageId: 'flagSetAfterWork', line: 8 }],
    },
  ],
});

describe('a done-flag set by a helper of another module', () => {
  const files = (helper: string) => ({
    'src/orders.ts': helper,
    'src/workers/billing.ts': `
import { Worker } from 'bullmq';
import Stripe from 'stripe';
import { markPaid } from '../orders';
const stripe = new Stripe(process.env.STRIPE_KEY);
new Worker('billing', async (job) => {
  const order = await prisma.order.findUnique({ where: { id: job.data.orderId } });
  if (order.paidAt) return;
  await stripe.paymentIntents.create({ amount: order.total, currency: 'eur', customer: order.customerId, confirm: true });
  await markPaid(order.id);
});`,
  });

  it('is reported at the call, when the helper sets the flag the check tested', async () => {
    const { findings } = await lintProject(
      files(`export async function markPaid(id) {
  await prisma.order.update({ where: { id }, data: { paidAt: new Date() } });
}`),
    );
    expect(findings).toEqual(['src/workers/billing.ts:10 idempotency/no-claim-after-effect/flagSetAfterWork']);
  });

  it('is not, when the helper sets another field', async () => {
    const { findings } = await lintProject(
      files(`export async function markPaid(id) {
  await prisma.order.update({ where: { id }, data: { receiptSentAt: new Date() } });
}`),
    );
    expect(findings).toEqual([]);
  });
});

describe('a done-flag set after an issue posted to a team tool, through a helper of another module', () => {
  /** The project's Linear helper: the issue is created in a callback, handed to its circuit breaker (`run`), or to an emitter. */
  const linearHelper = (run: string) => `
import { LinearClient } from '@linear/sdk';
const linear = new LinearClient({ apiKey: process.env.LINEAR_KEY });
const breaker = { execute: async <T>(work: () => Promise<T>) => work() };
const events = { once: (_event: string, _listener: () => Promise<unknown>) => undefined };
export async function createFeedbackIssue(title: string) {
  ${run}
}
`;
  /** A Pub/Sub worker that tests the feedback's status, creates the issue, then sets the status: `record` wraps the update. */
  const feedbackWorker = (record: (update: string) => string) => `
import { Feedback } from './feedback.entity';
import { createFeedbackIssue } from './linear';
export const worker = {
  subscription: 'feedback-created',
  handler: async (message: { data: { feedbackId: string } }, con: any) => {
    const feedback = await con.getRepository(Feedback).findOneBy({ id: message.data.feedbackId });
    if (!feedback || feedback.status !== 'pending') return;
    const issue = await createFeedbackIssue(feedback.title);
    ${record("con.getRepository(Feedback).update(feedback.id, { status: 'accepted', issueId: issue?.id })")}
  },
};
`;
  const entity = 'export class Feedback { id!: string; status!: string; title!: string; issueId?: string }\n';
  const project = (run: string, record: (update: string) => string) =>
    lintProject({
      'src/workers/feedback.entity.ts': entity,
      'src/workers/linear.ts': linearHelper(run),
      'src/workers/classify.ts': feedbackWorker(record),
    });
  const issueCreated = 'return breaker.execute(async () => linear.createIssue({ teamId: "t", title }));';

  it('is reported when the helper creates the issue in a callback its breaker runs, and the update sits in a transaction', async () => {
    const { findings } = await project(
      issueCreated,
      (update) => `await con.transaction(async () => {\n      await ${update};\n    });`,
    );
    expect(findings).toEqual(['src/workers/classify.ts:11 idempotency/no-claim-after-effect/flagSetAfterWork']);
  });

  it('is reported with the update made directly, by the id TypeORM is given', async () => {
    const { findings } = await project(issueCreated, (update) => `await ${update};`);
    expect(findings).toEqual(['src/workers/classify.ts:10 idempotency/no-claim-after-effect/flagSetAfterWork']);
  });

  it('is not reported when the helper only registers the callback for later, nor when the update waits for an event', async () => {
    const registered = await project(
      'events.once("ready", async () => linear.createIssue({ teamId: "t", title }));\n  return undefined;',
      (update) => `await ${update};`,
    );
    expect(registered.findings).toEqual([]);
    const later = await project(
      issueCreated,
      (update) => `events.once('flushed', async () => {\n      await ${update};\n    });`,
    );
    expect(later.findings).toEqual([]);
  });

  it('is not reported when the helper only reads an issue', async () => {
    const { findings } = await project(
      'return breaker.execute(async () => linear.issue(title));',
      (update) => `await ${update};`,
    );
    expect(findings).toEqual([]);
  });
});

/**
 * An active record: the row read is written through itself (`order.update(…)`, `order.save()`,
 * `order.$query().patch(…)`), so the update names no table and no id. `write` runs after the
 * charge; `imports` bring the model.
 */
const activeRecord = (imports: string, read: string, write: string) => `
  import { Worker } from 'bullmq';
  import Stripe from 'stripe';
  ${imports}
  const stripe = new Stripe(process.env.STRIPE_KEY);
  new Worker('billing', async (job) => {
    const order = await ${read};
    if (order.paidAt) return;
    await stripe.paymentIntents.create({ amount: order.total, currency: 'eur', confirm: true });
    ${write}
  });`;
const sequelizeModel = `import { Op } from 'sequelize';\n  import { Order } from './models';`;
const objectionModel = `import { Model } from 'objection';\n  class Order extends Model { static tableName = 'orders'; }`;

/** The same charge written as a promise chain: the row is handed to `then`, and the patch runs after the charge's promise. */
const chained = (patch: string) => `
  import { Worker } from 'bullmq';
  import Stripe from 'stripe';
  import { Model } from 'objection';
  class Order extends Model { static tableName = 'orders'; }
  const stripe = new Stripe(process.env.STRIPE_KEY);
  new Worker('billing', (job) =>
    Order.query()
      .findById(job.data.orderId)
      .then((order) => {
        if (order.paidAt) return undefined;
        return stripe.paymentIntents
          .create({ amount: order.total, currency: 'eur', confirm: true })
          .then(() => ${patch});
      }),
  );`;

ruleTester.run('no-claim-after-effect (a row written through itself)', noClaimAfterEffect, {
  valid: [
    {
      name: 'Sequelize: the row is updated after the charge, but not the field the check tested',
      code: activeRecord(
        sequelizeModel,
        'Order.findByPk(job.data.orderId)',
        "await order.update({ note: 'charged' });",
      ),
    },
    {
      name: 'Sequelize: another row read is the one marked paid',
      code: activeRecord(
        `${sequelizeModel}\n  const parent = await Order.findByPk(1);`,
        'Order.findByPk(job.data.orderId)',
        'await parent.update({ paidAt: new Date() });',
      ),
    },
    {
      name: 'Objection: the flag is claimed with a compare-and-set before the charge',
      code: `
        import { Worker } from 'bullmq';
        import Stripe from 'stripe';
        import { Model } from 'objection';
        class Order extends Model { static tableName = 'orders'; }
        const stripe = new Stripe(process.env.STRIPE_KEY);
        new Worker('billing', async (job) => {
          const order = await Order.query().findById(job.data.orderId);
          if (order.paidAt) return;
          const claimed = await Order.query().patch({ paidAt: new Date() }).where({ id: order.id, paidAt: null });
          if (!claimed) return;
          await stripe.paymentIntents.create({ amount: order.total, currency: 'eur', confirm: true });
        });`,
    },
    {
      name: 'a promise chain whose last step patches another field',
      code: chained("order.$query().patch({ receipt: 'sent' })"),
    },
  ],
  invalid: [
    {
      name: 'Sequelize: order.update({ paidAt }) after the charge',
      code: activeRecord(
        sequelizeModel,
        'Order.findByPk(job.data.orderId)',
        'await order.update({ paidAt: new Date() });',
      ),
      errors: [{ messageId: 'flagSetAfterWork', line: 11 }],
    },
    {
      name: 'Sequelize: paidAt set on the row, then order.save()',
      code: activeRecord(
        sequelizeModel,
        'Order.findOne({ where: { id: job.data.orderId } })',
        'order.paidAt = new Date();\n    await order.save();',
      ),
      errors: [{ messageId: 'flagSetAfterWork', line: 12 }],
    },
    {
      name: 'Objection: order.$query().patch({ paidAt }) after the charge',
      code: activeRecord(
        objectionModel,
        'Order.query().findById(job.data.orderId)',
        'await order.$query().patch({ paidAt: new Date() });',
      ),
      errors: [{ messageId: 'flagSetAfterWork', line: 11 }],
    },
    {
      name: 'Objection: the same in a promise chain, the row handed to then',
      code: chained('order.$query().patch({ paidAt: new Date() })'),
      errors: [{ messageId: 'flagSetAfterWork', line: 14 }],
    },
  ],
});

/**
 * A booking webhook's worker: the booking read, a session credited back with `credit` when it is
 * cancelled and not yet marked, the mark set on the row in that branch, the row saved either way.
 */
const creditBack = (credit: string, mark = 'booking.cancelledAt = new Date();') => `
  import { Worker } from 'bullmq';
  import { DataSource } from 'typeorm';
  import { Access, Booking } from './entities';
  const dataSource = new DataSource({ type: 'postgres' });
  const bookings = dataSource.getRepository(Booking);
  const accesses = dataSource.getRepository(Access);
  new Worker('bookings', async (job) => {
    const booking = await bookings.findOneBy({ code: job.data.code });
    if (booking.externalId == null) {
      booking.externalId = job.data.externalId;
    }
    if (job.data.action === 'cancel' && !booking.cancelledAt) {
      ${credit}
      ${mark}
    }
    await bookings.save(booking);
  });`;

ruleTester.run('no-claim-after-effect (a flag set in the branch the check takes)', noClaimAfterEffect, {
  valid: [
    {
      name: 'the credit sets a value, it does not add to one',
      code: creditBack("await accesses.update({ id: booking.accessId }, { status: 'open' });"),
    },
    {
      name: 'the mark is set before the credit (then a compare-and-set is the question, not this one)',
      code: creditBack(
        'booking.cancelledAt = new Date();',
        "await accesses.update({ id: booking.accessId }, { note: 'x' });",
      ),
    },
  ],
  invalid: [
    {
      name: "TypeORM's increment adds to the session count before the mark, which another field's fill-in before it does not hide",
      code: creditBack("await accesses.increment({ id: booking.accessId }, 'sessionsRemaining', 1);"),
      errors: [{ messageId: 'flagSetAfterWork', line: 17 }],
    },
  ],
});
