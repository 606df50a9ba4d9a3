import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import { describe, expect, it } from 'vitest';

import type { LintEngine } from '../../extension/src/lint/lint-engine.js';
import { lintWorker } from '../../extension/src/lint/lint-worker-client.js';
import { ruleNames } from '../../extension/src/rules.js';
import { expectedFindings } from '../support/example-markers.js';

/**
 * The lint engine as the extension ships it: the esbuild bundle (ESLint, the plugin, the parser,
 * libpg-query's WebAssembly beside it), loaded in Node the way the extension host loads it, on the
 * example consumers. Bundling can break what the sources do right; this is where it would show.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
/** The engine's bundle, and the worker's entry that loads it in a thread. */
const bundle = path.join(root, 'extension/dist/lint-engine.js');
const workerEntry = path.join(root, 'extension/dist/lint-worker.js');
const examples = path.join(root, 'eslint-plugin/examples');

describe('the bundled lint engine', () => {
  it('finds exactly the marked lines of the examples', async () => {
    const { loadLintEngine } = createRequire(import.meta.url)(bundle) as { loadLintEngine: () => Promise<LintEngine> };
    const engine = await loadLintEngine();
    const expected = expectedFindings(examples);
    const files = [...new Set(expected.map((finding) => finding.file)), 'inbox-done-right.ts'];
    const found = files.flatMap((file) => {
      const report = engine.lint({
        text: readFileSync(path.join(examples, file), 'utf8'),
        fileName: file,
        rules: [...ruleNames],
      });
      if (report.kind !== 'linted')
        throw new Error(`${file}: ${report.kind} ${'reason' in report ? report.reason : ''}`);
      return report.problems.map((problem) => ({
        file,
        line: problem.line,
        rule: problem.rule,
        origin: problem.origin,
      }));
    });
    const describe = (finding: { file: string; line: number; rule: string }) =>
      `${finding.file}:${finding.line} ${finding.rule}`;
    expect(found.map(describe).sort()).toEqual(expected.map(describe).sort());
    // A delivery-id finding points at the line the delivery value was read on, above the key.
    const delivery = found.find(
      (finding) => finding.file === 'kafka-refunds.ts' && finding.rule === 'no-delivery-id-effect-key',
    );
    expect(delivery?.origin?.line).toBeGreaterThan(0);
    expect(delivery!.origin!.line).toBeLessThanOrEqual(delivery!.line);
    expect(engine.docsOf('no-delivery-id-effect-key').lesson).toBe('idempotent-consumers#q1');
    // A check-then-insert points at its check, the line its message names.
    const checked = found.find(
      (finding) => finding.file === 'amqp-ledger.js' && finding.rule === 'no-check-then-insert',
    );
    const source = readFileSync(path.join(examples, 'amqp-ledger.js'), 'utf8').split('\n');
    expect(checked?.origin?.note).toBe('the check is here');
    expect(source[checked!.origin!.line - 1]).toMatch(/SELECT/);
  });

  it('re-parses only what changed in an open document, with the same findings', async () => {
    const { loadLintEngine } = createRequire(import.meta.url)(bundle) as { loadLintEngine: () => Promise<LintEngine> };
    const engine = await loadLintEngine();
    const files = readdirSync(examples).filter(
      (file) => /\.(?:[cm]?[jt]s)$/.test(file) && !file.endsWith('.d.ts') && !file.startsWith('eslint.config'),
    );
    const kinds = files.map((file) => {
      const text = readFileSync(path.join(examples, file), 'utf8');
      const request = { fileName: file, rules: [...ruleNames], documentKey: `file:///examples/${file}` };
      const opened = engine.lint({ ...request, text });
      // A space typed into the first import: the findings stay, and only the first statements are read again.
      const edited = engine.lint({ ...request, text: text.replace('{', '{ ') });
      expect(opened.kind === 'linted' && opened.parse).toMatchObject({
        kind: 'full',
        reason: 'first parse of the document',
      });
      const where = (report: typeof opened) =>
        report.kind === 'linted'
          ? report.problems.map(({ rule, line, column, message }) => ({ rule, line, column, message }))
          : report;
      expect(where(edited)).toEqual(where(opened));
      return edited.kind === 'linted' ? edited.parse?.kind : undefined;
    });
    expect(kinds).toEqual(files.map(() => 'incremental'));
  });

  it('runs in a worker thread, as the extension starts it, with the same findings', async () => {
    const failures: string[] = [];
    const worker = lintWorker(workerEntry, { onLoaded: () => {}, onFailure: (reason) => failures.push(reason) });
    try {
      const engine = await worker.engine();
      const file = 'amqp-ledger.js';
      const report = await engine.lint({
        text: readFileSync(path.join(examples, file), 'utf8'),
        fileName: file,
        rules: [...ruleNames],
      });
      const marked = expectedFindings(examples).filter((finding) => finding.file === file);
      expect(
        report.kind === 'linted' && report.problems.map((problem) => `${problem.line} ${problem.rule}`).sort(),
      ).toEqual(marked.map((finding) => `${finding.line} ${finding.rule}`).sort());
      expect(engine.docsOf('no-amount-effect-key').lesson).toBe('idempotent-consumers#q4');
      expect(failures).toEqual([]);
    } finally {
      worker.dispose();
    }
  });

  it("keeps V8's compiled code of the engine for the next start, and a worker started from it finds the same", async () => {
    const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'idempotency-code-cache-'));
    const file = 'kafka-refunds.ts';
    const text = readFileSync(path.join(examples, file), 'utf8');
    try {
      const start = async () => {
        const loads: string[] = [];
        const worker = lintWorker(
          workerEntry,
          {
            onLoaded: ({ codeCache }) => loads.push(codeCache),
            onFailure: (reason) => loads.push(`failed: ${reason}`),
          },
          {},
          cacheDir,
        );
        try {
          const engine = await worker.engine();
          const report = await engine.lint({ text, fileName: file, rules: [...ruleNames] });
          // The cache is written once the first lint's report is out.
          await expect
            .poll(() => readdirSync(cacheDir).filter((name) => name.endsWith('.cache')).length, { timeout: 20_000 })
            .toBe(1);
          return {
            loads,
            findings:
              report.kind === 'linted'
                ? report.problems.map((problem) => `${problem.line} ${problem.rule}`)
                : [report.kind],
          };
        } finally {
          worker.dispose();
        }
      };
      const first = await start();
      const second = await start();
      expect(first.loads).toEqual(['created']);
      expect(second.loads).toEqual(['used']);
      expect(second.findings).toEqual(first.findings);
      expect(first.findings).toContain(
        `${expectedFindings(examples).find((finding) => finding.file === file)!.line} no-delivery-id-effect-key`,
      );
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it('passes on the warning the plugin gives for a schema file it cannot read, once per broken version', async () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'idempotency-engine-'));
    const warnings: string[] = [];
    const worker = lintWorker(workerEntry, {
      onLoaded: () => {},
      onFailure: () => {},
      onWarning: (message) => warnings.push(message),
    });
    try {
      mkdirSync(path.join(project, 'prisma'));
      writeFileSync(path.join(project, 'package.json'), '{ "name": "billing" }');
      // A merge left its markers in the schema.
      writeFileSync(
        path.join(project, 'prisma/schema.prisma'),
        'model Entry {\n<<<<<<< HEAD\n  id String @id\n=======\n  id Int @id\n>>>>>>> main\n}\n',
      );
      const consumer = path.join(project, 'book.ts');
      const text =
        'export async function book(prisma, id) {\n  if (!(await prisma.entry.findFirst({ where: { id } }))) await prisma.entry.create({ data: { id } });\n}\n';
      const engine = await worker.engine();
      await engine.lint({ text, fileName: consumer, rules: [...ruleNames] });
      await expect.poll(() => warnings, { timeout: 10_000 }).toHaveLength(1);
      expect(warnings[0]).toContain(`skipped ${path.join(project, 'prisma/schema.prisma')}: it could not be read`);
      // The same broken file, linted again: no second warning. Mended, then broken again in another way: a new one.
      await engine.lint({ text, fileName: consumer, rules: [...ruleNames] });
      writeFileSync(path.join(project, 'prisma/schema.prisma'), 'model Entry {\n  id String @id\n}\n');
      await engine.lint({ text, fileName: consumer, rules: [...ruleNames] });
      writeFileSync(path.join(project, 'prisma/schema.prisma'), 'model Entry {\n  id String @id\n');
      await engine.lint({ text, fileName: consumer, rules: [...ruleNames] });
      await expect.poll(() => warnings, { timeout: 10_000 }).toHaveLength(2);
      expect(warnings[1]).toContain(`skipped ${path.join(project, 'prisma/schema.prisma')}: it could not be read`);
    } finally {
      worker.dispose();
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("reads the schema of a document's project through the worker, and an open schema's unsaved text before the disk copy", async () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'idempotency-engine-'));
    const worker = lintWorker(workerEntry, { onLoaded: () => {}, onFailure: () => {} });
    try {
      const schema =
        'model Entry {\n  id        String @id @default(cuid())\n  invoiceId String\n  accountId String\n  cents     Int\n  @@unique([invoiceId, accountId])\n}\n';
      mkdirSync(path.join(project, 'prisma'));
      mkdirSync(path.join(project, 'src'));
      writeFileSync(path.join(project, 'package.json'), '{ "name": "billing" }');
      writeFileSync(path.join(project, 'prisma/schema.prisma'), schema);
      const consumer = path.join(project, 'src/book.ts');
      const text = `export async function book(prisma, invoiceId, accountId, cents) {
  const found = await prisma.entry.findFirst({ where: { invoiceId, accountId } });
  if (!found) await prisma.entry.create({ data: { invoiceId, accountId, cents } });
}
`;
      writeFileSync(consumer, text);
      const engine = await worker.engine();
      const findings = async (openDocuments: Record<string, string>) => {
        const report = await engine.lint({
          text,
          fileName: consumer,
          rules: [...ruleNames],
          documentKey: 'file:///book.ts',
          openDocuments,
        });
        return report.kind === 'linted'
          ? report.problems.map((problem) => `${problem.line} ${problem.rule}`)
          : [report.kind];
      };
      // The unique key on disk settles the race; the same schema unsaved without it does not.
      expect(await findings({})).toEqual([]);
      expect(
        await findings({
          [path.join(project, 'prisma/schema.prisma')]: schema.replace('  @@unique([invoiceId, accountId])\n', ''),
        }),
      ).toEqual(['3 no-check-then-insert']);
      expect(await findings({})).toEqual([]);
    } finally {
      worker.dispose();
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('loads the Prisma schema parser only once a lint reads a schema.prisma, and then reads its keys', async () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'idempotency-engine-'));
    try {
      mkdirSync(path.join(project, 'sql/migrations'), { recursive: true });
      mkdirSync(path.join(project, 'prisma/prisma'), { recursive: true });
      writeFileSync(path.join(project, 'sql/package.json'), '{ "name": "sql" }');
      writeFileSync(path.join(project, 'sql/migrations/001.sql'), 'CREATE TABLE entry (id text PRIMARY KEY);');
      writeFileSync(path.join(project, 'prisma/package.json'), '{ "name": "prisma" }');
      writeFileSync(
        path.join(project, 'prisma/prisma/schema.prisma'),
        'model Entry {\n  id        String @id @default(cuid())\n  invoiceId String\n  accountId String\n  cents     Int\n}\n',
      );
      const sqlConsumer = `export async function book(pool, id) {
  const found = await pool.query('SELECT 1 FROM entry WHERE id = $1', [id]);
  if (found.rowCount === 0) await pool.query('INSERT INTO entry (id) VALUES ($1)', [id]);
}
`;
      const prismaConsumer = `export async function book(prisma, invoiceId, accountId, cents) {
  const found = await prisma.entry.findFirst({ where: { invoiceId, accountId } });
  if (!found) await prisma.entry.create({ data: { invoiceId, accountId, cents } });
}
`;
      // A thread of its own, so the bundle is loaded afresh whatever other tests loaded before.
      const worker = new Worker(
        `const { parentPort, workerData } = require('node:worker_threads');
         const bundle = require(workerData.bundle);
         const steps = [['loaded', bundle.prismaSchemaParserLoaded()]];
         bundle.loadLintEngine().then((engine) => {
           for (const [name, fileName, text] of workerData.lints) {
             const report = engine.lint({ text, fileName, rules: workerData.rules });
             steps.push([name, bundle.prismaSchemaParserLoaded(), report.problems.map((problem) => problem.line + ' ' + problem.rule)]);
           }
           parentPort.postMessage(steps);
         });`,
        {
          eval: true,
          workerData: {
            bundle,
            rules: [...ruleNames],
            lints: [
              ['sql', path.join(project, 'sql/book.js'), sqlConsumer],
              ['prisma', path.join(project, 'prisma/book.ts'), prismaConsumer],
            ],
          },
        },
      );
      const steps = await new Promise((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      await worker.terminate();
      // The schema, once read, has no unique key on the checked fields: the check-then-insert is a race.
      expect(steps).toEqual([
        ['loaded', false],
        ['sql', false, []],
        ['prisma', true, ['3 no-check-then-insert']],
      ]);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('reads a MySQL migration with the MySQL grammar the bundle carries', async () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'idempotency-engine-'));
    try {
      mkdirSync(path.join(project, 'migrations'));
      mkdirSync(path.join(project, 'src/workers'), { recursive: true });
      writeFileSync(path.join(project, 'package.json'), '{ "name": "inbox" }');
      writeFileSync(
        path.join(project, 'migrations/001_init.sql'),
        'CREATE TABLE `inbox` (`id` int NOT NULL AUTO_INCREMENT, `message_id` varchar(64) NOT NULL, PRIMARY KEY (`id`), UNIQUE KEY `inbox_message` (`message_id`)) ENGINE=InnoDB;\nCREATE TABLE `visits` (`user_id` int NOT NULL, `day` date NOT NULL, KEY `by_day` (`day`)) ENGINE=InnoDB;',
      );
      const consumer = path.join(project, 'src/workers/claim.js');
      const text = `export async function claim(pool, id) {
  const [rows] = await pool.query('SELECT 1 FROM inbox WHERE message_id = ?', [id]);
  if (rows.length === 0) await pool.query('INSERT INTO inbox (message_id) VALUES (?)', [id]);
}
export async function visit(pool, userId, day) {
  const [rows] = await pool.query('SELECT 1 FROM visits WHERE user_id = ? AND day = ?', [userId, day]);
  if (rows.length === 0) await pool.query('INSERT INTO visits (user_id, day) VALUES (?, ?)', [userId, day]);
}
`;
      writeFileSync(consumer, text);
      const { loadLintEngine } = createRequire(import.meta.url)(bundle) as {
        loadLintEngine: () => Promise<LintEngine>;
      };
      const engine = await loadLintEngine();
      const report = engine.lint({ text, fileName: consumer, rules: [...ruleNames] });
      // The unique key on inbox settles its check; visits has a plain key only.
      expect(
        report.kind === 'linted' ? report.problems.map((problem) => `${problem.line} ${problem.rule}`) : report,
      ).toEqual(['7 no-check-then-insert']);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('sees a helper module that appears, changes or goes between two lints of the same document', async () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'idempotency-engine-'));
    const { loadLintEngine } = createRequire(import.meta.url)(bundle) as { loadLintEngine: () => Promise<LintEngine> };
    const engine = await loadLintEngine();
    try {
      mkdirSync(path.join(project, '.git'));
      mkdirSync(path.join(project, 'src'));
      const consumer = path.join(project, 'src/refunds.ts');
      const text = `import { refundKey } from './keys.js';

export async function start(consumer, stripe) {
  await consumer.run({
    eachMessage: async ({ message }) => {
      await stripe.refunds.create({ charge: 'ch_1' }, { idempotencyKey: refundKey(message) });
      await stripe.refunds.create({ charge: 'ch_2' }, { idempotencyKey: refundKey(message) });
    },
  });
}
`;
      writeFileSync(consumer, `import { Kafka } from 'kafkajs';\n${text}`);
      const findings = () => {
        const report = engine.lint({
          text: `import { Kafka } from 'kafkajs';\n${text}`,
          fileName: consumer,
          rules: [...ruleNames],
          documentKey: 'file:///refunds.ts',
        });
        return report.kind === 'linted'
          ? report.problems.map((problem) => `${problem.line} ${problem.rule}`)
          : [report.kind];
      };
      const keys = path.join(project, 'src/keys.ts');
      expect(findings()).toEqual([]);
      writeFileSync(
        keys,
        'export function refundKey(message: { offset: string }): string {\n  return `refund-${message.offset}`;\n}\n',
      );
      expect(findings()).toEqual(['7 no-delivery-id-effect-key', '8 no-delivery-id-effect-key']);
      // A larger file with a new modification time: the helper now keys by the business id.
      writeFileSync(
        keys,
        'export function refundKey(message: { refundId: string }): string {\n  return `refund-${message.refundId}-${"x".repeat(8)}`;\n}\n',
      );
      expect(findings()).toEqual([]);
      rmSync(keys);
      expect(findings()).toEqual([]);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('says what each lint read besides the file: the schema files it consulted and the helpers it followed, on every lint', async () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'idempotency-reading-'));
    const { loadLintEngine } = createRequire(import.meta.url)(bundle) as { loadLintEngine: () => Promise<LintEngine> };
    const engine = await loadLintEngine();
    try {
      const write = (file: string, text: string) => {
        mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
        writeFileSync(path.join(project, file), text);
      };
      write('package.json', '{ "name": "refunds", "private": true }');
      write(
        'prisma/schema.prisma',
        'model Refund {\n  id       String @id\n  chargeId String @unique\n  cents    Int\n}\n',
      );
      write('prisma/migrations/001_init/migration.sql', 'CREATE TABLE "Refund" ("id" TEXT PRIMARY KEY);\n');
      write(
        'src/keys.ts',
        'export function refundKey(message: { offset: string }) {\n  return `r-${message.offset}`;\n}\n',
      );
      write('src/money.ts', 'export function toCents(amount: number) {\n  return Math.round(amount * 100);\n}\n');
      write('src/unused.ts', 'export const unused = 1;\n');
      const consumer = path.join(project, 'src/refunds.ts');
      const text = `import { Kafka } from 'kafkajs';
import { PrismaClient } from '@prisma/client';
import { refundKey } from './keys.js';
import { toCents } from './money.js';
import { unused } from './unused.js';
const prisma = new PrismaClient();
export async function start(consumer, stripe) {
  await consumer.run({
    eachMessage: async ({ message }) => {
      const refund = JSON.parse(message.value.toString());
      const known = await prisma.refund.findFirst({ where: { chargeId: refund.chargeId } });
      if (!known) await prisma.refund.create({ data: { chargeId: refund.chargeId, cents: toCents(refund.amount) } });
      await stripe.refunds.create({ charge: refund.chargeId }, { idempotencyKey: refundKey(message) });
    },
  });
}
`;
      write('src/refunds.ts', text);
      const readings = [text, `${text}// edited\n`].map((edited) => {
        const report = engine.lint({ text: edited, fileName: consumer, rules: [...ruleNames], documentKey: 'refunds' });
        return report.kind === 'linted' ? report.read : report.kind;
      });
      const relative = (file: string) => path.relative(project, file);
      for (const read of readings) {
        expect(typeof read === 'object' && read.schema?.map(({ file, kind }) => `${relative(file)} ${kind}`)).toEqual([
          'prisma/migrations/001_init/migration.sql SQL',
          'prisma/schema.prisma a Prisma schema',
        ]);
        expect(typeof read === 'object' && read.modules.map(relative)).toEqual(['src/keys.ts', 'src/money.ts']);
      }
      // A file with no write asks nothing of the schema.
      const plain = engine.lint({
        text: 'export const one = 1;\n',
        fileName: path.join(project, 'src/one.ts'),
        rules: [...ruleNames],
      });
      expect(plain.kind === 'linted' && plain.read).toEqual({ modules: [] });
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("reads a team's declared wrapper as CI does, and names a declaration it cannot read", async () => {
    const { loadLintEngine } = createRequire(import.meta.url)(bundle) as { loadLintEngine: () => Promise<LintEngine> };
    const engine = await loadLintEngine();
    const text = `export function start(bus, stripe) {
  bus.subscribe('refunds', async (envelope) => {
    await stripe.refunds.create({ charge: envelope.body.chargeId }, { idempotencyKey: envelope.deliveryId });
  });
}
`;
    const lint = (declarations?: Record<string, unknown>) => {
      const report = engine.lint({ text, fileName: '/project/src/refunds.ts', rules: [...ruleNames], declarations });
      return report.kind === 'linted'
        ? report.problems.map((problem) => `${problem.line} ${problem.rule}`)
        : [report.kind, 'reason' in report ? report.reason : ''];
    };
    expect(lint()).toEqual([]);
    expect(lint({ consumers: [{ call: 'bus.subscribe', handler: 1, delivery: ['deliveryId'] }] })).toEqual([
      '3 no-delivery-id-effect-key',
    ]);
    const [kind, reason] = lint({ consumers: [{ call: 'bus.subscribe' }] });
    expect(kind).toBe('failed');
    expect(reason).toBe("The setting idempotency.declarations.consumers[0] should have required property 'handler'.");
  });

  it('leaves tests, seeds and migration scripts alone below the workspace folder, as the recommended config does in CI', async () => {
    const { loadLintEngine } = createRequire(import.meta.url)(bundle) as { loadLintEngine: () => Promise<LintEngine> };
    const engine = await loadLintEngine();
    const text = readFileSync(path.join(examples, 'kafka-refunds.ts'), 'utf8');
    const kindOf = (fileName: string, folder?: string) =>
      engine.lint({ text, fileName, rules: [...ruleNames], folder }).kind;
    // The workspace folder sits in a folder named like test code: that says nothing about its files.
    expect(kindOf('/work/test/shop/src/refunds.ts', '/work/test/shop')).toBe('linted');
    expect(kindOf('/work/test/shop/src/refunds.test.ts', '/work/test/shop')).toBe('not-service-code');
    expect(kindOf('/work/test/shop/test/refunds.ts', '/work/test/shop')).toBe('not-service-code');
    expect(kindOf('/work/test/shop/db/migrations/001_refunds.ts', '/work/test/shop')).toBe('not-service-code');
    // A file outside every workspace folder has no project to read its place in: it is checked.
    expect(kindOf('/tmp/refunds.test.ts')).toBe('linted');
  });

  it('reports once when the worker cannot load, and does not try again', async () => {
    const failures: string[] = [];
    const worker = lintWorker(path.join(root, 'extension/dist/no-such-worker.js'), {
      onLoaded: () => {},
      onFailure: (reason) => failures.push(reason),
    });
    await expect(worker.engine()).rejects.toThrow(/Cannot find module/);
    await expect(worker.engine()).rejects.toThrow(/Cannot find module/);
    expect(failures).toHaveLength(1);
  });
});
