import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as typeScriptParser from '@typescript-eslint/parser';
import { Linter, SourceCode, type Rule } from 'eslint';
import plugin, { whenSqlParserReady } from 'eslint-plugin-idempotency';
import { describe, expect, it } from 'vitest';

import { EditorSourceCode } from '../../extension/src/lint/editor-source-code.js';
import { espreeAdapter } from '../../extension/src/lint/incremental/espree-adapter.js';
import { createIncrementalParsing } from '../../extension/src/lint/incremental/incremental-parsing.js';
import type { ParseResult } from '../../extension/src/lint/incremental/parser-adapter.js';
import { createLintEngine } from '../../extension/src/lint/lint-engine.js';
import { parserOptionsFor, parseSource } from '../../extension/src/lint/parse-source.js';
import { ruleNames } from '../../extension/src/rules.js';
import { fakePlugin } from './support/fake-plugin.js';

/**
 * The engine parses each text itself and hands ESLint a `SourceCode` whose traversal leaves out
 * code-path analysis. Whatever it does there must be what ESLint would have done.
 */

const examples = fileURLToPath(new URL('../../eslint-plugin/examples', import.meta.url));
const example = (file: string) => readFileSync(path.join(examples, file), 'utf8');
const jsxInJsxFiles: Linter.Config = {
  files: ['**/*.jsx'],
  languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } },
};
const fileKinds = ['a.js', 'a.mjs', 'a.cjs', 'a.jsx', 'a.ts', 'a.mts', 'a.cts', 'a.tsx'];

const fakeRules = Object.fromEntries(ruleNames.map((rule) => [`idempotency/${rule}`, 'error' as const]));
const fakeConfig: Linter.Config[] = [
  { files: ['**/*.*'], plugins: { idempotency: fakePlugin }, rules: fakeRules },
  jsxInJsxFiles,
  { files: ['**/*.{ts,mts,cts,tsx}'], languageOptions: { parser: typeScriptParser } },
];
const engine = createLintEngine({
  linter: () => new Linter({ configType: 'flat' }),
  plugin: fakePlugin,
  parsing: createIncrementalParsing(typeScriptParser),
});

/** What ESLint reports for a text, in the engine's terms. */
function eslintSays(text: string, fileName: string) {
  const messages = new Linter({ configType: 'flat' }).verify(text, fakeConfig, fileName);
  const fatal = messages.find((message) => message.fatal);
  if (fatal) return { kind: 'unparseable', reason: fatal.message, line: fatal.line };
  return {
    kind: 'linted',
    problems: messages.map(({ line, column, endLine, endColumn }) => ({ line, column, endLine, endColumn })),
  };
}

function engineSays(text: string, fileName: string) {
  const report = engine.lint({ text, fileName, rules: [...ruleNames] });
  if (report.kind === 'unparseable') return { kind: report.kind, reason: report.reason, line: report.line };
  if (report.kind !== 'linted') return report;
  return {
    kind: report.kind,
    problems: report.problems.map(({ line, column, endLine, endColumn }) => ({ line, column, endLine, endColumn })),
  };
}

type Step = { kind: number; target: unknown; phase?: number };
type Node = { type: string; range: [number, number]; parent?: Node | null };

const describeStep = (step: Step) => {
  const node = step.target as Node;
  return `${step.phase === 1 ? 'enter' : 'leave'} ${node.type} ${node.range.join('-')} in ${node.parent ? `${node.parent.type} ${node.parent.range.join('-')}` : 'nothing'}`;
};

/** ESLint's own traversal of a parse, with its code-path events left out. */
function eslintVisits(text: string, parsed: ParseResult): string[] {
  const sourceCode = new SourceCode({
    text,
    ast: parsed.ast as never,
    scopeManager: parsed.scopeManager as never,
    visitorKeys: parsed.visitorKeys as never,
  });
  const steps = [...(sourceCode.traverse() as Iterable<Step>)];
  expect(
    steps.some((step) => step.kind === 2),
    'ESLint runs code-path analysis',
  ).toBe(true);
  return steps.filter((step) => step.kind === 1).map(describeStep);
}

function editorSource(text: string, parsed: ParseResult): EditorSourceCode {
  return new EditorSourceCode({
    text,
    ast: parsed.ast as never,
    scopeManager: parsed.scopeManager as never,
    visitorKeys: parsed.visitorKeys as never,
  });
}

function editorSteps(text: string, parsed: ParseResult): Step[] {
  return [...editorSource(text, parsed).traverse()];
}

const parserOptions = (fileName: string) => parserOptionsFor(fileName) as never;

describe('parsing as ESLint does', () => {
  it.each(fileKinds)('gives the parser of %s the options ESLint gives it', (fileName) => {
    let given: unknown;
    const spy = {
      parseForESLint(_text: string, options: unknown) {
        given = options;
        throw new Error('only the options were wanted');
      },
    };
    new Linter({ configType: 'flat' }).verify(
      '',
      [{ files: ['**/*.*'], languageOptions: { parser: spy } }, jsxInJsxFiles],
      fileName,
    );
    expect(given).toBeDefined();
    expect(parserOptionsFor(fileName)).toEqual(given);
  });

  it.each([
    ['a shebang', 'a.js', '#!/usr/bin/env node\nconst deliveryKey = 1;\n'],
    ['a byte order mark', 'a.ts', '\uFEFFconst a = 1;\nconst amountKey: number = 2;\n'],
    ['a syntax error in JavaScript', 'a.js', 'const ok = 1;\nconst = ;\n'],
    ['a syntax error in TypeScript', 'a.ts', 'const ok = 1;\nlet x: = 2;\n'],
    ['JSX in a .jsx file', 'a.jsx', 'const checkThenInsert = <div />;\n'],
    ['JSX in a .tsx file', 'a.tsx', 'const checkThenInsert = <div />;\n'],
    ['CommonJS', 'a.cjs', 'return;\nconst deliveryKey = require("x");\n'],
  ])('reports on a text with %s what ESLint reports', (_label, fileName, text) => {
    const expected = eslintSays(text, fileName);
    expect(engineSays(text, fileName)).toEqual(expected);
    expect(expected.kind === 'unparseable' || expected.problems!.length > 0).toBe(true);
  });

  it('tells a text that does not parse from one that does', () => {
    const parsing = createIncrementalParsing(typeScriptParser);
    expect(parseSource('const = ;', 'a.ts', parsing)).toMatchObject({ ok: false, line: 1 });
    expect(parseSource('const a = 1;', 'a.ts', parsing)).toMatchObject({ ok: true });
  });
});

describe("the engine's traversal", () => {
  it.each(['kafka-refunds.ts', 'amqp-ledger.js'])(
    'visits the nodes of %s in the order ESLint does, with the same parents',
    (file) => {
      const text = example(file);
      const parse = () =>
        file.endsWith('.ts')
          ? (typeScriptParser.parseForESLint(text, parserOptions(file)) as unknown as ParseResult)
          : espreeAdapter().parse(text, parserOptions(file));
      const steps = editorSteps(text, parse());
      expect(steps.every((step) => step.kind === 1)).toBe(true);
      expect(steps.map(describeStep)).toEqual(eslintVisits(text, parse()));
    },
  );

  it('walks again only the statements an edit parsed again, and visits the result as ESLint visits a full parse', () => {
    const parsing = createIncrementalParsing(typeScriptParser);
    const file = 'kafka-refunds.ts';
    const before = example(file);
    const parse = (text: string) => {
      const attempt = parsing.typeScriptParser.parse(text, parserOptions(file), file);
      if (!attempt.ok) throw attempt.error;
      return attempt.result;
    };
    const first = parse(before);
    const firstSteps = editorSteps(before, first);
    const changed = first.ast.body.findIndex((statement) => statement.type === 'VariableDeclaration');
    const at = first.ast.body[changed].range[1];
    const after = `${before.slice(0, at)}\nconst added = 1;${before.slice(at)}`;
    const second = parse(after);

    const secondSteps = editorSteps(after, second);
    const stepsOf = (steps: Step[], statement: unknown) =>
      steps.filter((step) => step.target === statement && step.phase === 1);
    // Statements the edit left alone (before and after it) keep their step objects; those parsed again get new ones.
    const kept = second.ast.body.filter((statement) => first.ast.body.includes(statement));
    const fresh = second.ast.body.filter((statement) => !first.ast.body.includes(statement));
    expect([kept[0], kept.at(-1)]).toEqual([first.ast.body[0], first.ast.body.at(-1)]);
    expect(fresh.length).toBeGreaterThan(0);
    for (const statement of kept) expect(stepsOf(secondSteps, statement)[0]).toBe(stepsOf(firstSteps, statement)[0]);
    for (const statement of fresh) expect(firstSteps).not.toContain(stepsOf(secondSteps, statement)[0]);
    expect(secondSteps.map(describeStep)).toEqual(
      eslintVisits(after, typeScriptParser.parseForESLint(after, parserOptions(file)) as unknown as ParseResult),
    );
  });

  it('visits only the nodes of the types it is told, once ESLint asks for the steps, in the same order', () => {
    const file = 'kafka-refunds.ts';
    const text = example(file);
    const parse = () => typeScriptParser.parseForESLint(text, parserOptions(file)) as unknown as ParseResult;
    const every = editorSteps(text, parse());
    const types = new Set<string>();
    const steps = editorSource(text, parse())
      .visitingOnly(() => types)
      .traverse();
    // Told after the traversal was made, as the engine notes the rules' listeners once ESLint creates them.
    for (const type of ['Program', 'CallExpression', 'VariableDeclarator']) types.add(type);
    const visited = [...steps];
    expect(visited.length).toBeGreaterThan(2);
    expect(visited.length).toBeLessThan(every.length / 3);
    expect(visited.map(describeStep)).toEqual(
      every.filter((step) => types.has((step.target as Node).type)).map(describeStep),
    );
    // Told nothing, it visits every node.
    expect(
      [
        ...editorSource(text, parse())
          .visitingOnly(() => undefined)
          .traverse(),
      ].map(describeStep),
    ).toEqual(every.map(describeStep));
  });

  it('runs a rule whose selector looks at ancestors on every node, as ESLint does', () => {
    const inCall: Rule.RuleModule = {
      meta: { type: 'problem', messages: { found: 'An identifier in a call' }, schema: [] },
      create: (context) => ({
        'CallExpression > Identifier'(node: Rule.Node) {
          context.report({ node, messageId: 'found' });
        },
      }),
    };
    const withSelector = { rules: { ...fakePlugin.rules, 'no-amount-effect-key': inCall } };
    const text = 'send(amountKey, other);\nconst amountKey = 1;\n';
    const expected = new Linter({ configType: 'flat' })
      .verify(text, [{ files: ['**/*.js'], plugins: { idempotency: withSelector }, rules: fakeRules }], 'a.js')
      .map(({ ruleId, line, column }) => ({ ruleId, line, column }));
    const report = createLintEngine({
      linter: () => new Linter({ configType: 'flat' }),
      plugin: withSelector,
      parsing: createIncrementalParsing(typeScriptParser),
    }).lint({ text, fileName: 'a.js', rules: [...ruleNames] });
    expect(report.kind).toBe('linted');
    const problems = report.kind === 'linted' ? report.problems : [];
    expect(problems.map(({ rule, line, column }) => ({ ruleId: `idempotency/${rule}`, line, column }))).toEqual(
      expected,
    );
    // `send`, `amountKey` and `other`, the identifiers whose parent is the call.
    expect(problems.filter((problem) => problem.message === 'An identifier in a call')).toHaveLength(3);
  });

  it('is enough for the rules: none of them listens to code-path events', async () => {
    await whenSqlParserReady();
    const listened = new Set<string>();
    const recording = Object.fromEntries(
      Object.entries(plugin.rules as unknown as Record<string, Rule.RuleModule>).map(([name, rule]) => [
        name,
        {
          ...rule,
          create(context: Rule.RuleContext) {
            const listeners = rule.create(context);
            for (const key of Object.keys(listeners)) listened.add(key);
            return listeners;
          },
        },
      ]),
    );
    const linter = new Linter({ configType: 'flat' });
    const config = [
      ...(plugin.configs.recommended as Linter.Config[]).map((entry) =>
        entry.plugins ? { ...entry, plugins: { ...entry.plugins, idempotency: { rules: recording } } } : entry,
      ),
    ];
    for (const file of ['kafka-refunds.ts', 'amqp-ledger.js', 'sqs-receipts.cjs', 'bullmq-payouts.mjs'])
      linter.verify(example(file), config, file);
    expect(listened.size).toBeGreaterThan(3);
    expect([...listened].filter((key) => /codepath/i.test(key))).toEqual([]);
  });

  it('is enough for the rules and ESLint: neither asks the token store, which the engine leaves empty', async () => {
    await whenSqlParserReady();
    // The token store's methods, as a `SourceCode` inherits them; each records that it was asked.
    const store = Object.getPrototypeOf(SourceCode.prototype) as Record<string, unknown>;
    const methods = Object.getOwnPropertyNames(store).filter(
      (name) => name !== 'constructor' && typeof store[name] === 'function',
    );
    expect(methods).toContain('getTokenBefore');
    const asked = new Set<string>();
    const originals = new Map(methods.map((name) => [name, store[name] as (...args: unknown[]) => unknown]));
    for (const [name, original] of originals)
      store[name] = function (this: unknown, ...args: unknown[]) {
        asked.add(name);
        return original.apply(this, args);
      };
    try {
      const linter = new Linter({ configType: 'flat' });
      const config = plugin.configs.recommended as Linter.Config[];
      let findings = 0;
      for (const file of ['kafka-refunds.ts', 'amqp-ledger.js', 'sqs-receipts.cjs', 'bullmq-payouts.mjs']) {
        // A disable comment too: ESLint reads its directives from the comments, not the tokens.
        const text = `${example(file)}\n// eslint-disable-next-line idempotency/no-amount-effect-key\nconst spare = 1;\n`;
        findings += linter.verify(text, config, file).length;
      }
      expect(findings).toBeGreaterThan(3);
      // The check can fail: asking the store is seen.
      const probe = espreeAdapter().parse('a;', parserOptionsFor('a.js')).ast as never;
      new SourceCode({ text: 'a;', ast: probe }).getFirstToken(probe);
    } finally {
      for (const [name, original] of originals) store[name] = original;
    }
    expect([...asked]).toEqual(['getFirstToken']);
  });
});
