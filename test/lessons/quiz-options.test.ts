import { describe, expect, it } from 'vitest';

import { idempotentConsumers } from '../../lessons/idempotent-consumers/index.js';
import { allQuestions } from '../../lessons/src/built-lesson.js';
import { idempotentConsumersLesson as lesson } from '../../lessons/src/lesson-data.js';
import type { BuiltQuestion } from '../../lessons/src/model.js';
import { plainText } from '../../lessons/src/node/plain-text.js';

/**
 * A quiz option must not give its question away. A question that asks which code is right offers
 * that code, so the learner reads handlers rather than picking the one state that says what the
 * question asked for; and nothing a question states can be found again in one of its options.
 */

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Everything a learner reads before answering, as plain text. */
function questionText(question: BuiltQuestion): string {
  return [
    plainText(question.scenarioHtml),
    plainText(question.promptHtml),
    question.observed ?? '',
    ...question.deliveries.map((delivery) =>
      Object.entries(delivery.message)
        .map(([name, value]) => `${name}=${value}`)
        .join(' '),
    ),
    question.code?.source ?? '',
  ].join('\n');
}

/** `name=value` pairs, the way states are written. */
const statePairs = (text: string) => text.match(/\b[a-z_]+=[^\s,;)]+/g) ?? [];

const asksForCode = (anchor: string) =>
  idempotentConsumers.questions.find((question) => question.anchor === anchor)!.answer.kind !== 'same-as-shipped';

describe('every quiz option', () => {
  const questions = allQuestions(lesson);

  it('of a question about code shows code of its own handler, never a final state', () => {
    const aboutCode = questions.filter((question) => asksForCode(question.anchor));
    expect(aboutCode.map((question) => question.anchor)).toEqual(['q3', 'q4', 'q5', 'q6', 'q7']);
    for (const question of aboutCode) {
      for (const option of question.options) {
        const where = `${question.anchor} option ${option.id}`;
        expect(option.labelKind, where).toBe('code');
        expect(option.label, where).not.toMatch(/^(\S+=\S+ ?)+$/);
        const codeLines = option.label.split('\n').filter((line) => !line.trim().startsWith('//'));
        expect(codeLines.length, where).toBeGreaterThan(0);
        expect(option.code.source, where).toContain(codeLines.join('\n'));
      }
    }
  });

  it('of a question about a state is a state, since that is what the question asks for', () => {
    for (const question of questions.filter((candidate) => !asksForCode(candidate.anchor))) {
      for (const option of question.options)
        expect(option.label, `${question.anchor} option ${option.id}`).toMatch(/^([a-z_]+=\S+ ?)+$/);
    }
  });

  it('cannot be matched to its question: no label stands in the question, and no state the question states stands in a label', () => {
    for (const question of questions) {
      const text = questionText(question);
      const pairs = statePairs(text);
      for (const option of question.options) {
        const where = `${question.anchor} option ${option.id}`;
        expect(squeeze(text), where).not.toContain(squeeze(option.label));
        for (const pair of pairs) expect(option.label, `${where} repeats ${pair}`).not.toContain(pair);
      }
    }
  });

  it('is told apart from the others by its label', () => {
    for (const question of questions) {
      const labels = question.options.map((option) => option.label);
      expect(new Set(labels).size, question.anchor).toBe(labels.length);
    }
  });
});
