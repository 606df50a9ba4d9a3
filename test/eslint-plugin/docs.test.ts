import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { whenSqlParserReady } from '../../eslint-plugin/src/analysis/sql/parser.js';
import plugin, { lessonLinks, ruleNames } from '../../eslint-plugin/src/index.js';

/**
 * The rule pages and the rules stay in step: every rule has a page with its description and its
 * lesson places, and every example on a page does what its heading says when linted for real.
 */

const root = new URL('../../', import.meta.url);
process.env.IDEMPOTENCY_LINT_STRICT = '1';

interface Page {
  text: string;
  /** Code blocks under "### Incorrect" and "### Correct". */
  examples: { kind: 'Incorrect' | 'Correct'; code: string }[];
  /** Blocks under "### Schema" (```sql, ```prisma): the project the examples are linted in. */
  schema: { language: string; code: string }[];
}

function readPage(rule: string): Page {
  const text = readFileSync(fileURLToPath(new URL(`eslint-plugin/docs/rules/${rule}.md`, root)), 'utf8');
  const examples: Page['examples'] = [];
  const schema: Page['schema'] = [];
  let section: string | undefined;
  let block: string[] | undefined;
  let language = '';
  for (const line of text.split('\n')) {
    if (block) {
      if (line.startsWith('```')) {
        if (section === 'Incorrect' || section === 'Correct') examples.push({ kind: section, code: block.join('\n') });
        if (section === 'Schema') schema.push({ language, code: block.join('\n') });
        block = undefined;
      } else {
        block.push(line);
      }
    } else if (line.startsWith('```')) {
      block = [];
      language = line.slice(3).trim();
    } else if (line.startsWith('#')) {
      section = /^###\s+(.*)$/.exec(line)?.[1]?.trim();
    }
  }
  return { text, examples, schema };
}

/**
 * A page's schema, written as a small project: examples of a rule that reads the schema are
 * linted as a file of it. Without a schema block, a bare name, as an editor's untitled file.
 */
const projects: string[] = [];
afterAll(() => {
  for (const dir of projects) rmSync(dir, { recursive: true, force: true });
});

function snippetName(schema: Page['schema']): string {
  if (schema.length === 0) return 'snippet.ts';
  const dir = mkdtempSync(path.join(tmpdir(), 'idempotency-docs-'));
  projects.push(dir);
  mkdirSync(path.join(dir, '.git'));
  mkdirSync(path.join(dir, 'migrations'));
  mkdirSync(path.join(dir, 'prisma'));
  writeFileSync(path.join(dir, 'package.json'), '{"name":"docs","private":true}');
  schema.forEach((block, index) => {
    if (block.language === 'prisma') writeFileSync(path.join(dir, 'prisma/schema.prisma'), block.code);
    else writeFileSync(path.join(dir, `migrations/${String(index + 1).padStart(3, '0')}.sql`), block.code);
  });
  return path.join(dir, 'snippet.ts');
}

const linter = new Linter({ configType: 'flat' });

function findings(code: string, filename = 'snippet.ts'): string[] {
  // A file of a project is linted from its folder: flat config matches files under its base path.
  const messages = (
    path.isAbsolute(filename) ? new Linter({ configType: 'flat', cwd: path.dirname(filename) }) : linter
  ).verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser },
        plugins: { idempotency: plugin as never },
        rules: Object.fromEntries(ruleNames.map((name) => [`idempotency/${name}`, 'error' as const])),
      },
    ],
    { filename },
  );
  const fatal = messages.find((message) => message.fatal);
  if (fatal) throw new Error(`an example does not parse: ${fatal.message}\n${code}`);
  return messages.map((message) => message.ruleId ?? '');
}

beforeAll(() => whenSqlParserReady());

describe('rule documentation', () => {
  it("the plugin has exactly the catalogue's rules, and the README lists exactly those", () => {
    expect(Object.keys(plugin.rules).sort()).toEqual([...ruleNames].sort());
    const readme = readFileSync(fileURLToPath(new URL('README.md', root)), 'utf8');
    const listed = [...readme.matchAll(/^\| \[`([a-z-]+)`\]\(eslint-plugin\/docs\/rules\//gm)].map((match) => match[1]);
    expect(listed).toEqual(ruleNames);
  });

  for (const name of ruleNames) {
    describe(name, () => {
      const rule = plugin.rules[name];
      const page = readPage(name);

      it('is titled with the rule id and quotes the rule description', () => {
        expect(page.text.split('\n')[0]).toBe(`# idempotency/${name}`);
        expect(page.text).toContain(`> ${rule.meta.docs.description}`);
      });

      it('is listed in the README with the same description', () => {
        const readme = readFileSync(fileURLToPath(new URL('README.md', root)), 'utf8');
        const row = readme
          .split('\n')
          .find((line) => line.startsWith(`| [\`${name}\`](eslint-plugin/docs/rules/${name}.md)`));
        expect(row, `README has no row for ${name}`).toBeDefined();
        expect(row).toContain(`| ${rule.meta.docs.description} |`);
      });

      it('is the page the rule links to', () => {
        expect(rule.meta.docs.url.endsWith(`/eslint-plugin/docs/rules/${name}.md`)).toBe(true);
      });

      it('names every lesson place that teaches the rule', () => {
        const link = lessonLinks[name];
        for (const anchor of [link.anchor, ...link.seeAlso])
          expect(page.text).toContain(`\`${link.lesson}#${anchor}\``);
      });

      it('has a "When not to use it" section and says whether it has suggestions', () => {
        expect(page.text).toContain('## When not to use it');
        expect(page.text.includes('💡 Has suggestions')).toBe(Boolean(rule.meta.hasSuggestions));
      });

      it('shows incorrect code that the rule reports and correct code that no rule reports', () => {
        const incorrect = page.examples.filter((example) => example.kind === 'Incorrect');
        const correct = page.examples.filter((example) => example.kind === 'Correct');
        expect(incorrect.length).toBeGreaterThan(0);
        expect(correct.length).toBeGreaterThan(0);
        const filename = snippetName(page.schema);
        for (const example of incorrect)
          expect(findings(example.code, filename), example.code).toContain(`idempotency/${name}`);
        for (const example of correct) expect(findings(example.code, filename), example.code).toEqual([]);
      });
    });
  }
});
