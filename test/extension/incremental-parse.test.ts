import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as typeScriptParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import plugin, { whenSqlParserReady } from 'eslint-plugin-idempotency';
import { beforeAll, describe, expect, it } from 'vitest';

import { espreeAdapter } from '../../extension/src/lint/incremental/espree-adapter.js';
import { createIncrementalParsing } from '../../extension/src/lint/incremental/incremental-parsing.js';
import type { ParseOutcome } from '../../extension/src/lint/incremental/parse-memory.js';
import type { ParserOptions } from '../../extension/src/lint/incremental/parser-adapter.js';
import { createLintEngine, toProblem, type LintEngine, type LintReport } from '../../extension/src/lint/lint-engine.js';
import { ruleNameOf, ruleNames } from '../../extension/src/rules.js';
import { consumerFile, editingSession } from './bench/consumer-corpus.js';
import { nextEdits, seededRandom, type Edit } from './support/random-edits.js';
import { firstDifference, serializeProgram, serializeScopes } from './support/serialize-parse.js';

/**
 * The editor re-parses only the statements a change touched. Whatever it does, a lint must say
 * exactly what a fresh full lint with the plugin's recommended config (what CI runs) says, and
 * the spliced parse must equal a full parse node for node, token for token, scope for scope.
 * Edits come from a seeded generator, so a failure names an edit that reproduces it.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const examples = path.join(root, 'eslint-plugin/examples');
const allRules = [...ruleNames];

/**
 * Files with what the examples lack: no semicolons, a comment that disables a rule, a strict
 * script, decorators, JSX in TypeScript and JavaScript, directives, exports by list.
 */
const edgeFiles: Record<string, string> = {
  'no-semicolons.js': `import { Pool } from 'pg'
const pool = new Pool()
let total = 0
const pattern = /amount/g
export async function handle(message) {
  const key = message.offset
  await pool.query('INSERT INTO effects(effect_key) VALUES ($1)', [key])
}
export async function handleQuietly(message) {
  // eslint-disable-next-line idempotency/no-delivery-id-effect-key -- a comment that turns a finding off
  await pool.query('INSERT INTO effects(effect_key) VALUES ($1)', [message.offset])
}
total = total
/x/g.test('x') ? total++ : total--
;[1, 2].forEach((n) => { total += n })
const divided = total / 2 / 1
\`template \${total}\`
export default handle
`,
  'strict-script.cjs': `'use strict';
// A CommonJS worker.
const { Pool } = require('pg');
const pool = new Pool();
module.exports.handle = async function handle(job) {
  const found = await pool.query('SELECT 1 FROM rows WHERE row_id = $1', [job.data.rowId]);
  if (found.rowCount === 0) await pool.query('INSERT INTO rows(row_id) VALUES ($1)', [job.data.rowId]);
};
var counter = 0;
function bump() { counter += 1; return counter; }
`,
  'decorated.ts': `import { Controller, MessagePattern, Payload } from '@nestjs/microservices';
declare const db: { query(sql: string, values: unknown[]): Promise<{ rowCount: number }> };
@Controller()
export class Refunds {
  @MessagePattern('refunds')
  async handle(@Payload() message: { id: string; cents: number }) {
    await db.query('INSERT INTO refunds(refund_key) VALUES ($1)', [message.id]);
  }
}
export interface Refund { id: string }
type Cents = number;
enum Kind { A, B }
namespace N { export const n = 1; }
const generic = <T,>(value: T): T => value;
export { generic as identity };
// Nodes that typescript-estree builds sharing a child's position objects.
export function isRefund(value: unknown): value is Refund { return typeof value === 'object'; }
type Row = [first: string, ...rest: number[]];
import Payments from 'payments';
`,
  'component.tsx': `import { useState } from 'react';
export function Panel(props: { orderId: string }) {
  const [count, setCount] = useState(0);
  const key = props.orderId;
  return <div onClick={() => setCount(count + 1)}>{key} {count}<span>text</span></div>;
}
const element = <Panel orderId="a" />;
`,
  'panel.jsx': `import { useState } from 'react';
export function Refund({ payment }) {
  const [sent, setSent] = useState(false);
  const idempotencyKey = payment.amount;
  return <button onClick={() => setSent(true)} data-key={idempotencyKey}>{sent ? 'sent' : 'send'} &amp; more</button>;
}
export const list = (items) => <ul>{items.map((item) => <li key={item.id}>{item.name}</li>)}</ul>;
`,
  'directives.mjs': `'use strict';
'use another';
import { randomUUID } from 'node:crypto';
export const idempotencyKey = randomUUID();
const a = 1, b = 2;
export { a, b as c };
label: for (const item of [a, b]) { if (item) continue label; }
`,
};

interface Sample {
  file: string;
  text: string;
}

function exampleSamples(): Sample[] {
  return readdirSync(examples)
    .filter((file) => /\.(?:[cm]?[jt]s|[jt]sx)$/.test(file) && !file.startsWith('eslint.config'))
    .map((file) => ({ file, text: readFileSync(path.join(examples, file), 'utf8') }));
}

/** What a lint says, without how long it took or how it parsed. */
function findings(report: LintReport): unknown {
  switch (report.kind) {
    case 'linted':
      // The origin comes from the rules' report data, which a plain Linter run does not return; the rest must agree.
      return { kind: 'linted', problems: report.problems.map(({ origin: _origin, ...problem }) => problem) };
    case 'unparseable':
      return { kind: 'unparseable', reason: report.reason, line: report.line };
    case 'failed':
      return { kind: 'failed', reason: report.reason };
  }
}

/**
 * The recommended config, plus JSX in `.jsx` files: the editor reads those as JSX, while the
 * recommended config leaves that to the project's own config.
 */
const referenceConfig: Linter.Config[] = [
  // Every rule, as the engine is asked for every rule.
  ...(plugin.configs.strict as Linter.Config[]),
  { files: ['**/*.jsx'], languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } } },
];

/** A fresh full lint with every rule of the plugin, in the engine's terms. */
function referenceFindings(linter: Linter, text: string, file: string): unknown {
  const messages = linter.verify(text, referenceConfig, file);
  const fatal = messages.find((message) => message.fatal);
  if (fatal) return { kind: 'unparseable', reason: fatal.message, line: fatal.line };
  return {
    kind: 'linted',
    // The engine reports its own rules only (a disable comment may name a rule that does not exist).
    problems: messages
      .filter((message) => ruleNameOf(message.ruleId) !== undefined)
      .map((message) => toProblem(ruleNameOf(message.ruleId)!, message)),
  };
}

interface Captured {
  options: ParserOptions;
  /** Written out as the parser returned it: ESLint adds its globals to the scope manager afterwards. */
  program: string[];
  scopes: string[] | undefined;
  typeScript: boolean;
}

/** The engine as the editor builds it, with what its parsers hand ESLint captured after each lint. */
function incrementalEngine(maxShare: number): { engine: LintEngine; last: () => Captured | undefined } {
  const parsing = createIncrementalParsing(typeScriptParser, { maxShare });
  let captured: Captured | undefined;
  for (const [parser, typeScript] of [
    [parsing.typeScriptParser, true],
    [parsing.javaScriptParser, false],
  ] as const) {
    const parse = parser.parse.bind(parser);
    parser.parse = (text, options, documentKey) => {
      captured = undefined;
      const attempt = parse(text, options, documentKey);
      if (attempt.ok) {
        captured = {
          options,
          program: serializeProgram(attempt.result.ast as never),
          scopes: attempt.result.scopeManager ? serializeScopes(attempt.result.scopeManager as never) : undefined,
          typeScript,
        };
      }
      return attempt;
    };
  }
  const engine = createLintEngine({
    linter: () => new Linter({ configType: 'flat' }),
    plugin: plugin,
    parsing,
  });
  return { engine, last: () => captured };
}

/** The spliced parse must be the full parse: same nodes, tokens, comments and (for TypeScript) scopes. */
function parseDifference(text: string, captured: Captured): string | undefined {
  if (captured.typeScript) {
    const full = typeScriptParser.parseForESLint(text, captured.options);
    return (
      firstDifference(serializeProgram(full.ast as never), captured.program) ??
      firstDifference(serializeScopes(full.scopeManager as never), captured.scopes ?? [])
    );
  }
  const full = espreeAdapter().parse(text, captured.options);
  return (
    firstDifference(serializeProgram(full.ast as never), captured.program) ??
    firstDifference(serializeScopes(full.scopeManager as never), captured.scopes ?? [])
  );
}

interface Outcome {
  /** The text parsed (findings, not a syntax error). */
  linted: boolean;
  parse: ParseOutcome | undefined;
}

interface Tally {
  linted: number;
  incremental: number;
  reused: number;
  full: number;
  reasons: Map<string, number>;
}

/** How the texts that parsed were parsed. */
function tally(outcomes: Outcome[]): Tally {
  const counts: Tally = { linted: 0, incremental: 0, reused: 0, full: 0, reasons: new Map() };
  for (const { linted, parse: outcome } of outcomes) {
    if (!linted || !outcome) continue;
    counts.linted += 1;
    counts[outcome.kind] += 1;
    if (outcome.kind === 'full') counts.reasons.set(outcome.reason, (counts.reasons.get(outcome.reason) ?? 0) + 1);
  }
  return counts;
}

/**
 * Lints `sample` after each edit, with the incremental engine and with a fresh full lint, and
 * checks that they agree and that the parse ESLint was given equals a full parse.
 */
function checkEdits(sample: Sample, edits: (lastLinted: () => boolean) => Iterable<Edit>, maxShare: number): Outcome[] {
  const { engine, last } = incrementalEngine(maxShare);
  const reference = new Linter({ configType: 'flat' });
  const outcomes: Outcome[] = [];
  let linted = true;
  const check = (label: string, text: string) => {
    const report = engine.lint({ text, fileName: sample.file, rules: allRules, documentKey: sample.file });
    linted = report.kind === 'linted';
    if ('parse' in report) outcomes.push({ linted: report.kind === 'linted', parse: report.parse });
    const context = `${sample.file} after ${label}`;
    expect(findings(report), context).toEqual(referenceFindings(reference, text, sample.file));
    const captured = last();
    if (report.kind === 'linted') {
      expect(captured, context).toBeDefined();
      expect(parseDifference(text, captured!), context).toBeUndefined();
    }
  };
  check('opening', sample.text);
  for (const edit of edits(() => linted)) check(edit.label, edit.text);
  return outcomes;
}

/**
 * `steps` seeded edits in a row, each building on the last. A text that does not parse is
 * usually put back to the last one that did, as a person fixes a typo, so most lints have a
 * program to compare.
 */
function* randomWalk(sample: Sample, seed: number, steps: number, lastLinted: () => boolean): Generator<Edit> {
  const random = seededRandom(seed);
  let text = sample.text;
  let parsed = sample.text;
  for (let step = 0; step < steps; step += 1) {
    if (!lastLinted() && random() < 0.75) {
      text = parsed;
      yield { label: `step ${step} (seed ${seed}): back to the last text that parsed`, text };
    }
    for (const edit of nextEdits(text, sample.text, random)) {
      text = edit.text;
      yield { label: `step ${step} (seed ${seed}): ${edit.label}`, text };
    }
    if (lastLinted()) parsed = text;
  }
}

describe('incremental parsing in the editor', () => {
  beforeAll(async () => {
    await whenSqlParserReady();
  });

  it.each(exampleSamples().map((sample) => [sample.file, sample] as const))(
    'agrees with a full lint after each of many edits to the example %s',
    (_file, sample) => {
      // Every share of the file may be re-read, so these small files take the incremental path too.
      const counts = tally(
        checkEdits(sample, (linted) => randomWalk(sample, 20_240 + sample.file.length, 150, linted), 1),
      );
      expect(counts.linted).toBeGreaterThan(150);
      expect(counts.incremental, `incremental parses of ${sample.file}`).toBeGreaterThan(counts.linted / 2);
    },
  );

  it.each(Object.entries(edgeFiles))('agrees with a full lint after each of many edits to %s', (file, text) => {
    const counts = tally(
      checkEdits({ file, text }, (linted) => randomWalk({ file, text }, 7 + file.length, 150, linted), 1),
    );
    expect(counts.linted).toBeGreaterThan(150);
    expect(counts.incremental, `incremental parses of ${file}`).toBeGreaterThan(counts.linted / 3);
  });

  it('agrees with a full lint on the 2,000-line benchmark consumer, parsing it in full only on opening', () => {
    const text = consumerFile(2000);
    const session = editingSession(text, 40);
    const counts = tally(checkEdits({ file: 'consumer.ts', text }, () => session, 0.5));
    expect(counts.full, `full parses: ${JSON.stringify([...counts.reasons])}`).toBe(1);
    expect(counts.incremental).toBe(session.length);
  });

  it('agrees with a full lint on the benchmark consumer after random edits', () => {
    const sample = { file: 'consumer.ts', text: consumerFile(600) };
    const counts = tally(checkEdits(sample, (linted) => randomWalk(sample, 99, 30, linted), 0.5));
    expect(counts.incremental).toBeGreaterThan(counts.linted / 2);
  });

  it('parses the same text again without parsing it, and a closed document from scratch', () => {
    const { engine } = incrementalEngine(1);
    const request = {
      text: 'const a = 1;\nconst amountKey = a;\n',
      fileName: 'a.ts',
      rules: allRules,
      documentKey: 'doc',
    };
    expect(engine.lint(request)).toMatchObject({
      kind: 'linted',
      parse: { kind: 'full', reason: 'first parse of the document' },
    });
    expect(engine.lint(request)).toMatchObject({ kind: 'linted', parse: { kind: 'reused' } });
    expect(engine.lint({ ...request, text: 'const a = 1;\nconst amountKey = a + 1;\n' })).toMatchObject({
      parse: { kind: 'incremental' },
    });
    engine.forget('doc');
    expect(engine.lint(request)).toMatchObject({ parse: { kind: 'full', reason: 'first parse of the document' } });
    expect(engine.lint({ ...request, documentKey: undefined })).toMatchObject({
      parse: { kind: 'full', reason: 'not an open document' },
    });
  });

  it.each([
    {
      file: 'asi.js',
      before: 'let a = b\n++x\nbar()\n',
      // `+ +x` alone is a statement, but after `let a = b` without a semicolon it continues that one.
      after: 'let a = b\n+ +x\nbar()\n',
      reason: 'the first token of a statement changed after a statement without a semicolon',
    },
    {
      file: 'class.ts',
      before: 'const a = 1;\nclass A {}\n(x);\n',
      // The class becomes an expression, and `(x)` on the next line calls it.
      after: 'const a =\nclass A {}\n(x);\n',
      reason: 'the statement after the change parses differently',
    },
    {
      file: 'exports.mjs',
      before: 'export const a = 1;\nexport const b = 2;\n',
      // Two exports of one name: acorn rejects the file, though each statement parses alone.
      after: 'export const a = 1;\nexport const a = 2;\n',
      reason: 'the changed statements declare or export other names',
    },
    {
      file: 'strict.cjs',
      before: "'use strict';\nvar a = 1;\n",
      after: "'use sloppy';\nvar a = 1;\n",
      reason: 'the change touches the directive prologue',
    },
    {
      file: 'decorated.ts',
      before: 'const a = 1;\n@decorate\nexport class A { b = 1; }\n',
      // The class's range leaves out its decorator; parsed from the class on, the decorator would be lost.
      after: 'const a = 1;\n@decorate\nexport class A { b = 2; }\n',
      reason: 'a token outside the statements before the change',
    },
  ])('parses $file in full where a statement alone could read differently', ({ file, before, after, reason }) => {
    const outcomes = checkEdits({ file, text: before }, () => [{ label: 'the edit', text: after }], 1);
    expect(outcomes.at(-1)?.parse).toMatchObject({ kind: 'full', reason });
  });

  it('notices a parse that differs from the full one by one column', () => {
    const text = 'const a = 1;\nconst b = 2;\n';
    const full = typeScriptParser.parseForESLint(text, { range: true, loc: true, tokens: true, comment: true });
    const shifted = typeScriptParser.parseForESLint(text, { range: true, loc: true, tokens: true, comment: true });
    const identifier = (shifted.ast.body[1] as { declarations: { id: { loc: { start: { column: number } } } }[] })
      .declarations[0].id;
    identifier.loc.start.column += 1;
    expect(firstDifference(serializeProgram(full.ast as never), serializeProgram(shifted.ast as never))).toContain(
      'Identifier',
    );
  });
});
