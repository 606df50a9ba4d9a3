import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { entryPointMap, whenSqlParserReady, type MappedEntryPoint } from '../../eslint-plugin/src/index.js';

/**
 * The map of a file's entry points that the editor's view shows: each handler with its kind, its
 * library and what settles its repeats, read from a small project whose migration declares the keys.
 */

const migration = `
CREATE TABLE inbox (event_id text PRIMARY KEY);
CREATE TABLE usage_records (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), build_id text NOT NULL, minutes int NOT NULL);
`;

const project = mkdtempSync(path.join(tmpdir(), 'idempotency-entry-map-'));
beforeAll(async () => {
  for (const [name, text] of Object.entries({
    'package.json': JSON.stringify({ name: 'map', private: true, type: 'module' }),
    'migrations/001_init.sql': migration,
  })) {
    mkdirSync(path.dirname(path.join(project, name)), { recursive: true });
    writeFileSync(path.join(project, name), text);
  }
  mkdirSync(path.join(project, '.git'));
  await whenSqlParserReady();
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

function mapOf(code: string, file = 'src/handler.ts'): MappedEntryPoint[] {
  let entries: MappedEntryPoint[] = [];
  const linter = new Linter({ configType: 'flat', cwd: project });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser as unknown as Linter.Parser },
        plugins: {
          map: {
            rules: {
              entries: {
                create: (context) => entryPointMap(context as never, (found) => (entries = found)) as never,
              },
            },
          },
        },
        rules: { 'map/entries': 'error' },
      },
    ],
    path.join(project, file),
  );
  expect(messages).toEqual([]);
  return entries;
}

const summary = (entry: MappedEntryPoint) => ({
  name: entry.name,
  label: entry.label,
  kind: entry.kind,
  library: entry.library,
  line: entry.start.line,
  by: entry.repeats.by,
  what: entry.repeats.what,
  at: entry.repeats.at && `${path.relative(project, entry.repeats.at.file)}:${entry.repeats.at.line}`,
});

describe('entryPointMap', () => {
  it('a Kafka consumer whose provider call carries an idempotency key', () => {
    const entries = mapOf(`import { Kafka } from 'kafkajs';
import Stripe from 'stripe';
const stripe = new Stripe('key');
const consumer = new Kafka({ brokers: [] }).consumer({ groupId: 'refunds' });
await consumer.run({
  eachMessage: async ({ message }) => {
    const refund = JSON.parse(message.value.toString());
    await stripe.refunds.create({ charge: refund.chargeId }, { idempotencyKey: refund.refundId });
  },
});
function notAHandler(value) {
  return value + 1;
}
`);
    expect(entries.map(summary)).toEqual([
      {
        name: 'eachMessage',
        label: 'Kafka consumer',
        kind: 'consumer',
        library: 'kafkajs',
        line: 6,
        by: 'idempotency-key',
        what: 'provider idempotency key: stripe.refunds.create()',
        at: 'src/handler.ts:8',
      },
    ]);
  });

  it('a Stripe webhook that claims the event in an inbox with its unique key', () => {
    const entries = mapOf(`import Stripe from 'stripe';
import { Pool } from 'pg';
const stripe = new Stripe('key');
const pool = new Pool();
export async function POST(request) {
  const event = stripe.webhooks.constructEvent(await request.text(), request.headers.get('stripe-signature'), 'secret');
  const claimed = await pool.query('INSERT INTO inbox (event_id) VALUES ($1) ON CONFLICT DO NOTHING', [event.id]);
  if (claimed.rowCount === 0) return new Response('seen');
  await pool.query('INSERT INTO usage_records (build_id, minutes) VALUES ($1, $2)', [event.data.object.id, 1]);
  return new Response('ok');
}
`);
    expect(entries.map(summary)).toEqual([
      expect.objectContaining({
        name: 'POST',
        label: 'Stripe webhook',
        kind: 'webhook',
        library: 'stripe',
        line: 5,
        by: 'claim',
        at: 'src/handler.ts:7',
      }),
    ]);
    expect(entries[0].repeats.what).toMatch(/^inbox claim: .* on \(event_id\)$/);
  });

  it('a BullMQ worker with nothing on the way to an insert no key protects, named by its registration', () => {
    const entries = mapOf(`import { Worker } from 'bullmq';
import { Pool } from 'pg';
const pool = new Pool();
new Worker('builds', async (job) => {
  await pool.query('INSERT INTO usage_records (build_id, minutes) VALUES ($1, $2)', [job.data.buildId, job.data.minutes]);
});
`);
    expect(entries.map(summary)).toEqual([
      {
        name: "new Worker('builds')",
        label: 'BullMQ worker',
        kind: 'job',
        library: 'bullmq',
        line: 4,
        by: 'nothing',
        what: 'nothing found; it inserts into usage_records',
        at: 'src/handler.ts:5',
      },
    ]);
  });

  it('a check of stored state before the effect, and a call named like a guard that the analysis cannot read', () => {
    const consumer = (guard: string) => `import amqp from 'amqplib';
import { alreadyProcessed, markProcessed } from 'some-package';
import { Pool } from 'pg';
const pool = new Pool();
const channel = await (await amqp.connect('amqp://localhost')).createChannel();
await channel.consume('usage', async (msg) => {
  const usage = JSON.parse(msg.content.toString());
  ${guard}
  await pool.query('INSERT INTO usage_records (build_id, minutes) VALUES ($1, $2)', [usage.buildId, usage.minutes]);
  channel.ack(msg);
});
`;
    const [checked] = mapOf(consumer('if (await alreadyProcessed(usage.id)) return;'));
    expect(summary(checked)).toEqual({
      name: "channel.consume('usage')",
      label: 'RabbitMQ consumer',
      kind: 'consumer',
      library: 'amqplib',
      line: 6,
      by: 'checked-state',
      what: 'check of stored state: await alreadyProcessed(usage.id)',
      at: 'src/handler.ts:8',
    });
    const [unread] = mapOf(consumer('await markProcessed(usage.id);'));
    expect(summary(unread)).toMatchObject({ by: 'unread', what: 'not read, may settle repeats: markProcessed()' });
  });

  it('job runners and schedules: trigger.dev tasks, Agenda jobs, and crons of node-cron, cron and @nestjs/schedule', () => {
    const insert = `await pool.query('INSERT INTO usage_records (build_id, minutes) VALUES ($1, $2)', [buildId, 1]);`;
    const entries = mapOf(`import { task, schedules } from '@trigger.dev/sdk/v3';
import Agenda from 'agenda';
import cron from 'node-cron';
import { CronJob } from 'cron';
import { Cron, Interval, Timeout } from '@nestjs/schedule';
import { Pool } from 'pg';
const pool = new Pool();
const buildId = 'b';
export const usage = task({ id: 'usage', run: async (payload, { ctx }) => { ${insert} } });
export const nightly = schedules.task({ id: 'nightly', cron: '0 0 * * *', run: async () => { ${insert} } });
agenda.define('usage', async (job) => { ${insert} });
cron.schedule('0 * * * *', async () => { ${insert} });
new CronJob('0 * * * *', async () => { ${insert} });
export class Usage {
  @Cron('0 * * * *') async hourly() { ${insert} }
  @Interval(60000) async minutely() { ${insert} }
  @Timeout(1000) async once() { ${insert} }
}
`);
    expect(
      entries.map(({ name, label, kind, library, start, repeats }) => [
        name,
        label,
        kind,
        library,
        start.line,
        repeats.by,
      ]),
    ).toEqual([
      ["task('usage')", 'trigger.dev task', 'job', 'trigger-dev', 9, 'nothing'],
      ["schedules.task('nightly')", 'trigger.dev scheduled task', 'cron', 'trigger-dev', 10, 'nothing'],
      ["agenda.define('usage')", 'Agenda job', 'job', 'agenda', 11, 'nothing'],
      ["cron.schedule('0 * * * *')", 'node-cron schedule', 'cron', 'node-cron', 12, 'nothing'],
      ["new CronJob('0 * * * *')", 'cron job', 'cron', 'cron', 13, 'nothing'],
      ['hourly', 'NestJS scheduled method', 'cron', 'nestjs-schedule', 15, 'nothing'],
      ['minutely', 'NestJS scheduled method', 'cron', 'nestjs-schedule', 16, 'nothing'],
    ]);
  });

  it('lists nothing in a file with no entry point', () => {
    expect(mapOf('export const add = (a: number, b: number) => a + b;\n')).toEqual([]);
  });
});
