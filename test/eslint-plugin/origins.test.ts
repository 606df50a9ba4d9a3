import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

import { rules } from '../../eslint-plugin/src/index.js';
import { whenSqlParserReady } from '../../eslint-plugin/src/analysis/sql/parser.js';

/**
 * The origin of a finding in its report's data, in whichever file it is: tools that show where a
 * value was read (the editor's related information) take `origin`, `originFile` and `originNote`
 * from there, since ESLint's messages do not carry the data.
 */

await whenSqlParserReady();
process.env.IDEMPOTENCY_LINT_STRICT = '1';

const project = mkdtempSync(path.join(tmpdir(), 'idempotency-origins-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
mkdirSync(path.join(project, '.git'));

function write(file: string, text: string): string {
  const full = path.join(project, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  return full;
}

interface Reported {
  rule: string;
  line: number;
  message: string;
  data: Record<string, unknown>;
}

/** Lints `file` of the project with every rule, each report seen with its data. */
function reportsOf(file: string): Reported[] {
  const data = new Map<string, Record<string, unknown>>();
  type Context = { report(descriptor: { node: { loc: { start: { line: number } } }; data?: object }): void };
  const noting = Object.fromEntries(
    Object.entries(rules).map(([name, rule]) => [
      name,
      {
        ...rule,
        create(context: Context) {
          const seeing = Object.create(context, {
            report: {
              value(descriptor: Parameters<Context['report']>[0]) {
                data.set(`${name}:${descriptor.node.loc.start.line}`, { ...descriptor.data });
                context.report(descriptor);
              },
            },
          }) as Context;
          return (rule.create as (context: Context) => unknown)(seeing);
        },
      },
    ]),
  );
  const linter = new Linter({ configType: 'flat', cwd: project });
  const messages = linter.verify(
    readFileSync(file, 'utf8'),
    [
      {
        files: ['**/*.{ts,mjs}'],
        languageOptions: { parser: tsParser },
        plugins: { idempotency: { rules: noting as never } },
        rules: Object.fromEntries(Object.keys(rules).map((name) => [`idempotency/${name}`, 'error'])),
      },
    ],
    file,
  );
  return messages.map((message) => {
    const rule = (message.ruleId ?? '').replace('idempotency/', '');
    return { rule, line: message.line, message: message.message, data: data.get(`${rule}:${message.line}`) ?? {} };
  });
}

describe('the origin of a finding in its data', () => {
  it('names the helper module and the line where a key built there reads the delivery', () => {
    const keys = write(
      'src/keys.ts',
      'export function refundKey(message: { offset: string }): string {\n  const read = message.offset;\n  return `refund-${read}`;\n}\n',
    );
    const consumer = write(
      'src/refunds.ts',
      `import { Kafka } from 'kafkajs';
import { refundKey } from './keys.js';

export async function start(consumer, stripe) {
  await consumer.run({
    eachMessage: async ({ message }) => {
      await stripe.refunds.create({ charge: 'ch_1' }, { idempotencyKey: refundKey(message) });
    },
  });
}
`,
    );
    const [finding, ...others] = reportsOf(consumer);
    expect(others).toEqual([]);
    expect(finding).toMatchObject({
      rule: 'no-delivery-id-effect-key',
      line: 7,
      data: { origin: '2:16', originFile: keys, originNote: 'the value is read here' },
    });
    expect(finding.message).toContain("the Kafka offset 'message.offset' on line 2 of keys.ts");
  });

  it('keeps a place in the linted file without a file name', () => {
    const consumer = write(
      'src/inline.ts',
      `import { Kafka } from 'kafkajs';

export async function start(consumer, stripe) {
  await consumer.run({
    eachMessage: async ({ message }) => {
      const key = \`refund-\${message.offset}\`;
      await stripe.refunds.create({ charge: 'ch_1' }, { idempotencyKey: key });
    },
  });
}
`,
    );
    const [finding] = reportsOf(consumer);
    expect(finding).toMatchObject({ rule: 'no-delivery-id-effect-key', line: 7 });
    expect(finding.data).toMatchObject({ origin: '6:29', originNote: 'the value is read here' });
    expect(finding.data).not.toHaveProperty('originFile');
    expect(finding.message).toContain("the Kafka offset 'message.offset' on line 6.");
  });

  it('places a key made of an amount where the amount is read, and leaves its message as it was', () => {
    const worker = write(
      'src/payouts.mjs',
      `import { Worker } from 'bullmq';
import { PrismaClient } from '@prisma/client';

const prisma = new PrismaClient();

new Worker('payouts', async (job) => {
  const { sellerId, cents } = job.data;
  const payoutKey = \`\${sellerId}:\${cents}\`;
  await prisma.payout.upsert({ where: { payoutKey }, create: { payoutKey, sellerId, cents }, update: {} });
});
`,
    );
    const [finding, ...others] = reportsOf(worker);
    expect(others).toEqual([]);
    expect(finding).toMatchObject({
      rule: 'no-amount-effect-key',
      line: 9,
      data: { amount: "'cents'", origin: '8:36', originNote: 'the amount is read here' },
    });
    expect(finding.message).toContain("is built from 'cents', narrowed only by 'sellerId',");
  });

  it('names the module that holds the memory a dedupe check asks', () => {
    const memory = write(
      'src/idempotency.ts',
      `const processedIds = new Set<string>();
export function isProcessed(id: string): boolean { return processedIds.has(id); }
export function markAsProcessed(id: string): void { processedIds.add(id); }
`,
    );
    write('prisma/schema.prisma', 'model Payment {\n  id    String @id\n  cents Int\n}\n');
    const webhooks = write(
      'src/webhooks.ts',
      `import { PrismaClient } from '@prisma/client';
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
`,
    );
    write(
      'src/routes.ts',
      "import { WebhooksService } from './webhooks.js';\nexport const onPayment = (body) => new WebhooksService().handlePaymentWebhook(body);\n",
    );
    const found = reportsOf(webhooks).find((finding) => finding.rule === 'no-in-memory-dedupe');
    expect(found?.data).toMatchObject({ origin: '1:7', originFile: memory, originNote: 'the memory is made here' });
  });
});
