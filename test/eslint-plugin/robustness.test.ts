import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { beforeAll, describe, expect, it } from 'vitest';

import { CorpusLinter, sourceFilesBelow } from '../../eslint-plugin/scripts/corpus-linter.js';
import { whenSqlParserReady } from '../../eslint-plugin/src/analysis/sql/parser.js';

/**
 * The plugin never throws and never hangs, whatever it is given. Rules run in strict mode here,
 * so a contained analysis error would surface as a crash.
 */

process.env.IDEMPOTENCY_LINT_STRICT = '1';
const linter = new CorpusLinter();
const nodeModules = fileURLToPath(new URL('../../node_modules', import.meta.url));

beforeAll(() => whenSqlParserReady());

function lintClean(source: string, filename = 'input.ts') {
  const outcome = linter.lint(source, filename);
  expect(outcome.crash).toBeUndefined();
  expect(outcome.unparseable).toBeUndefined();
  return outcome;
}

describe('robustness', () => {
  it('lints a sample of installed packages without an exception', () => {
    const files = sourceFilesBelow(nodeModules).filter((_, index) => index % 97 === 0);
    expect(files.length).toBeGreaterThan(50);
    const crashes = files.flatMap((file) => {
      const outcome = linter.lint(readFileSync(file, 'utf8'), file);
      return outcome.crash ? [`${file}: ${outcome.crash}`] : [];
    });
    expect(crashes).toEqual([]);
  });

  it('skips SQL that PostgreSQL rejects', () => {
    const outcome = lintClean(`
      new Worker('q', async (job) => {
        await db.query('INSERT INTO effects (effect_id VALUES ($1', [job.id]);
        await db.query('SELECT FROM WHERE', []);
        await db.query("INSERT INTO effects (effect_id) VALUES ('unterminated", [job.id]);
        await sql\`INSERT INTO \${table} (effect_id) VALUES (\${job.id})\`;
      });`);
    expect(outcome.findings).toEqual([]);
  });

  it('reads SQL in a 1 MB template literal', () => {
    const padding = 'x'.repeat(1024 * 1024);
    const outcome = lintClean(`
      new Worker('q', async (job) => {
        await sql\`INSERT INTO effects (effect_id, cents, note) VALUES (\${job.id}, \${job.data.cents}, '${padding}') ON CONFLICT (effect_id) DO NOTHING\`;
      });`);
    expect(outcome.findings.map((finding) => finding.ruleId)).toEqual(['idempotency/no-delivery-id-effect-key']);
  });

  it('survives deeply nested expressions and long concatenations', () => {
    // Deep enough to pass every limit of the analysis, shallow enough for the parsers themselves
    // (typescript-eslint's parser gives up on a 1,000-term concatenation; espree does not).
    const nested = `${'('.repeat(150)}job.id${' + 1)'.repeat(150)}`;
    const members = `job${'.next'.repeat(500)}.id`;
    lintClean(`
      new Worker('q', async (job) => {
        await stripe.refunds.create({}, { idempotencyKey: ${nested} });
        await stripe.refunds.create({}, { idempotencyKey: ${members} });
      });`);
    const concatenation = Array.from({ length: 3000 }, (_, index) => `'part${index} '`).join(' + ');
    lintClean(
      `
      new Worker('q', async (job) => {
        await db.query('INSERT INTO effects (effect_id) VALUES ($1) -- ' + ${concatenation}, [job.id]);
        await stripe.refunds.create({}, { idempotencyKey: job.data.refundId + ${concatenation} });
      });`,
      'input.js',
    );
  });

  it('ends cycles between variables and functions', () => {
    const outcome = lintClean(`
      function left(value, depth) { return depth > 0 ? right(value, depth - 1) : String(value); }
      function right(value, depth) { return left(value, depth); }
      let a = b;
      let b = a;
      const loop = { self: null };
      loop.self = loop;
      new Worker('q', async (job) => {
        await stripe.refunds.create({}, { idempotencyKey: left(job.id, 3) + a + loop.self.self.self.id });
      });`);
    expect(outcome.findings.map((finding) => finding.ruleId)).toEqual(['idempotency/no-delivery-id-effect-key']);
  });

  it('reads class methods in JavaScript, where the parser gives them no decorators at all', () => {
    const outcome = lintClean(
      `
      const { Worker } = require('bullmq');
      class RefundHandler {
        async handle(job) {
          await stripe.refunds.create({ charge: job.data.chargeId }, { idempotencyKey: \`refund-\${job.id}\` });
        }
      }
      const handler = new RefundHandler();
      new Worker('refunds', (job) => handler.handle(job));`,
      'input.js',
    );
    expect(outcome.findings.map((finding) => finding.ruleId)).toEqual(['idempotency/no-delivery-id-effect-key']);
  });

  it('handles a file of ten thousand queries', () => {
    const queries = Array.from(
      { length: 10_000 },
      (_, index) => `  await db.query('INSERT INTO t${index % 50} (id) VALUES ($1)', [rows[${index}]]);`,
    ).join('\n');
    lintClean(`async function load(db, rows) {\n${queries}\n}`);
  });
});
