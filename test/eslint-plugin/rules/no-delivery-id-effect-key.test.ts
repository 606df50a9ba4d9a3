import { noDeliveryIdEffectKey } from '../../../eslint-plugin/src/rules/no-delivery-id-effect-key.js';
import { ruleTester } from '../rule-tester.js';

ruleTester.run('no-delivery-id-effect-key', noDeliveryIdEffectKey, {
  valid: [
    {
      name: "a fresh key made for each record of a batch handed over is the record's own, carried by every retry of the hand-over",
      code: `
        export async function exportUsage(clickhouse, counts) {
          for (const count of counts) {
            await clickhouse.addRaw([{ ts: Date.now(), idempotency_key: uuidv7(), value: count.value }]);
          }
        }`,
    },
    {
      name: 'a helper that returns a fresh value only when the id it derives from is missing: the derived value is the rule',
      code: `
        function batchToken(ids) {
          if (ids.length === 0) return crypto.randomUUID();
          return sha256(ids.sort().join(','));
        }
        export async function store(events, ids) {
          await store.recordMany(events, { dedupToken: batchToken(ids) });
        }`,
    },
    {
      name: 'a key kept on its row and minted only for a row that has none: every retry sends the stored key',
      code: `
        import { randomUUID } from 'node:crypto';
        export async function retryPayouts(payouts) {
          for (const payout of payouts) {
            const key = payout.idempotencyKey?.trim() ? payout.idempotencyKey : \`payout_\${randomUUID()}\`;
            if (!payout.idempotencyKey) await prisma.payout.update({ where: { id: payout.id }, data: { idempotencyKey: key } });
            await provider.pay({ payoutId: payout.id, amount: payout.amount, idempotencyKey: key });
          }
        }`,
    },
    {
      name: 'the stored key, or a fresh one saved on the row before the call (`??`)',
      code: `
        export async function pay(payout) {
          const key = payout.idempotencyKey ?? crypto.randomUUID();
          await provider.pay({ amount: payout.amount, idempotencyKey: key });
        }`,
    },
    {
      name: 'a fresh key stored on an existing row by an update is kept there, not sent',
      code: `
        export async function prepare(payout) {
          await prisma.payout.update({ where: { id: payout.id }, data: { idempotencyKey: crypto.randomUUID() } });
        }`,
    },
    {
      name: "a key made once and handed to the project's own retrying fetch: every try sends the same key",
      code: `
        async function fetchWithRetry(url, options, tries = 3) {
          for (let attempt = 0; attempt < tries; attempt++) {
            const res = await fetch(url, options);
            if (res.ok) return res;
          }
          throw new Error('failed');
        }
        export async function notify(appId, addresses) {
          const idempotencyKey = sha256(\`\${appId}:\${addresses.join(',')}:\${new Date().toISOString()}\`);
          return fetchWithRetry(endpoint, { method: 'POST', headers: { 'Idempotency-Key': idempotencyKey } });
        }`,
    },
    {
      name: 'a key made once, held in headers, handed to a method that retries by calling itself with them',
      code: `
        class BridgeClient {
          async postWithRetry(endpoint, data, headers, tries = 3) {
            try {
              return await post(endpoint, data, headers);
            } catch (error) {
              if (tries > 0) return this.postWithRetry(endpoint, data, headers, tries - 1);
              throw error;
            }
          }
          async createTransfer(data) {
            const idempotencyKey = String(Date.now());
            const headers = { ...this.defaultHeaders(), 'Idempotency-Key': idempotencyKey };
            return this.postWithRetry('v0/transfers', data, headers);
          }
        }`,
    },
    {
      name: "a whole record serialised as a set's member, its time set so that each push is kept: what the set holds, not a key",
      code: `
        import Redis from 'ioredis';
        import { Worker } from 'bullmq';
        const redis = new Redis();
        export const worker = new Worker('positions', async (job) => {
          const position = { itemId: job.data.itemId, percent: job.data.percent, updatedAt: new Date().toISOString() };
          const added = await redis.sadd(\`positions:\${job.data.uid}\`, JSON.stringify(position));
          return added > 0;
        });`,
    },
    {
      name: 'a key made before a retry loop is the same for each of its tries',
      code: `
        export async function charge(orderId, cents) {
          const idempotencyKey = \`charge-\${orderId}-\${Date.now()}\`;
          for (let attempt = 0; attempt < 3; attempt++) {
            try { return await stripe.charges.create({ amount: cents }, { idempotencyKey }); } catch (error) { await sleep(100 * attempt); }
          }
        }`,
    },
    {
      name: 'a key made before a retrying package call is the same for each of its tries',
      code: `
        import pRetry from 'p-retry';
        export async function refund(paymentId) {
          const key = \`refund-\${paymentId}-\${Date.now()}\`;
          await pRetry(() => stripe.refunds.create({ payment_intent: paymentId }, { idempotencyKey: key }), { retries: 3 });
        }`,
    },
    {
      name: 'a fresh key stored on the row it keys (minted once, then read back by whatever sends it) outside a delivery',
      code: `
        export async function createPayout(reservationId, cents) {
          return prisma.payout.create({ data: { reservationId, cents, idempotencyKey: crypto.randomUUID() } });
        }`,
    },
    {
      name: 'a binding named as a key, fresh and nothing else: what it keys is decided where it is used',
      code: `
        export async function createPayout(reservationId) {
          const idempotencyKey = crypto.randomUUID();
          return prisma.payout.create({ data: { reservationId, idempotencyKey } });
        }`,
    },
    {
      name: "today's date cut from an ISO string is a period, the same for every retry today",
      code: `
        export async function dailySummary(accountId) {
          await mailer.send({ to: accountId, idempotencyKey: \`summary-\${accountId}-\${new Date().toISOString().slice(0, 10)}\` });
        }`,
    },
    {
      name: "a webhook's own enqueue deduplicated by the Stripe event id: an inbox for the event, not an effect key",
      code: `
        import Stripe from 'stripe';
        import { Client } from '@upstash/qstash';
        export async function POST(req) {
          const event = stripe.webhooks.constructEvent(await req.text(), req.headers.get('stripe-signature'), secret);
          await queue.enqueueJSON({ url: target, deduplicationId: event.id, body: { account: event.account } });
        }`,
    },
    {
      name: 'a fresh key in one branch of a conditional only stands in for the given one',
      code: `
        new Worker('schedules', async (job) => {
          await scheduler.create({ deduplicationKey: job.data.deduplicationKey ? job.data.deduplicationKey : nanoid(24) });
        });`,
    },
    {
      name: 'a key minted once per intent and kept while the same trade is retried: the kept request or a fresh one, one taken',
      code: `
        import Stripe from 'stripe';
        import { randomUUID } from 'node:crypto';
        const stripe = new Stripe('key');
        const pending = { current: null };
        export async function placeTrade(contractId, direction, mana) {
          const fingerprint = [contractId, direction, mana].join(':');
          const request = pending.current?.fingerprint === fingerprint ? pending.current : { fingerprint, idempotencyKey: randomUUID() };
          pending.current = request;
          await stripe.charges.create({ customer: contractId, amount: mana }, { idempotencyKey: request.idempotencyKey });
          pending.current = null;
        }`,
    },
    {
      name: 'a log line that names the idempotency key keys nothing',
      code: `
        new Worker('payouts', async (job) => {
          logger.info({ idempotencyKey: job.id, msg: 'skipped' });
        });`,
    },
    {
      name: "a fresh key only when the caller gave none: the caller's key is the rule",
      code: `
        new Worker('schedules', async (job) => {
          await scheduler.create({ deduplicationKey: job.data.deduplicationKey ?? nanoid(24) });
        });`,
    },
    {
      name: "the job's own id only when the producer gave no task id: the producer's id is the rule",
      code: `
        new Worker('tasks', async (job) => {
          const taskId = job.data.taskId ?? job.id;
          await prisma.task.upsert({ where: { id: taskId }, create: { id: taskId }, update: {} });
        });`,
    },
    {
      name: 'outside a handler, a fresh id as the conflict target of our own table is a new row, not a repeat to catch',
      code: `
        app.post('/charges', async (req, res) => {
          await db.query('INSERT INTO charges (charge_key, cents) VALUES (gen_random_uuid(), $1) ON CONFLICT (charge_key) DO NOTHING', [req.body.cents]);
        });`,
    },
    {
      name: "a period cut from now() in SQL is this month's key, the same for every retry in it",
      code: `
        new Worker('usage', async (job) => {
          await db.query("INSERT INTO monthly_usage (org_id, month, sent) SELECT org_id, date_trunc('month', now()), count(*) FROM message GROUP BY 1, 2 ON CONFLICT (org_id, month) DO UPDATE SET sent = excluded.sent", []);
        });`,
    },
    {
      name: 'a helper called from a handler serves the delivery too, so its minted key is reported (see invalid); one called from an HTTP route is not',
      code: `
        async function charge(cents) {
          await db.query('INSERT INTO charges (charge_key, cents) VALUES (gen_random_uuid(), $1) ON CONFLICT (charge_key) DO NOTHING', [cents]);
        }
        app.post('/charges', async (req) => { await charge(req.body.cents); });`,
    },
    {
      name: "request options a helper returns with a fresh key: which request they reach, and how often, is the caller's to say",
      code: `
        import { randomUUID } from 'node:crypto';
        export const requestOptions = (source) => ({ idempotencyKey: \`app:\${source}:\${randomUUID()}\` });
        export function headers() {
          return { headers: { 'Idempotency-Key': randomUUID() } };
        }`,
    },
    {
      name: 'names alone never make a finding: a parameter called message, claimed by a helper the file does not show',
      code: `
        async function handle(db, message, insertInbox) {
          const effectId = message.id;
          if (await insertInbox(message.id)) {
            await db.query('INSERT INTO effects(effect_id, amount) VALUES($1,$2)', [effectId, message.cents]);
          }
        }`,
    },
    {
      name: "an email's messageId is the mail provider's id, not a delivery's",
      code: `
        async function record(db, info) {
          await db.query('INSERT INTO sent_emails (message_id, sent_to) VALUES ($1, $2) ON CONFLICT (message_id) DO NOTHING', [info.messageId, info.to]);
        }`,
    },
    {
      name: 'the lesson predict handler: inbox claimed by job id, effect keyed by the business id',
      code: `
        async function run(tx) {
          const job = { id: 'job-77', effectId: 'ledger-77', cents: 500 };
          const inboxId = job.id;
          const insertInbox = (id) => tx.query('INSERT INTO inbox(message_id) VALUES($1) ON CONFLICT DO NOTHING RETURNING message_id', [id]).then((r) => r.rowCount === 1);
          const insertEffect = (id, cents) => tx.query('INSERT INTO effects(effect_id, amount) VALUES($1,$2)', [id, cents]);
          await tx.begin();
          const claim = await insertInbox(inboxId);
          if (!claim) { await tx.rollback(); return; }
          await insertEffect(job.effectId, job.cents);
          await tx.commit();
        }`,
    },
    {
      name: 'the lesson snapshot handler: a state assignment keyed by account',
      code: `
        async function apply(db, snapshot, insertInbox) {
          const inboxId = snapshot.id;
          const nextBalance = snapshot.cents;
          if (await insertInbox(inboxId)) {
            await db.query("INSERT INTO balances(account_id, cents) VALUES ('acct-9', $1) ON CONFLICT (account_id) DO UPDATE SET cents = excluded.cents", [nextBalance]);
          }
        }`,
    },
    {
      name: 'an AMQP message id claimed in a processed-messages table',
      code: `
        import amqp from 'amqplib';
        channel.consume('q', async (msg) => {
          await pool.query('INSERT INTO processed_messages (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [msg.properties.messageId]);
        });`,
    },
    {
      name: 'a row that holds nothing but the delivery is a claim, whatever the table is called',
      code: `
        new Worker('q', async (job) => {
          await db.query('INSERT INTO consumer_log (job_id, seen_at) VALUES ($1, now()) ON CONFLICT DO NOTHING', [job.id]);
        });`,
    },
    {
      name: 'the delivery id kept in a diagnosis column beside a business key',
      code: `
        await consumer.run({ eachMessage: async ({ message }) => {
          const refund = JSON.parse(message.value.toString());
          await pool.query(
            'INSERT INTO refunds (refund_id, amount, source_message_id, source_offset) VALUES ($1, $2, $3, $4) ON CONFLICT (refund_id) DO NOTHING',
            [refund.refundId, refund.cents, message.headers.messageId, message.offset],
          );
        }});`,
    },
    {
      name: 'a provider idempotency key from the payload',
      code: `
        await consumer.run({ eachMessage: async ({ message }) => {
          const refund = JSON.parse(message.value.toString());
          await stripe.refunds.create({ charge: refund.chargeId }, { idempotencyKey: \`refund-\${refund.refundId}\` });
        }});`,
    },
    {
      name: 'a random row id beside a unique business key',
      code: `
        import { randomUUID } from 'node:crypto';
        new Worker('sales', async (job) => {
          await db.query('INSERT INTO sales (id, sale_id, cents) VALUES ($1, $2, $3) ON CONFLICT (sale_id) DO NOTHING', [randomUUID(), job.data.saleId, job.data.cents]);
        });`,
    },
    {
      name: 'a random surrogate id where nothing claims to catch repeats',
      code: `
        new Worker('audit', async (job) => {
          await db.query('INSERT INTO audit_events (id, kind) VALUES ($1, $2)', [crypto.randomUUID(), job.name]);
        });`,
    },
    {
      name: 'Redis SET NX on a processed marker is a claim',
      code: `
        import Redis from 'ioredis';
        const redis = new Redis();
        new Worker('q', async (job) => {
          if (!(await redis.set(\`processed:\${job.id}\`, '1', 'NX', 'EX', 3600))) return;
        });`,
    },
    {
      name: 'a Redis lock keyed by the job keeps two workers off one delivery',
      code: `
        new Worker('q', async (job) => {
          await redis.set(\`lock:\${job.id}\`, workerId, 'PX', 30000, 'NX');
        });`,
    },
    {
      name: "a Redis lock keyed by the job, its prefix a class's readonly field",
      code: `
        class Jobs {
          private readonly lockPrefix = 'lock:';
          start() {
            new Worker('q', async (job) => {
              await redis.set(\`\${this.lockPrefix}\${job.id}\`, workerId, 'PX', 30000, 'NX');
            });
          }
        }`,
    },
    {
      name: 'logging a delivery id is not a key',
      code: `
        channel.consume('q', (msg) => { logger.info({ messageId: msg.properties.messageId, tag: msg.fields.deliveryTag }); });`,
    },
    {
      name: 'pg-boss job data carries the business id',
      code: `
        import PgBoss from 'pg-boss';
        await boss.work('invoice', async ([job]) => {
          await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.data.invoiceId } });
        });`,
    },
    {
      name: 'a table of messages keyed by the message id stores the message, not an effect',
      code: `
        async function save(db, message) {
          await db.query('INSERT INTO messages (id, body, received_at) VALUES ($1, $2, now()) ON CONFLICT (id) DO NOTHING', [message.id, message.body]);
        }`,
    },
    {
      name: 'a producer minting the idempotency key into the message it sends',
      code: `
        import { randomUUID } from 'node:crypto';
        export async function enqueue(customerId, amount) {
          await queue.add('charge', { customerId, amount, idempotencyKey: randomUUID() });
          await sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: JSON.stringify({ amount, idempotencyKey: randomUUID() }) }));
          await producer.send({ topic: 'charges', messages: [{ value: JSON.stringify({ amount, idempotencyKey: randomUUID() }) }] });
        }`,
    },
    {
      name: "a day bucket of the clock names today's run, not an attempt",
      code: `
        import Redis from 'ioredis';
        const digestDay = (date = new Date()) => date.toISOString().slice(0, 10);
        const lockKey = (date = new Date()) => \`digest:lock:\${digestDay(date)}\`;
        export const handler = async () => {
          const now = new Date();
          const key = lockKey(now);
          if ((await redis.set(key, '1', 'EX', 600, 'NX')) !== 'OK') return;
          await stripe.payouts.create({ amount: 1 }, { idempotencyKey: \`payout-\${Math.floor(Date.now() / 86_400_000)}\` });
        };`,
    },
    {
      name: "a date formatted to its day, or put at the start of its day, is today's batch, not an attempt",
      code: `
        import { format, startOfDay } from 'date-fns';
        export async function summarise(program) {
          const batchDate = format(new Date(), 'yyyy-MM-dd');
          await queueBatchEmail(program.users, { idempotencyKey: \`fraud-summary/\${program.id}/\${batchDate}\` });
          await resend.emails.send({ to: program.owner }, { idempotencyKey: \`digest-\${startOfDay(new Date()).getTime()}\` });
        }`,
    },
    {
      name: 'SQL the parser rejects is skipped',
      code: `
        new Worker('q', async (job) => { await db.query('INSRT INTO effects VALUES ($1)', [job.id]); });`,
    },
    {
      name: 'Prisma upsert keyed by the refund id from the payload',
      code: `
        new Worker('refunds', async (job) => {
          await prisma.refund.upsert({ where: { refundId: job.data.refundId }, create: { refundId: job.data.refundId, cents: job.data.cents }, update: {} });
        });`,
    },
    {
      name: 'a Kafka producer key is chosen by the producer, not the broker',
      code: `
        await consumer.run({ eachMessage: async ({ message }) => {
          await pool.query('INSERT INTO accounts (account_id) VALUES ($1) ON CONFLICT (account_id) DO NOTHING', [message.key.toString()]);
        }});`,
    },
    {
      name: 'DynamoDB: an inbox item claimed by the SQS message id, with attribute_not_exists',
      code: `
        import { PutCommand } from '@aws-sdk/lib-dynamodb';
        Consumer.create({
          handleMessage: async (message) => {
            await ddb.send(new PutCommand({ TableName: 'processed_messages', Item: { pk: message.MessageId }, ConditionExpression: 'attribute_not_exists(pk)' }));
          },
        });`,
    },
    {
      name: 'MongoDB driver: an inbox claimed by the AMQP message id',
      code: `
        import { MongoClient } from 'mongodb';
        channel.consume('q', async (msg) => {
          await db.collection('inbox').updateOne({ _id: msg.properties.messageId }, { $setOnInsert: { at: new Date() } }, { upsert: true });
        });`,
    },
    {
      name: 'Redis: SADD of the job id to a processed set is a claim',
      code: `
        import Redis from 'ioredis';
        new Worker('refunds', async (job) => {
          if (await redis.sadd('processed', job.id)) await issueRefund(job.data);
        });`,
    },
    {
      name: 'a Pulsar message id claimed in a processed-messages table, the effect keyed by the payload',
      code: `
        import Pulsar from 'pulsar-client';
        const msg = await consumer.receive();
        const refund = JSON.parse(msg.getData().toString());
        await pool.query('INSERT INTO processed_messages (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [msg.getMessageId().toString()]);
        await stripe.refunds.create({ charge: refund.chargeId }, { idempotencyKey: refund.refundId });`,
    },
    {
      name: 'a JetStream payload id as the conflict target',
      code: `
        import { connect } from 'nats';
        await c.consume({ callback: async (m) => {
          const order = m.json();
          await pool.query('INSERT INTO shipments (order_id, seq) VALUES ($1, $2) ON CONFLICT (order_id) DO NOTHING', [order.orderId, m.seq]);
        } });`,
    },
    {
      name: 'a Service Bus body id as a provider idempotency key',
      code: `
        import { ServiceBusClient } from '@azure/service-bus';
        receiver.subscribe({ processMessage: async (message) => {
          await stripe.payouts.create({ amount: message.body.cents }, { idempotencyKey: \`payout-\${message.body.payoutId}\` });
          await receiver.completeMessage(message);
        }, processError: async () => {} });`,
    },
    {
      name: 'a Stripe event id as the key of an inbox of handled events',
      code: `
        import Stripe from 'stripe';
        export async function POST(req) {
          const event = stripe.webhooks.constructEvent(await req.text(), req.headers.get('stripe-signature'), secret);
          await pool.query('INSERT INTO processed_events (event_id, received_at) VALUES ($1, now()) ON CONFLICT DO NOTHING', [event.id]);
        }`,
    },
    {
      name: "a provider's or a domain's table of events keyed by the event id stores the event itself",
      code: `
        import Stripe from 'stripe';
        export async function POST(req) {
          const event = stripe.webhooks.constructEvent(await req.text(), req.headers.get('stripe-signature'), secret);
          await prisma.paymentEvent.upsert({
            where: { provider_externalId: { provider: 'STRIPE', externalId: event.id } },
            create: { provider: 'STRIPE', externalId: event.id, organizationId: org.id, payload: event },
            update: { payload: event },
          });
          await pool.query('INSERT INTO paypal_webhook_events (event_id, body) VALUES ($1, $2)', [event.id, event]);
        }`,
    },
    {
      name: 'received mail stored by the message id, in an ingress table, stores the delivery itself',
      code: `
        export const handler = async (event) => {
          for (const record of event.Records) {
            const mail = JSON.parse(record.body);
            await knex('inbound_email_ingress').insert({ ingress_key: record.messageId, pointer: mail.key }).onConflict('ingress_key').ignore();
            await knex('inbound_emails').insert({ message_id: record.messageId, subject: mail.subject }).onConflict('message_id').ignore();
          }
        };`,
    },
    {
      name: 'a Stripe object id from the event as a provider idempotency key',
      code: `
        const event = stripe.webhooks.constructEvent(body, signature, secret);
        const charge = event.data.object;
        await ledger.post({ cents: charge.amount }, { idempotencyKey: \`refund-\${charge.id}\` });`,
    },
    {
      name: 'an Inngest event payload id as an idempotency key',
      code: `
        import { Inngest } from 'inngest';
        inngest.createFunction({ id: 'refund' }, { event: 'refund/requested' }, async ({ event, step }) => {
          await step.run('refund', () => stripe.refunds.create({ charge: event.data.chargeId }, { idempotencyKey: event.data.refundId }));
        });`,
    },
    {
      name: 'an EventBridge detail id as the conflict target',
      code: `
        import type { EventBridgeHandler } from 'aws-lambda';
        export const handler: EventBridgeHandler<'Paid', { paymentId: string }, void> = async (event) => {
          await pool.query('INSERT INTO receipts (payment_id) VALUES ($1) ON CONFLICT (payment_id) DO NOTHING', [event.detail.paymentId]);
        };`,
    },
    {
      name: 'a QStash message id claimed in an inbox, the effect keyed by the body',
      code: `
        import { verifySignatureAppRouter } from '@upstash/qstash/nextjs';
        export const POST = verifySignatureAppRouter(async (req: Request) => {
          const body = await req.json();
          await pool.query('INSERT INTO processed_messages (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [req.headers.get('Upstash-Message-Id')]);
          await stripe.refunds.create({ charge: body.chargeId }, { idempotencyKey: body.refundId });
        });`,
    },
    {
      name: 'a Temporal workflow id names the operation',
      code: `
        import { Context } from '@temporalio/activity';
        export async function refund(input: { cents: number }) {
          const { workflowId } = Context.current().info.workflowExecution;
          await stripe.refunds.create({ amount: input.cents }, { idempotencyKey: \`refund-\${workflowId}\` });
        }`,
    },
    {
      name: 'an effect read from a Redis stream keyed by its payload, the entry id only acknowledged',
      code: `
        import Redis from 'ioredis';
        const reply = await redis.xreadgroup('GROUP', 'payouts', 'worker-1', 'STREAMS', 'payouts', '>');
        for (const [, entries] of reply ?? []) {
          for (const [id, fields] of entries) {
            const payout = JSON.parse(fields[1]);
            await pool.query('INSERT INTO payouts (payout_id, cents) VALUES ($1, $2) ON CONFLICT (payout_id) DO NOTHING', [payout.payoutId, payout.cents]);
            await redis.xack('payouts', 'payouts', id);
          }
        }`,
    },
    {
      name: 'a Powertools idempotency key named by a path into the parsed body',
      code: `
        import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
        import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
        const persistenceStore = new DynamoDBPersistenceLayer({ tableName: 'idempotency' });
        const config = new IdempotencyConfig({ eventKeyJmesPath: 'powertools_json(body).refundId' });
        export const processRecord = makeIdempotent(async (record) => refund(JSON.parse(record.body)), { persistenceStore, config });`,
    },
    {
      name: 'a Powertools key path into an EventBridge detail',
      code: `
        import { IdempotencyConfig, makeHandlerIdempotent } from '@aws-lambda-powertools/idempotency';
        export const idempotency = makeHandlerIdempotent({ persistenceStore, config: new IdempotencyConfig({ eventKeyJmesPath: 'detail.paymentId' }) });`,
    },
    {
      name: "a Powertools key path read against what the module calls the wrapped function with: a parsed event's own id",
      code: `
        import type { SQSHandler } from 'aws-lambda';
        import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
        const config = new IdempotencyConfig({ eventKeyJmesPath: 'id' });
        const processIdempotently = makeIdempotent(async (letterEvent) => refund(letterEvent.data), { persistenceStore, config });
        export const handler: SQSHandler = async (event) => {
          for (const record of event.Records) {
            const letterEvent = schema.parse(JSON.parse(record.body));
            await processIdempotently(letterEvent);
          }
        };`,
    },
    {
      name: 'an Azure Functions queue trigger keying the refund by the refund the item names',
      code: `
        import { app } from '@azure/functions';
        app.storageQueue('refunds', {
          queueName: 'refunds',
          connection: 'Storage',
          handler: async (item, context) => {
            await stripe.refunds.create({ charge: item.chargeId }, { idempotencyKey: \`refund-\${item.refundId}\` });
          },
        });`,
    },
    {
      name: 'an eventKeyJmesPath of another library is not read',
      code: `
        import { IdempotencyConfig } from './my-idempotency';
        const config = new IdempotencyConfig({ eventKeyJmesPath: 'messageId' });`,
    },
    {
      name: 'SNS over SQS: a notification MessageId in the record body is known only by its name, and a name alone makes no finding',
      code: `
        import type { SQSHandler } from 'aws-lambda';
        export const handler: SQSHandler = async (event) => {
          for (const record of event.Records) {
            const notification = JSON.parse(record.body);
            await stripe.refunds.create({ charge: JSON.parse(notification.Message).chargeId }, { idempotencyKey: notification.MessageId });
          }
        };`,
    },
    {
      name: 'a let named as an idempotency key, assigned what names the operation',
      code: `
        export async function withdraw(userId, withdrawalId, diamonds) {
          let idempotencyKey;
          idempotencyKey = \`withdrawal:\${withdrawalId}\`;
          await wallet.deduct(userId, diamonds, idempotencyKey);
        }`,
    },
    {
      name: "an SADD whose reply nobody reads records a new refund's id in its team's set: no key refuses a repeat there",
      code: `
        import Redis from 'ioredis';
        import { randomUUID } from 'node:crypto';
        const redis = new Redis();
        export async function saveRefund(refund) {
          await redis.sadd(\`refunds_by_team:\${refund.teamId}\`, \`\${refund.refundId}-\${randomUUID()}\`);
        }`,
    },
    {
      name: 'a fresh key noted on a record the function keeps, after the request went out without it, is sent nowhere',
      code: `
        import axios from 'axios';
        import { v4 as uuidV4 } from 'uuid';
        async function sendCrawl(result) {
          const idempotencyKey = uuidV4();
          const response = await axios.post('https://api.example/crawl', { url: result.startUrl });
          result.idempotency_key = idempotencyKey;
          return response.data.jobId;
        }`,
    },
    {
      name: "a function called handler whose event has no Records: its event's messageId is only a name, as any payload's",
      filename: 'handler.js',
      code: `
        const Stripe = require('stripe');
        const stripe = new Stripe('key');
        exports.handler = async (event) => {
          const body = JSON.parse(event.body);
          await stripe.charges.create({ amount: body.cents, currency: 'usd' }, { idempotencyKey: body.messageId });
        };`,
    },
    {
      name: 'a fresh key beside the Lightning invoice it pays, in a consumer: the invoice can be paid once, the key names the attempt',
      code: `
        import { Worker } from 'bullmq';
        new Worker('withdrawals', async (job) => {
          const { bolt11 } = job.data;
          await wallet.payLightningInvoice({ invoice: bolt11, maxFeeSats: 10, idempotencyKey: crypto.randomUUID() });
        });`,
    },
    {
      name: 'outside a delivery, a fresh key on a check that moves no money: a second verification is only a second answer',
      code: `
        import { nanoid } from 'nanoid';
        export async function verifyCaptcha(token, ip) {
          const form = new FormData();
          form.append('response', token);
          form.append('idempotency_key', nanoid());
          const answer = await fetch('https://challenges.example.com/v0/siteverify', { method: 'POST', body: form });
          return (await answer.json()).success;
        }`,
    },
    {
      name: "a key handed to the project's event publisher, which only sends it on: made once, at the source",
      code: `
        import { Queue } from 'bullmq';
        import { randomUUID } from 'node:crypto';
        const events = new Queue('billing-events');
        async function publishBillingEvent(params) {
          await events.add(params.type, { ...params.payload, idempotencyKey: params.idempotencyKey });
        }
        export async function recordPayment(invoiceId, amount) {
          const paymentId = randomUUID();
          await publishBillingEvent({ type: 'PAYMENT_RECORDED', payload: { paymentId, invoiceId, amount }, idempotencyKey: \`payment_recorded:\${paymentId}\` });
        }`,
    },
    {
      name: "outside a delivery, a fresh key on a provider's customer record: a second one moves no money",
      code: `
        import Stripe from 'stripe';
        import { randomUUID } from 'node:crypto';
        const stripe = new Stripe('key');
        export async function createCustomer(email) {
          return stripe.customers.create({ email }, { idempotencyKey: 'customer:' + randomUUID() });
        }`,
    },
  ],
  invalid: [
    {
      name: 'the near miss of received mail: a reply to it keyed by the message id is an effect of handling it',
      code: `
        export const handler = async (event) => {
          for (const record of event.Records) {
            const mail = JSON.parse(record.body);
            await knex('inbound_email_replies').insert({ reply_key: record.messageId, to: mail.from }).onConflict('reply_key').ignore();
          }
        };`,
      errors: [{ messageId: 'deliveryKey', line: 5 }],
    },
    {
      name: "near miss: the prefix is a field the class may assign again, so the key's shape is unknown",
      code: `
        class Jobs {
          private lockPrefix = 'lock:';
          start() {
            new Worker('q', async (job) => {
              await redis.set(\`\${this.lockPrefix}\${job.id}\`, workerId, 'PX', 30000, 'NX');
            });
          }
        }`,
      errors: [{ messageId: 'deliveryKey' }],
    },
    {
      name: "an untyped CommonJS Lambda: reading event.Records confirms the event is Lambda's, and record.messageId is the SQS message's id",
      filename: 'handler.js',
      code: `
        const Stripe = require('stripe');
        const stripe = new Stripe('key');
        exports.handler = async (event) => {
          for (const record of event.Records) {
            const body = JSON.parse(record.body);
            await stripe.charges.create({ amount: body.cents, currency: 'usd', customer: body.customer }, { idempotencyKey: record.messageId });
          }
        };`,
      errors: [
        {
          messageId: 'deliveryKey',
          data: { key: "the 'idempotencyKey' option", source: "the SQS message id 'record.messageId' on line 7" },
          line: 7,
        },
      ],
    },
    {
      name: 'a fresh key assigned into a request body that is then sent',
      code: `
        import { randomUUID } from 'node:crypto';
        export async function payout(request) {
          const body = { amount: request.amount, destination: request.account };
          body.idempotency_key = randomUUID();
          await fetch('https://api.example/payouts', { method: 'POST', body: JSON.stringify(body) });
        }`,
      errors: [{ messageId: 'mintedKey', line: 5 }],
    },
    {
      name: 'an SADD whose reply decides: its member is the key that refuses a repeat',
      code: `
        import Redis from 'ioredis';
        import { randomUUID } from 'node:crypto';
        const redis = new Redis();
        export async function refundOnce(refund) {
          if (!(await redis.sadd('refunded', \`\${refund.refundId}-\${randomUUID()}\`))) return;
          await issueRefund(refund);
        }`,
      errors: [{ messageId: 'mixedKey', line: 6 }],
    },
    {
      name: 'the near miss of a key kept for retries: the request made afresh each time, its key with it',
      code: `
        import Stripe from 'stripe';
        import { randomUUID } from 'node:crypto';
        const stripe = new Stripe('key');
        const pending = { current: null };
        export async function placeTrade(contractId, direction, mana) {
          const fingerprint = [contractId, direction, mana].join(':');
          const request = { fingerprint, idempotencyKey: randomUUID() };
          pending.current = request;
          await stripe.charges.create({ customer: contractId, amount: mana }, { idempotencyKey: request.idempotencyKey });
          pending.current = null;
        }`,
      errors: [{ messageId: 'mintedKey', line: 10 }],
    },
    {
      name: 'a fresh key beside an amount to send, in a consumer: nothing else settles a second payment',
      code: `
        import { Worker } from 'bullmq';
        new Worker('withdrawals', async (job) => {
          const { address, sats } = job.data;
          await wallet.sendToAddress({ address, sats, idempotencyKey: crypto.randomUUID() });
        });`,
      errors: [{ messageId: 'mintedKey', line: 5 }],
    },
    {
      name: "outside a delivery, a fresh key on a provider's charge: a second click charges twice",
      code: `
        import Stripe from 'stripe';
        import { randomUUID } from 'node:crypto';
        const stripe = new Stripe('key');
        export async function chargeCustomer(customer, cents) {
          return stripe.charges.create({ customer, amount: cents }, { idempotencyKey: 'charge:' + randomUUID() });
        }`,
      errors: [{ messageId: 'mintedKey', line: 6 }],
    },
    {
      name: "near miss: the helper handed the key charges as well as publishing, so the key is the charge's",
      code: `
        import { Queue } from 'bullmq';
        import Stripe from 'stripe';
        import { randomUUID } from 'node:crypto';
        const stripe = new Stripe('key');
        const events = new Queue('billing-events');
        async function chargeAndPublish(params) {
          await stripe.charges.create({ customer: params.customer, amount: params.amount }, { idempotencyKey: params.idempotencyKey });
          await events.add('charged', { customer: params.customer });
        }
        export async function chargeCustomer(customer, amount) {
          await chargeAndPublish({ customer, amount, idempotencyKey: 'charge:' + randomUUID() });
        }`,
      errors: [{ messageId: 'mintedKey', line: 8 }],
    },
    {
      name: 'outside a delivery, a fresh key on a request named for a transfer: the names say it moves money',
      code: `
        import { nanoid } from 'nanoid';
        export async function sendFunds(account, cents) {
          await fetch('https://api.example.com/v1/transfers', { method: 'POST', headers: { 'Idempotency-Key': nanoid() }, body: JSON.stringify({ account, cents }) });
        }`,
      errors: [{ messageId: 'mintedKey', line: 4 }],
    },
    {
      name: 'a helper whose every return is fresh makes a new key on each call',
      code: `
        function token(kind) {
          if (kind === 'a') return crypto.randomUUID();
          return \`b-\${Date.now()}\`;
        }
        export async function store(events) {
          await ledger.recordMany(events, { dedupToken: token('b') });
        }`,
      errors: [{ messageId: 'mintedKey', line: 7 }],
    },
    {
      name: "an option beside an update's data is still handed to the call: only the stored values are the row's",
      code: `
        export async function touch(orderId) {
          await this.client.orders.update({ where: { id: orderId }, data: { note: 'x' } }, { idempotencyKey: crypto.randomUUID() });
        }`,
      errors: [{ messageId: 'mintedKey', line: 3 }],
    },
    {
      name: 'a slice of a hash of the clock is as fresh as the clock: no period survives the hash',
      code: `
        import crypto from 'node:crypto';
        export async function book(userId, fieldId) {
          const key = crypto.createHash('sha256').update(\`\${userId}_\${fieldId}_\${Date.now()}\`).digest('hex').substring(0, 32);
          await stripe.paymentIntents.create({ amount: 500 }, { idempotencyKey: key });
        }`,
      errors: [{ messageId: 'mixedKey', line: 5 }],
    },
    {
      name: 'a business id joined with the clock in an idempotency column, outside any delivery',
      code: `
        export async function refund(paymentId, cents) {
          await prisma.payment.create({ data: { amount: -cents, idempotencyKey: \`refund-\${paymentId}-\${Date.now()}\` } });
        }`,
      errors: [{ messageId: 'mixedKey', line: 3 }],
    },
    {
      name: 'a binding named as an idempotency key that joins the owner with the clock, reported once where it is made',
      code: `
        export async function withdraw(userId, diamonds) {
          const idempotencyKey = \`withdrawal:\${userId}:\${Date.now()}\`;
          await wallet.deduct(userId, diamonds, idempotencyKey);
          await ledger.post({ userId, diamonds, idempotencyKey });
        }`,
      errors: [{ messageId: 'mixedKey', line: 3 }],
    },
    {
      name: 'a let named as an idempotency key, given a fresh part in a try and a fallback in its catch',
      code: `
        export async function withdraw(userId, diamonds) {
          let idempotencyKey;
          try {
            idempotencyKey = \`withdrawal:\${userId}:\${Date.now()}\`;
          } catch (error) {
            idempotencyKey = userId;
          }
          await wallet.deduct(userId, diamonds, idempotencyKey);
        }`,
      errors: [{ messageId: 'mixedKey', line: 5 }],
    },
    {
      name: 'a key minted inside the retry callback is new on every try',
      code: `
        import pRetry from 'p-retry';
        export async function refund(paymentId) {
          await pRetry(() => stripe.refunds.create({ payment_intent: paymentId }, { idempotencyKey: \`refund-\${paymentId}-\${Date.now()}\` }), { retries: 3 });
        }`,
      errors: [{ messageId: 'mixedKey', line: 4 }],
    },
    {
      name: 'a loop over slots makes a key per slot from a fresh base: not a retry, each booking gets a new key',
      code: `
        export async function bookSlots(slots) {
          const base = crypto.randomUUID();
          for (let i = 0; i < slots.length; i++) {
            const slotKey = \`\${base}_slot_\${i}\`;
            await stripe.paymentIntents.create({ amount: slots[i].cents }, { idempotencyKey: slotKey });
          }
        }`,
      errors: [{ messageId: 'mintedKey', line: 6 }],
    },
    {
      name: 'a retry loop inside a delivery handler: a redelivery makes the key again',
      code: `
        new Worker('refunds', async (job) => {
          const idempotencyKey = \`refund-\${job.data.paymentId}-\${Date.now()}\`;
          for (let attempt = 0; attempt < 3; attempt++) {
            try { return await stripe.refunds.create({ payment_intent: job.data.paymentId }, { idempotencyKey }); } catch {}
          }
        });`,
      errors: [{ messageId: 'mixedKey', line: 3 }],
    },
    {
      name: 'a date formatted to the millisecond is new on every attempt',
      code: `
        import { format } from 'date-fns';
        export async function rewardAll(program) {
          await queueRewards(program.users, { idempotencyKey: \`rewards/\${program.id}/\${format(new Date(), 'yyyy-MM-dd HH:mm:ss.SSS')}\` });
        }`,
      errors: [{ messageId: 'mixedKey', line: 4 }],
    },
    {
      name: 'a minted dedupe key in a helper that a handler calls',
      code: `
        async function charge(cents) {
          await db.query('INSERT INTO charges (charge_key, cents) VALUES (gen_random_uuid(), $1) ON CONFLICT (charge_key) DO NOTHING', [cents]);
        }
        channel.consume('charges', async (msg) => { await charge(JSON.parse(msg.content.toString()).cents); });`,
      errors: [{ messageId: 'mintedKey', line: 3 }],
    },
    {
      name: 'the lesson question 1 handler: the effect keyed by the id the same code claims in its inbox',
      code: `
        async function insertInbox(db, messageId) {
          const claim = await db.query('INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING message_id', [messageId]);
          return claim.rows.length === 1;
        }
        async function handle(db, message) {
          const inboxId = message.id;
          const effectId = message.id;
          if (await insertInbox(db, inboxId)) {
            await db.query('INSERT INTO effects(effect_id, amount) VALUES($1,$2)', [effectId, message.cents]);
          }
        }`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 10,
          data: {
            key: "the key 'effect_id' of the INSERT into effects",
            source: "the message's delivery id 'message.id' on line 8",
          },
        },
      ],
    },
    {
      name: 'kafkajs topic, partition and offset as a provider idempotency key',
      code: `
        import { Kafka } from 'kafkajs';
        await consumer.run({ eachMessage: async ({ topic, partition, message }) => {
          const key = \`\${topic}-\${partition}-\${message.offset}\`;
          await stripe.refunds.create({ amount: 100 }, { idempotencyKey: key });
        }});`,
      errors: [{ messageId: 'deliveryKey', line: 5 }],
    },
    {
      name: 'the origin of the key: where the delivery value was read, in the message and in the data',
      code: `
        const amqp = require('amqplib');
        channel.consume('ledger', async (msg) => {
          const entryId = msg.properties.messageId;
          const entry = JSON.parse(msg.content.toString());
          await pool.query('INSERT INTO ledger (entry_id, cents) VALUES ($1, $2)', [entryId, entry.cents]);
        });`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 6,
          data: {
            key: "the key 'entry_id' of the INSERT into ledger",
            source: "the AMQP message id 'msg.properties.messageId' on line 4",
            origin: '4:27',
          },
        },
      ],
    },
    {
      name: 'the AMQP message id as the conflict target of an effect',
      code: `
        const amqp = require('amqplib');
        channel.consume('ledger', async (msg) => {
          const entry = JSON.parse(msg.content.toString());
          await pool.query('INSERT INTO ledger (entry_id, cents) VALUES ($1, $2) ON CONFLICT (entry_id) DO NOTHING', [msg.properties.messageId, entry.cents]);
        });`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 5,
          data: {
            key: "the key 'entry_id' of the INSERT into ledger",
            source: "the AMQP message id 'msg.properties.messageId' on line 5",
          },
        },
      ],
    },
    {
      name: 'the AMQP delivery tag through a function in the same file',
      code: `
        async function book(db, key, cents) {
          await db.query('INSERT INTO ledger (entry_id, cents) VALUES ($1, $2)', [key, cents]);
        }
        channel.consume('ledger', (msg) => book(pool, String(msg.fields.deliveryTag), 10));`,
      errors: [{ messageId: 'deliveryKey', line: 3 }],
    },
    {
      name: 'the BullMQ job id as the unique where of a Prisma upsert',
      code: `
        import { Worker } from 'bullmq';
        new Worker('refunds', async (job) => {
          await prisma.refund.upsert({ where: { id: job.id }, create: { id: job.id, cents: job.data.cents }, update: {} });
        });`,
      errors: [{ messageId: 'deliveryKey', line: 4 }],
    },
    {
      name: 'the BullMQ attempt count mixed into a key',
      code: `
        const worker = new Worker('mail', async (job) => {
          await sendgrid.send({ to: job.data.to }, { headers: { 'Idempotency-Key': \`\${job.data.mailId}-\${job.attemptsMade}\` } });
        });`,
      errors: [{ messageId: 'deliveryKey', line: 3 }],
    },
    {
      name: 'the SQS message id from ReceiveMessageCommand, in a loop',
      code: `
        import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
        const output = await sqs.send(new ReceiveMessageCommand({ QueueUrl }));
        for (const m of output.Messages ?? []) {
          await db.query('INSERT INTO payouts (payout_id, cents) VALUES ($1, $2) ON CONFLICT (payout_id) DO NOTHING', [m.MessageId, JSON.parse(m.Body).cents]);
        }`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 5,
          data: {
            key: "the key 'payout_id' of the INSERT into payouts",
            source: "the SQS message id 'm.MessageId' on line 5",
          },
        },
      ],
    },
    {
      name: 'a Lambda SQS handler keying a refund by the record id',
      code: `
        import type { SQSHandler } from 'aws-lambda';
        export const handler: SQSHandler = async (event) => {
          for (const record of event.Records) {
            const body = JSON.parse(record.body);
            await stripe.refunds.create({ charge: body.chargeId }, { idempotencyKey: record.messageId });
          }
        };`,
      errors: [{ messageId: 'deliveryKey', line: 6 }],
    },
    {
      name: 'pg-boss job id in an Idempotency-Key header',
      code: `
        import PgBoss from 'pg-boss';
        await boss.work('charge', async ([job]) => {
          await fetch(url, { method: 'POST', headers: { 'Idempotency-Key': job.id } });
        });`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 4,
          data: { key: "the 'Idempotency-Key' header", source: "the pg-boss job id 'job.id' on line 4" },
        },
      ],
    },
    {
      name: 'a random UUID as a provider idempotency key',
      code: `
        import { randomUUID } from 'node:crypto';
        export async function charge(order) {
          return stripe.paymentIntents.create({ amount: order.cents }, { idempotencyKey: randomUUID() });
        }`,
      errors: [
        {
          messageId: 'mintedKey',
          line: 4,
          data: { key: "the 'idempotencyKey' option", source: "a random UUID 'randomUUID()' on line 4" },
        },
      ],
    },
    {
      name: 'request options returned with a fresh key are still reported while a job is handled',
      code: `
        import { randomUUID } from 'node:crypto';
        new Worker('refunds', async (job) => {
          const options = () => ({ idempotencyKey: randomUUID() });
          await stripe.refunds.create({ charge: job.data.chargeId }, options());
        });`,
      errors: [{ messageId: 'mintedKey', line: 4 }],
    },
    {
      name: 'the clock in a conflict target',
      code: `
        new Worker('q', async (job) => {
          await db.query('INSERT INTO shipments (shipment_key) VALUES ($1) ON CONFLICT (shipment_key) DO NOTHING', [\`\${job.data.orderId}-\${Date.now()}\`]);
        });`,
      errors: [{ messageId: 'mixedKey', line: 3 }],
    },
    {
      name: 'gen_random_uuid() in SQL as the conflict target, while a job is handled',
      code: `
        new Worker('charges', async (job) => {
          await db.query('INSERT INTO charges (charge_key, cents) VALUES (gen_random_uuid(), $1) ON CONFLICT (charge_key) DO NOTHING', [job.data.cents]);
        });`,
      errors: [{ messageId: 'mintedKey', line: 3 }],
    },
    {
      name: 'near miss: now() itself as the conflict target, while a job is handled',
      code: `
        new Worker('usage', async (job) => {
          await db.query('INSERT INTO monthly_usage (org_id, month, sent) SELECT org_id, now(), count(*) FROM message GROUP BY 1, 2 ON CONFLICT (org_id, month) DO UPDATE SET sent = excluded.sent', []);
        });`,
      errors: [{ messageId: 'mintedKey', line: 3 }],
    },
    {
      name: 'the worker host name in a key',
      code: `
        import os from 'node:os';
        new Worker('q', async (job) => {
          await stripe.transfers.create({ amount: 5 }, { idempotencyKey: \`\${os.hostname()}:\${job.data.transferId}\` });
        });`,
      errors: [{ messageId: 'workerKey', line: 4 }],
    },
    {
      name: 'a hash of the message id is still the message id',
      code: `
        import { createHash } from 'node:crypto';
        channel.consume('q', async (msg) => {
          const effectId = createHash('sha256').update(msg.properties.messageId).digest('hex');
          await pool.query('INSERT INTO effects (effect_id, cents) VALUES ($1, $2)', [effectId, 5]);
        });`,
      errors: [{ messageId: 'deliveryKey', line: 5 }],
    },
    {
      name: 'a postgres.js tagged template keyed by the Kafka offset',
      code: `
        await consumer.run({ eachMessage: async ({ message }) => {
          const { cents } = JSON.parse(message.value.toString());
          await sql\`INSERT INTO effects (effect_id, amount) VALUES (\${message.offset}, \${cents}) ON CONFLICT (effect_id) DO NOTHING\`;
        }});`,
      errors: [{ messageId: 'deliveryKey', line: 4 }],
    },
    {
      name: 'knex insert keyed by the job id',
      code: `
        new Worker('q', async (job) => {
          await knex('effects').insert({ effect_id: job.id, amount: job.data.cents }).onConflict('effect_id').ignore();
        });`,
      errors: [{ messageId: 'deliveryKey', line: 3 }],
    },
    {
      name: 'Drizzle insert keyed by the job id',
      code: `
        new Worker('q', async (job) => {
          await db.insert(effects).values({ effectId: job.id, amount: job.data.cents }).onConflictDoNothing({ target: effects.effectId });
        });`,
      errors: [{ messageId: 'deliveryKey', line: 3 }],
    },
    {
      name: 'a Redis NX key guarding an effect, keyed by the job id',
      code: `
        import Redis from 'ioredis';
        new Worker('refunds', async (job) => {
          if (await redis.set(\`refund:\${job.id}\`, '1', 'NX')) await issueRefund(job.data);
        });`,
      errors: [{ messageId: 'deliveryKey', line: 4 }],
    },
    {
      name: 'a NestJS Kafka handler keying a TypeORM upsert by the offset',
      code: `
        import { Ctx, EventPattern, KafkaContext, Payload } from '@nestjs/microservices';
        class RefundsController {
          @EventPattern('refunds')
          async onRefund(@Payload() data: { cents: number }, @Ctx() context: KafkaContext) {
            await this.refunds.upsert({ refundKey: context.getMessage().offset, cents: data.cents }, ['refundKey']);
          }
        }`,
      errors: [{ messageId: 'deliveryKey', line: 6 }],
    },
    {
      name: 'a Mongoose upsert filtered by the AMQP message id',
      code: `
        channel.consume('q', async (msg) => {
          await Refund.updateOne({ _id: msg.properties.messageId }, { $set: { cents: 5 } }, { upsert: true });
        });`,
      errors: [{ messageId: 'deliveryKey', line: 3 }],
    },
    {
      name: 'an Idempotency-Key header set on a Headers object',
      code: `
        new Worker('q', async (job) => {
          const headers = new Headers();
          headers.set('Idempotency-Key', job.id);
          await fetch(url, { headers });
        });`,
      errors: [{ messageId: 'deliveryKey', line: 4 }],
    },
    {
      name: 'Sequelize replacements with ? placeholders',
      code: `
        new Worker('q', async (job) => {
          await sequelize.query('INSERT INTO effects (effect_id, amount) VALUES (?, ?) ON CONFLICT DO NOTHING', { replacements: [job.id, job.data.cents] });
        });`,
      errors: [{ messageId: 'deliveryKey', line: 3 }],
    },
    {
      name: 'SQL text held in a constant, values in a pg config object',
      code: `
        const insertEffect = 'INSERT INTO effects (effect_id, amount) VALUES ($1, $2)';
        channel.consume('q', async (msg) => {
          await client.query({ text: insertEffect, values: [msg.properties.messageId, 10] });
        });`,
      errors: [{ messageId: 'deliveryKey', line: 4 }],
    },
    {
      name: 'DynamoDB: a payment claimed by the SQS message id',
      code: `
        import { PutCommand } from '@aws-sdk/lib-dynamodb';
        Consumer.create({
          handleMessage: async (message) => {
            const body = JSON.parse(message.Body);
            await ddb.send(new PutCommand({ TableName: 'payments', Item: { paymentKey: message.MessageId, amount: body.amount }, ConditionExpression: 'attribute_not_exists(paymentKey)' }));
          },
        });`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 6,
          data: {
            key: "the key 'paymentKey' of the DynamoDB PutCommand on payments",
            source: "the SQS message id 'message.MessageId' on line 6",
          },
        },
      ],
    },
    {
      name: 'MongoDB driver: a payment upsert filtered by the AMQP message id',
      code: `
        import { MongoClient } from 'mongodb';
        channel.consume('q', async (msg) => {
          await db.collection('payments').updateOne({ paymentId: msg.properties.messageId }, { $setOnInsert: { cents: 5 } }, { upsert: true });
        });`,
      errors: [{ messageId: 'deliveryKey', line: 4 }],
    },
    {
      name: 'a Pulsar message id as a provider idempotency key',
      code: `
        import Pulsar from 'pulsar-client';
        await client.subscribe({ topic: 'refunds', subscription: 'svc', listener: async (msg, consumer) => {
          await stripe.refunds.create({ amount: 5 }, { idempotencyKey: msg.getMessageId().toString() });
          consumer.acknowledge(msg);
        } });`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 4,
          data: { key: "the 'idempotencyKey' option", source: "the Pulsar message id 'msg.getMessageId()' on line 4" },
        },
      ],
    },
    {
      name: 'a JetStream stream sequence as the conflict target of an effect',
      code: `
        import { connect } from 'nats';
        const messages = await c.consume();
        for await (const m of messages) {
          await pool.query('INSERT INTO ledger (entry_id, cents) VALUES ($1, $2) ON CONFLICT (entry_id) DO NOTHING', [m.info.streamSequence, m.json().cents]);
          m.ack();
        }`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 5,
          data: {
            key: "the key 'entry_id' of the INSERT into ledger",
            source: "the JetStream stream sequence 'm.info.streamSequence' on line 5",
          },
        },
      ],
    },
    {
      name: 'a Service Bus message id as the key of a refund',
      code: `
        import { ServiceBusClient } from '@azure/service-bus';
        receiver.subscribe({ processMessage: async (message) => {
          await prisma.refund.upsert({ where: { id: message.messageId }, create: { id: message.messageId, cents: message.body.cents }, update: {} });
        }, processError: async () => {} });`,
      errors: [{ messageId: 'deliveryKey', line: 4 }],
    },
    {
      name: 'a Stripe event id as the key of an effect',
      code: `
        import Stripe from 'stripe';
        const event = stripe.webhooks.constructEvent(body, signature, secret);
        await ledger.post({ cents: event.data.object.amount }, { idempotencyKey: event.id });`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 4,
          data: { key: "the 'idempotencyKey' option", source: "the Stripe event id 'event.id' on line 4" },
        },
      ],
    },
    {
      name: 'the Inngest attempt mixed into a key',
      code: `
        import { Inngest } from 'inngest';
        inngest.createFunction({ id: 'mail' }, { event: 'mail/send' }, async ({ event, attempt }) => {
          await mailer.send({ to: event.data.to }, { headers: { 'Idempotency-Key': \`\${event.data.mailId}-\${attempt}\` } });
        });`,
      errors: [{ messageId: 'deliveryKey', line: 4 }],
    },
    {
      name: 'Redis: an SADD member built from the job id guarding a refund',
      code: `
        import Redis from 'ioredis';
        new Worker('refunds', async (job) => {
          if (await this.store.sadd('refunds', \`\${job.data.accountId}:\${job.id}\`)) await issueRefund(job.data);
        });`,
      errors: [{ messageId: 'deliveryKey', line: 4 }],
    },
    {
      name: 'an EventBridge event id as the key of an effect',
      code: `
        export async function onPaid(event: EventBridgeEvent<'Paid', { paymentId: string }>) {
          await pool.query('INSERT INTO receipts (receipt_id, payment_id) VALUES ($1, $2) ON CONFLICT (receipt_id) DO NOTHING', [event.id, event.detail.paymentId]);
        }`,
      errors: [{ messageId: 'deliveryKey', line: 3 }],
    },
    {
      name: 'the QStash message id as a provider idempotency key',
      code: `
        import { Receiver } from '@upstash/qstash';
        export async function POST(req: Request) {
          const body = await req.json();
          await stripe.refunds.create({ charge: body.chargeId }, { idempotencyKey: req.headers.get('Upstash-Message-Id') });
        }`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 5,
          data: {
            key: "the 'idempotencyKey' option",
            source: "the QStash message id 'req.headers.get('Upstash-Message-Id')' on line 5",
          },
        },
      ],
    },
    {
      name: 'the Temporal activity id and attempt as a key',
      code: `
        import { Context } from '@temporalio/activity';
        export async function charge(input: { cents: number }) {
          const { info } = Context.current();
          await stripe.charges.create({ amount: input.cents }, { idempotencyKey: \`\${info.activityId}-\${info.attempt}\` });
        }`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 5,
          data: {
            key: "the 'idempotencyKey' option",
            source:
              "the Temporal activity id 'info.activityId' and the Temporal activity attempt 'info.attempt' on line 5",
          },
        },
      ],
    },
    {
      name: 'delivery values read on two lines: each named with its own line',
      code: `
        import { Context } from '@temporalio/activity';
        export async function charge(input: { cents: number }) {
          const id = Context.current().info.activityId;
          const attempt = Context.current().info.attempt;
          await stripe.charges.create({ amount: input.cents }, { idempotencyKey: \`\${id}-\${attempt}\` });
        }`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 6,
          data: {
            key: "the 'idempotencyKey' option",
            source:
              "the Temporal activity id 'Context.current().info.activityId' on line 4 and the Temporal activity attempt 'Context.current().info.attempt' on line 5",
          },
        },
      ],
    },
    {
      name: 'a Redis stream entry id as the conflict target of an effect',
      code: `
        import Redis from 'ioredis';
        const reply = await redis.xreadgroup('GROUP', 'payouts', 'worker-1', 'STREAMS', 'payouts', '>');
        for (const [, entries] of reply ?? []) {
          for (const [id, fields] of entries) {
            await pool.query('INSERT INTO payouts (payout_id, cents) VALUES ($1, $2) ON CONFLICT (payout_id) DO NOTHING', [id, JSON.parse(fields[1]).cents]);
          }
        }`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 6,
          data: { key: "the key 'payout_id' of the INSERT into payouts", source: "the stream entry id 'id' on line 6" },
        },
      ],
    },
    {
      name: 'a Powertools idempotency key named by the SQS message id',
      code: `
        import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
        import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
        const persistenceStore = new DynamoDBPersistenceLayer({ tableName: 'idempotency' });
        const config = new IdempotencyConfig({ eventKeyJmesPath: 'messageId' });
        export const processRecord = makeIdempotent(async (record) => refund(JSON.parse(record.body)), { persistenceStore, config });`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 5,
          data: {
            key: "the idempotency key 'messageId' named by 'eventKeyJmesPath'",
            source: "the SQS message id 'messageId'",
          },
        },
      ],
    },
    {
      name: 'near miss: the wrapped function called with the SQS record itself, keyed by its message id',
      code: `
        import type { SQSHandler } from 'aws-lambda';
        import { IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
        const config = new IdempotencyConfig({ eventKeyJmesPath: 'messageId' });
        const processIdempotently = makeIdempotent(async (record) => refund(JSON.parse(record.body)), { persistenceStore, config });
        export const handler: SQSHandler = async (event) => {
          for (const record of event.Records) await processIdempotently(record);
        };`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 4,
          data: {
            key: "the idempotency key 'messageId' named by 'eventKeyJmesPath'",
            source: "the SQS message id 'messageId'",
          },
        },
      ],
    },
    {
      name: 'near miss: the same Azure Functions trigger keying the refund by its invocation, new on every try',
      code: `
        import { app } from '@azure/functions';
        app.storageQueue('refunds', {
          queueName: 'refunds',
          connection: 'Storage',
          handler: async (item, context) => {
            await stripe.refunds.create({ charge: item.chargeId }, { idempotencyKey: context.invocationId });
          },
        });`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 7,
          data: {
            key: "the 'idempotencyKey' option",
            source: "the Azure Functions invocation id 'context.invocationId' on line 7",
          },
        },
      ],
    },
    {
      name: 'a Powertools decorator keyed by the first record of a whole event',
      code: `
        import { idempotent, IdempotencyConfig } from '@aws-lambda-powertools/idempotency';
        class Lambda {
          @idempotent({ persistenceStore, config: new IdempotencyConfig({ eventKeyJmesPath: 'Records[0].receiptHandle' }) })
          async handler(event) { return refund(event); }
        }`,
      errors: [
        {
          messageId: 'deliveryKey',
          line: 4,
          data: {
            key: "the idempotency key 'Records[0].receiptHandle' named by 'eventKeyJmesPath'",
            source: "the SQS receipt handle 'Records[0].receiptHandle'",
          },
        },
      ],
    },
    {
      name: 'SNS over SQS: the notification MessageId claimed in the inbox and keying the effect too',
      code: `
        import type { SQSHandler } from 'aws-lambda';
        export const handler: SQSHandler = async (event) => {
          for (const record of event.Records) {
            const notification = JSON.parse(record.body);
            await pool.query('INSERT INTO processed_messages (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [notification.MessageId]);
            await stripe.refunds.create({ charge: JSON.parse(notification.Message).chargeId }, { idempotencyKey: notification.MessageId });
          }
        };`,
      errors: [{ messageId: 'deliveryKey', line: 7 }],
    },
  ],
});
