import { describe, expect, it } from 'vitest';

import { lintProject } from '../support/project.js';

/**
 * The collection, the helpers that ask and record it, and the writes behind them, spread over a
 * project's modules, linted by the real `eslint` command with the schema in the project.
 */

const schema = `
datasource db { provider = "postgresql" url = env("DATABASE_URL") }
model Payment {
  id    String @id
  cents Int
}
`;

const memory = `
const processedIds = new Set<string>();
export function isProcessed(id: string): boolean { return processedIds.has(id); }
export function markAsProcessed(id: string): void { processedIds.add(id); }
`;

const webhook = `
import { PrismaClient } from '@prisma/client';
import { isProcessed, markAsProcessed } from './idempotency.js';
const prisma = new PrismaClient();
export class WebhooksService {
  async handlePaymentWebhook(payload: { data: { id: string; cents: number } }) {
    const chargeId = payload.data.id;
    if (isProcessed(chargeId)) return { ok: true };
    await prisma.payment.create({ data: { id: chargeId, cents: payload.data.cents } });
    markAsProcessed(chargeId);
    return { ok: true };
  }
}
`;

const credit = `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function credit(id: string, cents: number) {
  await prisma.payment.create({ data: { id, cents } });
}
`;

const consumer = `
import { Kafka } from 'kafkajs';
import { credit } from './credit.js';
const seen = new Map<string, number>();
export async function start(consumer) {
  await consumer.run({
    eachMessage: async ({ message }) => {
      const event = JSON.parse(message.value.toString());
      if (seen.has(event.paymentId)) return;
      seen.set(event.paymentId, Date.now());
      await credit(event.paymentId, event.cents);
    },
  });
}
`;

const claimed = `
import { Kafka } from 'kafkajs';
import { PrismaClient } from '@prisma/client';
import { credit } from './credit.js';
const prisma = new PrismaClient();
const seen = new Set<string>();
export async function start(consumer) {
  await consumer.run({
    eachMessage: async ({ message }) => {
      const event = JSON.parse(message.value.toString());
      if (seen.has(event.paymentId)) return;
      const { count } = await prisma.inbox.createMany({ data: [{ id: event.paymentId }], skipDuplicates: true });
      if (count === 0) return;
      await credit(event.paymentId, event.cents);
      seen.add(event.paymentId);
    },
  });
}
`;

const debouncer = `
const processedMessages = new Set();
function shouldProcessMessage(id) {
  if (processedMessages.has(id)) {
    return false;
  }
  processedMessages.add(id);
  return true;
}
module.exports = { shouldProcessMessage };
`;

const bot = `
const { shouldProcessMessage } = require('./debouncer');
client.on('messageCreate', async (message) => {
  if (!shouldProcessMessage(message.id)) return;
  await message.channel.send('Pong!');
});
`;

const quietBot = `
const { shouldProcessMessage } = require('./debouncer');
client.on('messageCreate', async (message) => {
  if (!shouldProcessMessage(message.id)) return;
  console.log('seen', message.id);
});
`;

const security = `
export class WebhookSecurityService {
  private readonly processedEvents = new Map<string, number>();
  isReplay(eventId: string): boolean {
    if (this.processedEvents.has(eventId)) return true;
    this.processedEvents.set(eventId, Date.now());
    return false;
  }
}
`;

const guard = `
import { WebhookSecurityService } from './webhook-security.service.js';
export class StripeWebhookGuard {
  constructor(private readonly security: WebhookSecurityService) {}
  canActivate(raw: string): boolean {
    const eventId = JSON.parse(raw).id;
    if (this.security.isReplay(eventId)) throw new Error('duplicate event');
    return true;
  }
}
`;

const loggingCaller = `
import { WebhookSecurityService } from './webhook-security.service.js';
const security = new WebhookSecurityService();
export function onEvent(event: { id: string }) {
  if (security.isReplay(event.id)) return;
  console.log('event', event.id);
}
`;

const sharedState = `
export const TTL_MS = 24 * 60 * 60 * 1000;
export const processedWebhooks = new Map<string, number>();
export const stats = { received: 0 };
`;

const webhookHandler = (lookup: string) => `
import axios from 'axios';
import { processedWebhooks, TTL_MS } from './state.js';
export async function POST(request: Request) {
  const event = await request.json();
  ${lookup}
  await axios.post(process.env.NOTIFY_URL!, { text: 'order ' + event.orderId });
  processedWebhooks.set(event.id, Date.now());
  return new Response('ok');
}
`;

const globalSet = `
const axios = require('axios');
if (!global.__processedEvents) global.__processedEvents = new Set();
const processedEvents = global.__processedEvents;
function isDuplicateEvent(id) {
  if (processedEvents.has(id)) return true;
  processedEvents.add(id);
  setTimeout(() => processedEvents.delete(id), 5 * 60 * 1000);
  return false;
}
module.exports = { isDuplicateEvent };
`;

const telegramRoute = (send: string) => `
const { isDuplicateEvent } = require('./dedupe');
const axios = require('axios');
router.post('/webhook', async (req, res) => {
  if (isDuplicateEvent(req.body.data.id)) return res.status(200).send('duplicate');
  ${send}
  res.sendStatus(200);
});
`;

describe('no-in-memory-dedupe across modules', () => {
  it('a Map another module exports, asked and filled by a webhook before a POST: its entries outlive no restart', async () => {
    const plain = await lintProject({
      'package.json': JSON.stringify({ name: 'hooks', private: true }),
      'src/state.ts': sharedState,
      'src/route.ts': webhookHandler("if (processedWebhooks.has(event.id)) return new Response('duplicate');"),
    });
    expect(plain.findings).toEqual(['src/route.ts:6 idempotency/no-in-memory-dedupe/inMemory']);
    expect(plain.messages[0]).toContain('so the POST request (axios.post) runs again');
    // Taking an entry out when its time to live is up only expires it: the Map was a record until then.
    const expiring = await lintProject({
      'package.json': JSON.stringify({ name: 'hooks', private: true }),
      'src/state.ts': sharedState,
      'src/route.ts': webhookHandler(
        "if (Date.now() - (processedWebhooks.get(event.id) ?? 0) > TTL_MS) processedWebhooks.delete(event.id);\n  if (processedWebhooks.has(event.id)) return new Response('duplicate');",
      ),
    });
    expect(expiring.findings).toEqual(['src/route.ts:7 idempotency/no-in-memory-dedupe/inMemory']);
    // An exported object that only counts is not a collection of keys.
    const counting = await lintProject({
      'package.json': JSON.stringify({ name: 'hooks', private: true }),
      'src/state.ts': sharedState.replace(
        'export const processedWebhooks = new Map<string, number>();',
        'export const processedWebhooks = loadFromDisk();',
      ),
      'src/route.ts': webhookHandler("if (processedWebhooks.has(event.id)) return new Response('duplicate');"),
    });
    expect(counting.findings).toEqual([]);
  });

  it('a Set kept on the global object (one per process, across hot reloads) decides for a route that posts', async () => {
    const loud = await lintProject({
      'package.json': JSON.stringify({ name: 'plane-bot', private: true }),
      'src/dedupe.js': globalSet,
      'src/route.js': telegramRoute(
        "await axios.post('https://api.telegram.org/bot/sendMessage', { chat_id: 1, text: 'hi' });",
      ),
    });
    expect(loud.findings).toEqual(['src/dedupe.js:6 idempotency/no-in-memory-dedupe/inMemory']);
    expect(loud.messages[0]).toContain('the POST request (axios.post)');
    // A GET asks; nothing behind the check changes another system.
    const asking = await lintProject({
      'package.json': JSON.stringify({ name: 'plane-bot', private: true }),
      'src/dedupe.js': globalSet,
      'src/route.js': telegramRoute("await axios.get('https://api.example.com/issues/' + req.body.data.id);"),
    });
    expect(asking.findings).toEqual([]);
  });

  it('a CommonJS helper that decides with a Set: reported at its lookup when a caller in another module acts on its answer', async () => {
    const loud = await lintProject({
      'package.json': JSON.stringify({ name: 'bot', private: true }),
      'src/debouncer.js': debouncer,
      'src/bot.js': bot,
    });
    expect(loud.findings).toEqual(['src/debouncer.js:4 idempotency/no-in-memory-dedupe/inMemory']);
    expect(loud.messages[0]).toContain('message.channel.send()');
    const quiet = await lintProject({
      'package.json': JSON.stringify({ name: 'bot', private: true }),
      'src/debouncer.js': debouncer,
      'src/bot.js': quietBot,
    });
    expect(quiet.findings).toEqual([]);
    // The same helper as an ES module: found at the same place, once, not at each caller.
    const esm = await lintProject({
      'package.json': JSON.stringify({ name: 'bot', private: true, type: 'module' }),
      'src/debouncer.js': debouncer.replace(
        'module.exports = { shouldProcessMessage };',
        'export { shouldProcessMessage };',
      ),
      'src/bot.js': bot.replace(
        "const { shouldProcessMessage } = require('./debouncer');",
        "import { shouldProcessMessage } from './debouncer.js';",
      ),
    });
    expect(esm.findings).toEqual(['src/debouncer.js:4 idempotency/no-in-memory-dedupe/inMemory']);
  });

  it('helpers in another module that ask and record a module-level Set, before a Prisma write', async () => {
    const { findings, messages } = await lintProject({
      'prisma/schema.prisma': schema,
      'src/idempotency.ts': memory,
      'src/webhooks.ts': webhook,
      'src/routes.ts':
        "import { WebhooksService } from './webhooks.js';\nexport const onPayment = (body) => new WebhooksService().handlePaymentWebhook(body);\n",
    });
    expect(findings).toEqual(['src/webhooks.ts:8 idempotency/no-in-memory-dedupe/inMemory']);
    expect(messages[0]).toContain('Duplicates remembered in process memory: processedIds is empty after a restart');
  });

  it('the write sits in a helper of another module; a claim that gates it silences the memory', async () => {
    const { findings, messages } = await lintProject({
      'prisma/schema.prisma': schema,
      'src/credit.ts': credit,
      'src/consumer.ts': consumer,
      'src/claimed.ts': claimed,
    });
    expect(findings).toEqual(['src/consumer.ts:9 idempotency/no-in-memory-dedupe/inMemory']);
    expect(messages[0]).toContain('Duplicates remembered in process memory: seen is empty after a restart');
  });

  it('a method of an injected service that asks and records: its callers are found through the constructor parameter', async () => {
    const loud = await lintProject({
      'package.json': JSON.stringify({ name: 'payments', private: true }),
      'src/webhook-security.service.ts': security,
      'src/stripe-webhook.guard.ts': guard,
    });
    // The guard only answers; what it lets through (the controller) is out of sight.
    expect(loud.findings).toEqual(['src/webhook-security.service.ts:5 idempotency/no-in-memory-dedupe/inMemory']);
    expect(loud.messages[0]).toContain('processedEvents is empty after a restart and on a second worker');
    const quiet = await lintProject({
      'package.json': JSON.stringify({ name: 'payments', private: true }),
      'src/webhook-security.service.ts': security,
      'src/on-event.ts': loggingCaller,
    });
    // What the caller does after the check is in sight: a log line.
    expect(quiet.findings).toEqual([]);
    const middleware = await lintProject({
      'package.json': JSON.stringify({ name: 'payments', private: true }),
      'src/webhook-security.service.ts': security,
      'src/dedupe.ts': loggingCaller.replace(
        /export function[^]*$/,
        'export function dedupe(req, res, next) {\n  if (security.isReplay(req.body.eventId)) return res.end();\n  next();\n}\n',
      ),
    });
    // A caller made with \`new\` is found too, and \`next()\` hands the work to a handler out of sight.
    expect(middleware.findings).toEqual(['src/webhook-security.service.ts:5 idempotency/no-in-memory-dedupe/inMemory']);
  });

  it("a request to the address another module of the project exports: a path alone is the page's own site", async () => {
    const tool = `
import { CONFIRM_PATH } from './paths';
const executed = new Set<string>();
export async function runToolCall(toolCallId: string) {
  if (executed.has(toolCallId)) return;
  executed.add(toolCallId);
  await fetch(CONFIRM_PATH, { method: 'POST', body: toolCallId });
}
`;
    const ownSite = await lintProject({
      'src/paths.ts': "export const CONFIRM_PATH = '/api/tools/confirm';",
      'src/tool.ts': tool,
    });
    expect(ownSite.findings).toEqual([]);
    const elsewhere = await lintProject({
      'src/paths.ts': "export const CONFIRM_PATH = 'https://hooks.example.com/tools/confirm';",
      'src/tool.ts': tool,
    });
    expect(elsewhere.findings).toEqual(['src/tool.ts:5 idempotency/no-in-memory-dedupe/inMemory']);
  });
});
