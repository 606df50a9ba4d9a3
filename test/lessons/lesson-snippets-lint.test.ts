import typeScriptParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import plugin, { whenSqlParserReady } from 'eslint-plugin-idempotency';
import { beforeAll, describe, expect, it } from 'vitest';

import { allQuestions } from '../../lessons/src/built-lesson.js';
import { idempotentConsumersLesson as lesson } from '../../lessons/src/lesson-data.js';
import type { CodeSnippet } from '../../lessons/src/model.js';

/**
 * The lesson and the linter teach the same mistakes, so they must agree on real code: every
 * snippet the lesson shows is linted, exactly as shown, with the plugin's recommended config and
 * typescript-eslint's parser. A snippet declares the rules that must report it; any other rule
 * reporting it, or a declared rule staying silent, fails the test.
 */

interface ShownSnippet {
  readonly place: string;
  readonly snippet: CodeSnippet;
}

function shownSnippets(): ShownSnippet[] {
  const shown: ShownSnippet[] = [];
  for (const example of lesson.examples)
    for (const snippet of example.code) shown.push({ place: example.anchor, snippet });
  for (const question of allQuestions(lesson)) {
    if (question.code) shown.push({ place: `${question.anchor} shown handler`, snippet: question.code });
    for (const option of question.options)
      shown.push({ place: `${question.anchor} option ${option.id}`, snippet: option.code });
  }
  // A handler shown in two places (a question's own handler is also its right option) is linted once.
  return shown.filter(
    (entry, index) => shown.findIndex((other) => other.snippet.handler === entry.snippet.handler) === index,
  );
}

const linter = new Linter({ configType: 'flat' });
const config: Linter.Config[] = [
  ...(plugin.configs.recommended as Linter.Config[]),
  { files: ['**/*.ts'], languageOptions: { parser: typeScriptParser } },
];

function reportedRules(source: string): { rules: string[]; fatal: string[] } {
  const messages = linter.verify(source, config, { filename: 'lesson-snippet.ts' });
  return {
    rules: [
      ...new Set(
        messages.flatMap((message) =>
          message.ruleId?.startsWith('idempotency/') ? [message.ruleId.slice('idempotency/'.length)] : [],
        ),
      ),
    ].sort(),
    fatal: messages.filter((message) => message.fatal).map((message) => message.message),
  };
}

beforeAll(async () => {
  await whenSqlParserReady();
});

describe('every snippet in the lesson, linted by eslint-plugin-idempotency', () => {
  const snippets = shownSnippets();

  it('covers buggy code for each rule that can see it in a snippet, and correct code besides', () => {
    const declared = new Set(snippets.flatMap((entry) => entry.snippet.flaggedBy));
    expect([...declared].sort()).toEqual([
      'no-amount-effect-key',
      'no-check-then-insert',
      'no-claim-after-effect',
      'no-delivery-id-effect-key',
      'no-in-memory-dedupe',
    ]);
    expect(snippets.some((entry) => entry.snippet.flaggedBy.length === 0)).toBe(true);
  });

  for (const { place, snippet } of snippets) {
    const expected = [...snippet.flaggedBy].sort();
    const title = expected.length > 0 ? `is reported by ${expected.join(' and ')}` : 'is reported by no rule';
    it(`${place} (${snippet.handler}) ${title}`, () => {
      const { rules, fatal } = reportedRules(snippet.source);
      expect(fatal, 'the snippet must parse as TypeScript').toEqual([]);
      expect(rules).toEqual(expected);
    });
  }
});
