import { noInMemoryDedupe } from '../../../eslint-plugin/src/rules/no-in-memory-dedupe/index.js';
import { ruleTester } from '../rule-tester.js';

const kafka = `import { Kafka } from 'kafkajs';`;

/** A consumer that keeps a flag per task while it records the task's run, then runs `after`. */
const taskFlags = (after: string) => `${kafka}
  const running: Record<string, boolean> = {};
  consumer.run({ eachMessage: async ({ message }) => {
    const task = JSON.parse(message.value!.toString());
    if (running[task.name]) return;
    running[task.name] = true;
    await pool.query('INSERT INTO task_runs (task, height) VALUES ($1, $2)', [task.name, task.height]);
    ${after}
  } });`;

/** A queue set up once per process, by a name of type `keyType` (declared by `declared`): its clean-up empties old jobs. */
const queueSetUp = (declared: string, keyType: string) => `
  import { Queue } from 'bullmq';
  ${declared}
  const cleaned = new Set<string>();
  export async function cleanOnStartup(name: ${keyType}) {
    if (cleaned.has(name)) return;
    cleaned.add(name);
    await new Queue(name).clean(0, 1000, 'completed');
    await fetch('https://hooks.example.com/cleaned', { method: 'POST', body: name });
  }`;

/** A Kafka consumer that remembers each voucher in a node-cache, around `effects`. */
/** A consumer that alerts a room about an event, at most once per key while an LRU cache made with `options` holds it. */
const roomAlerts = (
  options: string,
  key = 'event.roomId',
  effect = 'await chat.sendMessage(event.roomId, event.text);',
) => `${kafka}
        import { LRUCache } from 'lru-cache';
        const lastAlertForRoom = new LRUCache<string, true>(${options});
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value!.toString());
          if (lastAlertForRoom.has(${key})) return;
          lastAlertForRoom.set(${key}, true);
          ${effect}
        } });`;

/** A consumer that answers each sender once, remembering them in a Set named `name`, asked with `key`. */
const answerOnce = (
  name: string,
  key = 'event.username',
  effect = 'await chat.sendMessage(event.roomId, event.text);',
) => `${kafka}
        const ${name} = new Set<string>();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value!.toString());
          if (${name}.has(${key})) return;
          ${name}.add(${key});
          ${effect}
        } });`;

/** A module that runs each tool call it is handed once per process, then reports it done to `url` by a POST. */
const toolOnce = (url: string) => `
        const executed = new Set<string>();
        export async function runToolCall(toolCallId: string, args: unknown) {
          if (executed.has(toolCallId)) return;
          executed.add(toolCallId);
          await fetch(${url}, { method: 'POST', body: JSON.stringify({ toolCallId, args }) });
        }`;

/** A consumer whose work records finished runs in memory, asked in its \`catch\` (\`where\`) or before the work. */
const finishedRuns = (where: 'catch' | 'before') => `${kafka}
        const finished = new Set<string>();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value!.toString());
          ${where === 'before' ? 'if (finished.has(event.runId)) return;' : ''}
          try {
            await runWorkflow(event);
            finished.add(event.runId);
          } catch (error) {
            ${where === 'catch' ? 'if (finished.has(event.runId)) return;' : ''}
            await pool.query('INSERT INTO run_failures (run_id, error) VALUES ($1, $2)', [event.runId, String(error)]);
          }
        } });`;

/** A Kafka consumer that refunds each order once, remembering the order in a Set, with the refund's `options`. */
const refundOnce = (options = '') => `${kafka}
        import Stripe from 'stripe';
        const stripe = new Stripe(process.env.STRIPE_KEY!);
        const refunded = new Set<string>();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value!.toString());
          if (refunded.has(event.orderId)) return;
          await stripe.refunds.create({ charge: event.chargeId }${options});
          refunded.add(event.orderId);
        } });`;

const voucherConsumer = (effects: string) => `${kafka}
        import Cache from 'node-cache';
        import Redis from 'ioredis';
        const redis = new Redis();
        const seen = new Cache({ stdTTL: 600 });
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value!.toString());
          if (seen.get(event.voucherId)) return;${effects}
          seen.set(event.voucherId, 1);
        } });`;

/** A buffer of a chat turn's tokens that sends the first at once: `end` is what its end of turn does. */
const turnBuffer = (end: string) => `
        import Redis from 'ioredis';
        export class TurnBuffer {
          private readonly firstSent = new Set<string>();
          private readonly pending = new Map<string, string>();
          constructor(private readonly redis: Redis) {}
          async append(turnId: string, text: string): Promise<void> {
            this.pending.set(turnId, (this.pending.get(turnId) ?? '') + text);
            if (!this.firstSent.has(turnId)) {
              this.firstSent.add(turnId);
              await this.redis.xadd(\`turn:\${turnId}\`, '*', 'text', text);
            }
          }
          async finish(turnId: string): Promise<void> {
            ${end}
          }
        }`;

/** A consumer of connection events that tells operators once per outage; `name` is the memory, emptied on reconnecting. */
const outageAlerts = (name: string) => `${kafka}
  class Alerts {
    private ${name} = new Set<string>();
    constructor(private readonly chat: ChatClient) {}
    start() {
      consumer.run({ eachMessage: async ({ message }) => {
        const event = JSON.parse(message.value!.toString());
        if (event.type === 'lost') await this.lost(event.service);
        else await this.back(event.service);
      } });
    }
    private lost = async (service: string) => {
      if (this.${name}.has(service)) return;
      this.${name}.add(service);
      await this.chat.sendMessage('Lost ' + service);
    };
    private back = async (service: string) => {
      if (!this.${name}.has(service)) return;
      this.${name}.delete(service);
      await this.chat.sendMessage('Back: ' + service);
    };
  }`;

ruleTester.run('no-in-memory-dedupe', noInMemoryDedupe, {
  valid: [
    {
      name: 'people answered once: a Set named for the user names it holds, asked with the sender, before a message',
      code: answerOnce('alreadyCheckedUsernames'),
    },
    {
      name: 'a rate limit of notices: an LRU cache whose keys expire, named for the last alert, asked with the room',
      code: roomAlerts('{ max: 1000, ttl: 1000 * 60 * 8 }'),
    },
    {
      name: 'a state that comes and goes (the services now disconnected), set back on reconnecting: a mode, not a record',
      code: outageAlerts('disconnected'),
    },
    {
      name: 'a retry a timer starts, its key taken out when the retry ends (.finally): a retry in flight, not a record',
      code: `${kafka}
        const pendingRetries = new Set<string>();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value!.toString());
          if (pendingRetries.has(event.id)) return;
          pendingRetries.add(event.id);
          setTimeout(() => {
            pool.query('INSERT INTO transitions (execution_id) VALUES ($1)', [event.id]).finally(() => pendingRetries.delete(event.id));
          }, 5000);
        } });`,
    },
    {
      name: 'a Redis SET or an UPDATE of values behind the memory: a second run leaves the same state',
      code: voucherConsumer(`
          await redis.set('voucher:' + event.voucherId + ':owner', event.accountId);
          await pool.query('UPDATE vouchers SET owner_id = $1, used_at = now() WHERE id = $2', [event.accountId, event.voucherId]);`),
    },
    {
      name: 'a key that can only be one of the queues an enum declares: a set-up per queue, per process by design',
      code: queueSetUp(`export enum QueueName { Orders = 'orders', Refunds = 'refunds' }`, 'QueueName'),
    },
    {
      name: 'a key typed with a union of literal names, through a type alias',
      code: queueSetUp(`type QueueName = 'orders' | 'refunds';`, 'QueueName'),
    },
    {
      name: "a page's module (it imports a UI framework): its memory is one user's, not a worker's",
      code: `
        import { createI18n } from 'vue-i18n';
        const loadedLanguages = new Set();
        export const i18n = createI18n({ locale: 'en' });
        export async function loadLanguage(lang) {
          if (loadedLanguages.has(lang)) return;
          loadedLanguages.add(lang);
          await fetch('/translation/messages', { method: 'POST', body: JSON.stringify({ lang }) });
        }`,
    },
    {
      name: 'an overloaded method is read at its implementation, never at a signature without a body',
      code: `
        class Registry {
          validate(schema: string): boolean;
          validate(schema: object): boolean;
          validate(schema: unknown): boolean {
            return typeof schema === 'string';
          }
          add(schema: unknown) {
            if (this.validate(schema)) return true;
            return false;
          }
        }`,
    },
    {
      name: 'the near miss of a module-level Set before a pg insert: one the code saves to Redis whole, and loads back, mirrors the store',
      code: `${kafka}
        import Redis from 'ioredis';
        const redis = new Redis();
        let processedIds = new Set<string>();
        export async function load() {
          processedIds = new Set(JSON.parse((await redis.get('processed')) ?? '[]'));
        }
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value!.toString());
          if (processedIds.has(event.paymentId)) return;
          await pool.query('INSERT INTO ledger (payment_id, cents) VALUES ($1, $2)', [event.paymentId, event.cents]);
          processedIds.add(event.paymentId);
          await redis.set('processed', JSON.stringify([...processedIds]));
        } });`,
    },
    {
      name: 'a Set made inside the handler dedupes the items of one message',
      code: `${kafka}
        consumer.run({ eachMessage: async ({ message }) => {
          const order = JSON.parse(message.value.toString());
          const seen = new Set();
          for (const line of order.lines) {
            if (seen.has(line.sku)) continue;
            seen.add(line.sku);
            await pool.query('INSERT INTO reservations (sku) VALUES ($1)', [line.sku]);
          }
        } });`,
    },
    {
      name: 'a memoised lookup: the miss leads only to a read, and the Map stores what was read',
      code: `${kafka}
        const customers = new Map();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value.toString());
          let customer = customers.get(event.customerId);
          if (!customer) {
            customer = await prisma.customer.findUnique({ where: { id: event.customerId } });
            customers.set(event.customerId, customer);
          }
          await prisma.invoice.create({ data: { customerId: customer.id, total: event.total } });
        } });`,
    },
    {
      name: 'a cache of computed values gating a write is a cache, not a record of work done',
      code: `${kafka}
        const accounts = new Map();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value.toString());
          if (accounts.get(event.accountId)) return;
          const account = await prisma.account.create({ data: { id: event.accountId } });
          accounts.set(event.accountId, account);
        } });`,
    },
    {
      name: 'a rate-limit counter compared with a limit is not membership',
      code: `${kafka}
        const counts = new Map();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value.toString());
          if (counts.get(event.userId) > 5) return;
          counts.set(event.userId, (counts.get(event.userId) ?? 0) + 1);
          await pool.query('INSERT INTO notifications (user_id) VALUES ($1)', [event.userId]);
        } });`,
    },
    {
      name: 'a registry of handlers: missing means nothing to do, and what it stores are functions',
      code: `${kafka}
        const handlers = {};
        export function register(type, fn) { handlers[type] = fn; }
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value.toString());
          if (!handlers[event.type]) return;
          await handlers[event.type](event);
        } });`,
    },
    {
      name: 'the memory is a fast path in front of an inbox claim whose result gates the effect',
      code: `${kafka}
        const processed = new Set();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value.toString());
          if (processed.has(event.paymentId)) return;
          const { rowCount } = await pool.query('INSERT INTO inbox (id) VALUES ($1) ON CONFLICT DO NOTHING', [event.paymentId]);
          if (rowCount === 0) return;
          await pool.query('INSERT INTO ledger (payment_id, cents) VALUES ($1, $2)', [event.paymentId, event.cents]);
          processed.add(event.paymentId);
        } });`,
    },
    {
      name: 'SET NX in Redis backs the check',
      code: `${kafka}
        import Redis from 'ioredis';
        const redis = new Redis();
        const seen = new Set();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value.toString());
          if (seen.has(event.refundId)) return;
          const fresh = await redis.set('refund:' + event.refundId, '1', 'EX', 86400, 'NX');
          if (!fresh) return;
          await prisma.refund.create({ data: { id: event.refundId, cents: event.cents } });
          seen.add(event.refundId);
        } });`,
    },
    {
      name: 'a DynamoDB conditional put claims the id',
      code: `${kafka}
        import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
        const seen = new Set();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value.toString());
          if (seen.has(event.orderId)) return;
          await ddb.send(new PutCommand({ TableName: 'inbox', Item: { orderId: event.orderId }, ConditionExpression: 'attribute_not_exists(orderId)' }));
          await prisma.shipment.create({ data: { orderId: event.orderId } });
          seen.add(event.orderId);
        } });`,
    },
    {
      name: 'code no consumer reaches, deduping rows it loops over, stays silent',
      code: `
        const copied = new Set();
        export async function copyAll(rows) {
          for (const row of rows) {
            if (copied.has(row.id)) continue;
            await pool.query('INSERT INTO archive (id) VALUES ($1)', [row.id]);
            copied.add(row.id);
          }
        }`,
    },
    {
      name: 'a class field consulted before a log line only: no effect',
      code: `
        class Warner {
          private readonly warned = new Set<string>();
          warn(tenant: { id: string }) {
            if (this.warned.has(tenant.id)) return;
            logger.warn('quota near', tenant.id);
            this.warned.add(tenant.id);
          }
        }`,
    },
    {
      name: 'a WeakMap is keyed by objects: not a collection of ids',
      code: `${kafka}
        const seen = new WeakMap();
        consumer.run({ eachMessage: async ({ message }) => {
          if (seen.has(message)) return;
          seen.set(message, true);
          await pool.query('INSERT INTO ledger (id) VALUES ($1)', [message.key.toString()]);
        } });`,
    },
    {
      name: 'an idempotent write (ON CONFLICT DO NOTHING) behind the memory repeats nothing',
      code: `
        const ensured = new Set();
        export async function ensureTenant(tenant) {
          if (ensured.has(tenant.id)) return;
          await pool.query('INSERT INTO tenants (id) VALUES ($1) ON CONFLICT DO NOTHING', [tenant.id]);
          ensured.add(tenant.id);
        }`,
    },
    {
      name: 'a constant key is a flag, not a dedupe of deliveries',
      code: `${kafka}
        const done = new Set();
        consumer.run({ eachMessage: async ({ message }) => {
          if (done.has('schema')) return;
          await pool.query('INSERT INTO meta (k) VALUES ($1)', ['schema']);
          done.add('schema');
        } });`,
    },
    {
      name: 'an imported Set of another library is not the built-in one',
      code: `${kafka}
        import { Set } from 'immutable';
        const seen = new Set();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value.toString());
          if (seen.has(event.id)) return;
          await prisma.payment.create({ data: { id: event.id } });
        } });`,
    },
    {
      name: 'a request that only reads (a plain fetch) is not an effect',
      code: `
        const seen = new Set();
        async function lookup(id) { return fetch('https://api.example.com/orders/' + id); }
        export default async function handler(req, res) {
          const update = req.body;
          if (seen.has(update.update_id)) return res.send('ok');
          seen.add(update.update_id);
          await lookup(update.update_id);
          return res.send('ok');
        }`,
    },
    {
      name: 'an in-flight set is kept for one run at a time, not as a record of handled deliveries',
      code: `
        class Coalescer {
          private readonly inflightEvents = new Map<string, number>();
          isBusy(eventId: string): boolean {
            if (this.inflightEvents.has(eventId)) return true;
            this.inflightEvents.set(eventId, Date.now());
            return false;
          }
        }`,
    },
    {
      name: 'a record of handled work keyed by a user, with nothing after it in sight, is not a delivery record',
      code: `
        class Greeter {
          private readonly seenUsers = new Map<string, number>();
          isRepeat(userId: string): boolean {
            if (this.seenUsers.has(userId)) return true;
            this.seenUsers.set(userId, Date.now());
            return false;
          }
        }`,
    },
    {
      name: 'a record of handled deliveries in a helper nobody calls guards nothing',
      code: `
        export class MessageDeduplicator {
          private seen = new Map<string, number>();
          isDuplicate(messageId: string): boolean {
            if (this.seen.has(messageId)) return true;
            this.seen.set(messageId, Date.now());
            return false;
          }
        }`,
    },
    {
      name: 'a record of handled deliveries that is asked but never given the id records nothing',
      code: `
        class Replays {
          private readonly processedEvents = new Map<string, number>();
          wasProcessed(eventId: string): boolean {
            if (this.processedEvents.has(eventId)) return true;
            return false;
          }
        }`,
    },
    {
      name: 'a record of handled deliveries whose caller only logs: the work is in sight, and it is none',
      code: `
        const processedMessages = new Set<string>();
        function seenBefore(messageId: string): boolean {
          if (processedMessages.has(messageId)) return true;
          processedMessages.add(messageId);
          return false;
        }
        export function onMessage(message: { id: string }) {
          if (seenBefore(message.id)) return;
          logger.info('message', message.id);
        }`,
    },
    {
      name: 'a collection named as a cache of what was loaded: a second load after a restart is the cache filling again',
      code: `
        class Locale {
          resourceCached = new Map();
          async load(lang: string) {
            if (this.resourceCached.has(lang)) return;
            this.resourceCached.set(lang, true);
            await producer.send({ topic: 'locale-loaded', messages: [{ value: lang }] });
          }
        }`,
    },
    {
      name: 'a set of runs in flight, emptied again in a finally: it keeps two runs apart now, it remembers nothing',
      code: `${kafka}
        const activeExecutions = new Set<string>();
        consumer.run({ eachMessage: async ({ message }) => {
          const execution = JSON.parse(message.value!.toString());
          if (activeExecutions.has(execution.id)) return;
          activeExecutions.add(execution.id);
          try {
            await pool.query('INSERT INTO transitions (execution_id) VALUES ($1)', [execution.id]);
          } finally {
            activeExecutions.delete(execution.id);
          }
        } });`,
    },
    {
      name: 'a flag per task set back to false once the task is done: a run in flight, not a record of what was done',
      code: taskFlags('running[task.name] = false;'),
    },
    {
      name: "a turn's state, emptied with the rest of it by another method of its class when the turn ends: what is in flight, not a record",
      code: turnBuffer('this.firstSent.delete(turnId);\n            this.pending.delete(turnId);'),
    },
    {
      name: "a provider's refund that carries its idempotency key: the provider settles the repeat, the memory is only a fast path",
      code: refundOnce(', { idempotencyKey: `refund-${event.orderId}` }'),
    },
    {
      name: "a page's report to its own site (a path alone): the site's handler does the work, and is judged there",
      code: toolOnce("'/api/tools/confirm'"),
    },
    {
      name: 'memory asked in a catch: whether a step of the run that just failed finished it, not whether a delivery was handled before',
      code: finishedRuns('catch'),
    },
  ],
  invalid: [
    {
      name: "near miss of a page's report: the POST goes to another system's address",
      code: toolOnce("'https://hooks.example.com/tools/confirm'"),
      errors: [{ messageId: 'inMemory', line: 4 }],
    },
    {
      name: 'near miss of memory asked in a catch: asked before the work, it turns a redelivery away',
      code: finishedRuns('before'),
      errors: [{ messageId: 'inMemory', line: 5 }],
    },
    {
      name: "a provider's refund behind the memory: a second worker or a restart refunds the order again",
      code: refundOnce(),
      errors: [{ messageId: 'inMemory', data: { collection: 'refunded', effect: 'stripe.refunds.create()' }, line: 7 }],
    },
    {
      name: 'the near miss: the same cache with no time to live remembers each room for as long as the process lives',
      code: roomAlerts('{ max: 1000 }'),
      errors: [
        { messageId: 'inMemory', data: { collection: 'lastAlertForRoom', effect: 'chat.sendMessage()' }, line: 6 },
      ],
    },
    {
      name: 'the near miss of people answered once: the Set named for the users it processed is a record of handled work',
      code: answerOnce('processedUsers'),
      errors: [
        { messageId: 'inMemory', data: { collection: 'processedUsers', effect: 'chat.sendMessage()' }, line: 5 },
      ],
    },
    {
      name: "the near miss of people answered once: asked with the delivery's own offset",
      code: answerOnce('answeredUsers', 'message.offset'),
      errors: [{ messageId: 'inMemory', data: { collection: 'answeredUsers', effect: 'chat.sendMessage()' }, line: 5 }],
    },
    {
      name: 'the near miss of people answered once: before a write rather than a message',
      code: answerOnce(
        'answeredUsers',
        'event.username',
        'await prisma.answer.create({ data: { username: event.username } });',
      ),
      errors: [
        { messageId: 'inMemory', data: { collection: 'answeredUsers', effect: 'prisma.answer.create()' }, line: 5 },
      ],
    },
    {
      name: "the near miss: keys that expire, asked with the delivery's own offset",
      code: roomAlerts('{ max: 1000, ttl: 60_000 }', 'message.offset'),
      errors: [
        { messageId: 'inMemory', data: { collection: 'lastAlertForRoom', effect: 'chat.sendMessage()' }, line: 6 },
      ],
    },
    {
      name: 'the near miss: keys that expire, before a write rather than a notice',
      code: roomAlerts(
        '{ max: 1000, ttl: 60_000 }',
        'event.roomId',
        'await prisma.alert.create({ data: { roomId: event.roomId } });',
      ),
      errors: [
        { messageId: 'inMemory', data: { collection: 'lastAlertForRoom', effect: 'prisma.alert.create()' }, line: 6 },
      ],
    },
    {
      name: 'the near miss of a state: the same memory named as a record of the alerts sent keeps a record',
      code: outageAlerts('alertedServices'),
      errors: [{ messageId: 'inMemory', line: 13 }],
    },
    {
      name: "the near miss of a turn's state: nothing ever takes the key out, so it is a record, empty after a restart",
      code: turnBuffer('await this.redis.expire(`turn:${turnId}`, 60);'),
      errors: [{ messageId: 'inMemory', line: 9 }],
    },
    {
      name: 'the near miss of a turn ending: a method that takes out the key alone (to let a failed one run again) keeps a record',
      code: turnBuffer('this.firstSent.delete(turnId);'),
      errors: [{ messageId: 'inMemory', line: 9 }],
    },
    {
      name: 'a key taken out again only when its time is up (setTimeout): a record that expires, not a run in flight',
      code: `${kafka}
        const processedEvents = new Set<string>();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value!.toString());
          if (processedEvents.has(event.id)) return;
          processedEvents.add(event.id);
          setTimeout(() => processedEvents.delete(event.id), 5 * 60 * 1000);
          await pool.query('INSERT INTO transitions (execution_id) VALUES ($1)', [event.id]);
        } });`,
      errors: [{ messageId: 'inMemory', line: 5 }],
    },
    {
      name: 'the near miss of a set-up per queue: a key of any string may be what a delivery brought',
      code: queueSetUp(`type QueueName = string;`, 'QueueName'),
      errors: [{ messageId: 'inMemory', line: 6 }],
    },
    {
      name: 'a flag per task set and never set back: a record of what was done, empty after a restart',
      code: taskFlags(''),
      errors: [{ messageId: 'inMemory' }],
    },
    {
      name: 'a middleware that calls next() behind a record of handled webhooks: the handler it lets through runs again',
      code: `
        const handledWebhooks = new Set<string>();
        function alreadyHandled(webhookId: string): boolean {
          if (handledWebhooks.has(webhookId)) return true;
          handledWebhooks.add(webhookId);
          return false;
        }
        export function dedupe(req, res, next) {
          if (alreadyHandled(req.body.event_id)) return res.status(200).end();
          next();
        }`,
      errors: [
        {
          messageId: 'inMemory',
          data: { collection: 'handledWebhooks', effect: 'the work behind the check' },
          line: 9,
        },
      ],
    },
    {
      name: 'a record of handled deliveries asked and given the same event id: the work it turns away is out of sight',
      code: `
        class WebhookSecurity {
          private readonly processedEvents = new Map<string, number>();
          isReplay(eventId: string): boolean {
            if (this.processedEvents.has(eventId)) {
              logger.warn('replay', eventId);
              return true;
            }
            this.processedEvents.set(eventId, Date.now());
            return false;
          }
          canActivate(raw: string): boolean {
            const eventId = JSON.parse(raw).id;
            if (this.isReplay(eventId)) throw new Error('duplicate');
            return true;
          }
        }`,
      errors: [
        {
          messageId: 'inMemory',
          data: { collection: 'processedEvents', effect: 'the work behind the check' },
          line: 14,
        },
      ],
    },
    {
      name: 'a module-level Set in a Kafka consumer before a pg insert',
      code: `${kafka}
        const processedIds = new Set<string>();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value!.toString());
          if (processedIds.has(event.paymentId)) return;
          await pool.query('INSERT INTO ledger (payment_id, cents) VALUES ($1, $2)', [event.paymentId, event.cents]);
          processedIds.add(event.paymentId);
        } });`,
      errors: [
        { messageId: 'inMemory', data: { collection: 'processedIds', effect: 'the INSERT into ledger' }, line: 5 },
      ],
    },
    {
      name: 'the lesson: a class-level Set consulted before a db write, recorded after it',
      code: `
        async function creditCashback(db: Queryable, order: PaidOrder): Promise<void> {
          await db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [order.cashbackId, order.cents]);
        }
        class RememberingWorker {
          private readonly credited = new Set<string>();
          async handle(db: Queryable, order: PaidOrder): Promise<boolean> {
            if (this.credited.has(order.id)) return false;
            await creditCashback(db, order);
            this.credited.add(order.id);
            return true;
          }
        }`,
      errors: [{ messageId: 'inMemory', data: { collection: 'credited', effect: 'the INSERT into effects' }, line: 8 }],
    },
    {
      name: 'a field assigned in the constructor, a Prisma write, and an inbox insert whose result nobody reads',
      code: `
        class Worker {
          constructor() { this.done = new Map(); }
          async handle(order) {
            if (this.done.get(order.id)) return;
            await prisma.cashback.create({ data: { orderId: order.id, cents: order.cents } });
            await pool.query('INSERT INTO inbox (id) VALUES ($1) ON CONFLICT DO NOTHING', [order.id]);
            this.done.set(order.id, true);
          }
        }`,
      errors: [{ messageId: 'inMemory', data: { collection: 'done', effect: 'prisma.cashback.create()' }, line: 5 }],
    },
    {
      name: 'an array and includes, inside the block that runs when it is new',
      code: `${kafka}
        const handled: string[] = [];
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value!.toString());
          if (!handled.includes(event.refundId)) {
            handled.push(event.refundId);
            await dataSource.manager.insert(Refund, { refundId: event.refundId, cents: event.cents });
          }
        } });`,
      errors: [
        { messageId: 'inMemory', data: { collection: 'handled', effect: 'dataSource.manager.insert()' }, line: 5 },
      ],
    },
    {
      name: 'an object used as a map, marked with the time, before a message is sent',
      code: `${kafka}
        const seen = {};
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value.toString());
          if (seen[event.orderId]) return;
          seen[event.orderId] = Date.now();
          await producer.send({ topic: 'shipments', messages: [{ value: JSON.stringify(event) }] });
        } });`,
      errors: [{ messageId: 'inMemory', data: { collection: 'seen', effect: 'producer.send()' }, line: 5 }],
    },
    {
      name: '`in` on an object, then a DynamoDB put',
      code: `${kafka}
        import { PutCommand } from '@aws-sdk/lib-dynamodb';
        const seen: Record<string, boolean> = {};
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value!.toString());
          if (event.orderId in seen) return;
          await ddb.send(new PutCommand({ TableName: 'shipments', Item: { orderId: event.orderId } }));
          seen[event.orderId] = true;
        } });`,
      errors: [
        {
          messageId: 'inMemory',
          data: { collection: 'seen', effect: 'the DynamoDB PutCommand on shipments' },
          line: 6,
        },
      ],
    },
    {
      name: 'an LRU cache from lru-cache, in a loop over a batch the consumer was handed',
      code: `${kafka}
        import { LRUCache } from 'lru-cache';
        const recent = new LRUCache<string, boolean>({ max: 10000 });
        consumer.run({ eachBatch: async ({ batch }) => {
          for (const message of batch.messages) {
            const event = JSON.parse(message.value!.toString());
            if (recent.has(event.paymentId)) continue;
            await prisma.payment.update({ where: { id: event.paymentId }, data: { balance: { increment: event.cents } } });
            recent.set(event.paymentId, true);
          }
        } });`,
      errors: [{ messageId: 'inMemory', data: { collection: 'recent', effect: 'prisma.payment.update()' }, line: 7 }],
    },
    {
      name: "a model's $inc, in a module that imports no data library: the stock is given back again",
      code: `${kafka}
        const released = new Map();
        consumer.run({ eachMessage: async ({ message }) => {
          const event = JSON.parse(message.value!.toString());
          if (released.has(event.orderId)) return;
          await Product.findOneAndUpdate({ _id: event.productId }, { $inc: { stock: event.quantity }, $set: { inStock: true } });
          released.set(event.orderId, Date.now());
        } });`,
      errors: [
        { messageId: 'inMemory', data: { collection: 'released', effect: 'Product.findOneAndUpdate()' }, line: 5 },
      ],
    },
    {
      name: 'a node-cache by any default-import name, before a Redis write',
      code: voucherConsumer(`
          await redis.incr('account:' + event.accountId + ':vouchers');`),
      errors: [
        {
          messageId: 'inMemory',
          data: { collection: 'seen', effect: "the Redis INCR of 'account:*:vouchers'" },
          line: 8,
        },
      ],
    },
    {
      name: 'QuickLRU, consulted through a constant, in a helper the handler calls',
      code: `${kafka}
        import QuickLRU from 'quick-lru';
        const recent = new QuickLRU({ maxSize: 1000 });
        async function apply(event) {
          const duplicate = recent.has(event.transferId);
          if (duplicate) return;
          recent.set(event.transferId, true);
          await knex('transfers').insert({ id: event.transferId, cents: event.cents });
        }
        consumer.run({ eachMessage: async ({ message }) => { await apply(JSON.parse(message.value.toString())); } });`,
      errors: [
        { messageId: 'inMemory', data: { collection: 'recent', effect: 'the knex insert into transfers' }, line: 5 },
      ],
    },
    {
      name: 'a helper of the same file that answers with the Set, another that records in it',
      code: `
        const processed = new Set<string>();
        function isProcessed(id: string) { return processed.has(id); }
        function markProcessed(id: string) { processed.add(id); }
        export async function onPaymentWebhook(payload: { data: { id: string; cents: number } }) {
          const id = payload.data.id;
          if (isProcessed(id)) return { ok: true };
          await prisma.payment.create({ data: { id, cents: payload.data.cents } });
          markProcessed(id);
          return { ok: true };
        }`,
      errors: [
        { messageId: 'inMemory', data: { collection: 'processed', effect: 'prisma.payment.create()' }, line: 7 },
      ],
    },
    {
      name: 'a helper that decides and records, before a job is queued',
      code: `
        import { Queue } from 'bullmq';
        const queue = new Queue('orders');
        const events = new Map();
        function isDuplicate(eventId) {
          if (events.has(eventId)) return true;
          events.set(eventId, Date.now());
          return false;
        }
        export const action = async ({ request }) => {
          const eventId = request.headers.get('x-event-id');
          if (isDuplicate(eventId)) return new Response('ok');
          await queue.add('order', { eventId });
          return new Response('ok');
        };`,
      errors: [{ messageId: 'inMemory', data: { collection: 'events', effect: 'queue.add()' }, line: 12 }],
    },
    {
      name: 'the same module without a UI framework: a server keeps the Set, and a restart forgets it',
      code: `
        import { format } from 'date-fns';
        const loadedLanguages = new Set();
        export async function loadLanguage(lang) {
          if (loadedLanguages.has(lang)) return;
          loadedLanguages.add(lang);
          await fetch('https://translations.example.com/messages', { method: 'POST', body: JSON.stringify({ lang, at: format(new Date(), 'P') }) });
        }`,
      errors: [
        { messageId: 'inMemory', data: { collection: 'loadedLanguages', effect: 'the POST request (fetch)' }, line: 5 },
      ],
    },
    {
      name: 'a serverless webhook: a module-level Set, then a POST to another system through a helper',
      code: `
        const processedUpdates = new Set();
        async function notify(chatId, text) {
          await fetch('https://api.telegram.org/bot/sendMessage', { method: 'POST', body: JSON.stringify({ chat_id: chatId, text }) });
        }
        export default async function handler(req, res) {
          const update = req.body;
          const updateId = update.update_id;
          if (processedUpdates.has(updateId)) return res.status(200).send('OK');
          processedUpdates.add(updateId);
          await notify(update.message.chat.id, 'Welcome');
          return res.send('OK');
        }`,
      errors: [
        {
          messageId: 'inMemory',
          data: { collection: 'processedUpdates', effect: 'the POST request (fetch)' },
          line: 9,
        },
      ],
    },
    {
      name: 'an upsert in another branch of the handler does not claim this key',
      code: `
        const processedUpdates = new Set();
        export default async function handler(req, res) {
          const body = req.body;
          if (body.paymentId) {
            await prisma.userStats.upsert({ where: { id: body.userId }, create: { id: body.userId }, update: {} });
            return res.send('OK');
          }
          const updateId = body.update_id;
          if (processedUpdates.has(updateId)) return res.send('OK');
          processedUpdates.add(updateId);
          await prisma.reply.create({ data: { updateId, text: 'Welcome' } });
          return res.send('OK');
        }`,
      errors: [
        { messageId: 'inMemory', data: { collection: 'processedUpdates', effect: 'prisma.reply.create()' }, line: 10 },
      ],
    },
  ],
});
