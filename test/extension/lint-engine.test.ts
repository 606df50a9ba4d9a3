import * as typeScriptParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';

import { createIncrementalParsing } from '../../extension/src/lint/incremental/incremental-parsing.js';
import { createLintEngine, openDocumentsSetting } from '../../extension/src/lint/lint-engine.js';
import { ruleNames } from '../../extension/src/rules.js';
import { fakePlugin } from './support/fake-plugin.js';

/** An engine on the fake plugin, with one of its rules replaced by `rule` when given. */
function engineWith(rule?: { name: string; rule: unknown }) {
  return createLintEngine({
    linter: () => new Linter({ configType: 'flat' }),
    plugin: (rule ? { rules: { ...fakePlugin.rules, [rule.name]: rule.rule } } : fakePlugin) as never,
    parsing: createIncrementalParsing(typeScriptParser),
  });
}

const engine = engineWith();

const allRules = [...ruleNames];

/** An engine whose rule notes what it finds under `key` in the settings, on each lint. */
function settingsProbe(key: string) {
  const seen: unknown[] = [];
  const probing = engineWith({
    name: 'no-check-then-insert',
    rule: {
      meta: { schema: [] },
      create(context: { settings: Record<string, unknown> }) {
        seen.push(context.settings[key]);
        return {};
      },
    },
  });
  return { probing, seen };
}

describe('the lint engine', () => {
  it("hands the rules the other open documents' unsaved texts, per lint", () => {
    const { probing, seen } = settingsProbe(openDocumentsSetting);
    probing.lint({
      text: 'const a = 1;',
      fileName: 'a.ts',
      rules: allRules,
      openDocuments: { '/w/prisma/schema.prisma': 'model Refund {}' },
    });
    probing.lint({ text: 'const a = 1;', fileName: 'a.ts', rules: allRules });
    expect(seen).toEqual([{ '/w/prisma/schema.prisma': 'model Refund {}' }, {}]);
  });

  it("hands the plugin each folder's declarations as one object while they stay the same, since it builds its adapters per object", () => {
    const { probing, seen } = settingsProbe('idempotency');
    const payments = () => ({ sql: [{ call: 'db.run', sql: 0 }] });
    const ledger = () => ({ claims: [{ call: 'inbox.claim', key: 0 }] });
    for (const declarations of [payments(), ledger(), payments(), ledger(), undefined])
      probing.lint({ text: 'const a = 1;', fileName: 'a.ts', rules: allRules, declarations });
    expect(seen[0]).toEqual(payments());
    expect(seen[2]).toBe(seen[0]);
    expect(seen[3]).toBe(seen[1]);
    expect(seen[1]).not.toBe(seen[0]);
    expect(seen[4]).toBeUndefined();
  });

  it('gives a finding the origin its rule reports in the data, with its file when it is in another module, and none to a finding without one', () => {
    const reporting = engineWith({
      name: 'no-delivery-id-effect-key',
      rule: {
        meta: { schema: [], messages: { found: 'Found {{name}}' } },
        create(context: { report(descriptor: unknown): void }) {
          return {
            Identifier(node: { name: string }) {
              if (node.name === 'deliveryKey')
                context.report({
                  node,
                  messageId: 'found',
                  data: { name: node.name, origin: '1:7', originNote: 'the value is read here' },
                });
              if (node.name === 'plainKey') context.report({ node, messageId: 'found', data: { name: node.name } });
              if (node.name === 'helperKey')
                context.report({
                  node,
                  messageId: 'found',
                  data: { name: node.name, origin: '4:3', originFile: '/w/src/keys.ts', originNote: 'read here' },
                });
            },
          };
        },
      },
    });
    const report = reporting.lint({
      text: 'const a = 1;\nconst deliveryKey = a;\nconst plainKey = a;\nconst helperKey = a;\n',
      fileName: 'consumer.ts',
      rules: allRules,
    });
    expect(report.kind).toBe('linted');
    if (report.kind !== 'linted') return;
    expect(report.problems.map((problem) => [problem.line, problem.origin])).toEqual([
      [2, { line: 1, column: 7, note: 'the value is read here' }],
      [3, undefined],
      [4, { line: 4, column: 3, file: '/w/src/keys.ts', note: 'read here' }],
    ]);
  });

  it('reports findings with the rule, 1-based positions and suggestions as offset edits', () => {
    const text = 'const a = 1;\nconst deliveryKey: string = "x";\n';
    const report = engine.lint({ text, fileName: 'consumer.ts', rules: allRules });
    expect(report.kind).toBe('linted');
    if (report.kind !== 'linted') return;
    expect(report.problems).toHaveLength(1);
    const [problem] = report.problems;
    expect(problem).toMatchObject({
      rule: 'no-delivery-id-effect-key',
      message: 'Found deliveryKey',
      line: 2,
      column: 7,
      endLine: 2,
      endColumn: 26,
    });
    expect(problem.suggestions).toEqual([
      { description: 'Rename deliveryKey to businessKey', edit: { range: [19, 38], text: 'businessKey' } },
    ]);
  });

  it('parses TypeScript with typescript-eslint and JSX in .jsx files', () => {
    expect(
      engine.lint({ text: 'type A = { n: number }; let amountKey: A;', fileName: 'a.ts', rules: allRules }),
    ).toMatchObject({
      kind: 'linted',
      problems: [{ rule: 'no-amount-effect-key', line: 1, column: 29 }],
    });
    expect(engine.lint({ text: 'const amountKey = <div />;', fileName: 'a.jsx', rules: allRules })).toMatchObject({
      kind: 'linted',
      problems: [{ rule: 'no-amount-effect-key' }],
    });
  });

  it('honours eslint-disable comments for its own rules and ignores those for other plugins', () => {
    const text = [
      '// eslint-disable-next-line idempotency/no-delivery-id-effect-key',
      'const deliveryKey = 1;',
      '// eslint-disable-next-line no-console -- not ours',
      'const amountKey = 2; /* eslint no-console: "error" */',
    ].join('\n');
    const report = engine.lint({ text, fileName: 'a.js', rules: allRules });
    expect(report).toMatchObject({ kind: 'linted', problems: [{ rule: 'no-amount-effect-key', line: 4 }] });
    expect(report.kind === 'linted' && report.problems).toHaveLength(1);
  });

  it('runs only the rules it is given', () => {
    const text = 'const deliveryKey = 1, amountKey = 2, checkThenInsert = 3;';
    const report = engine.lint({ text, fileName: 'a.js', rules: ['no-check-then-insert'] });
    expect(report.kind === 'linted' && report.problems.map((problem) => problem.rule)).toEqual([
      'no-check-then-insert',
    ]);
  });

  it('tells a syntax error apart from findings, with its line', () => {
    expect(engine.lint({ text: 'const ok = 1;\nconst = ;', fileName: 'a.ts', rules: allRules })).toMatchObject({
      kind: 'unparseable',
      line: 2,
    });
  });

  it('turns an exception inside ESLint into a failed report instead of throwing', () => {
    const throwing = createLintEngine({
      linter: () =>
        ({
          verify: () => {
            throw new Error('boom');
          },
        }) as unknown as Linter,
      plugin: fakePlugin,
      parsing: createIncrementalParsing(typeScriptParser),
    });
    expect(throwing.lint({ text: '', fileName: 'a.js', rules: allRules })).toMatchObject({
      kind: 'failed',
      reason: 'boom',
    });
  });

  it("reads each rule's page and lesson from the plugin's metadata", () => {
    expect(engine.docsOf('no-amount-effect-key')).toEqual({
      url: 'https://example.test/rules/amountKey',
      lesson: 'idempotent-consumers#q1',
    });
  });
});
