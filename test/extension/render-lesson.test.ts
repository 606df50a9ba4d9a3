import { idempotentConsumersLesson, lessonAnchors } from '@idempotency/lessons';
import { describe, expect, it } from 'vitest';

import { renderLesson } from '../../extension/src/lesson/render-lesson';

describe('the lesson page rendered on the host', () => {
  const html = renderLesson(idempotentConsumersLesson);

  it('has an element for every place a link can open', () => {
    const anchors = lessonAnchors(idempotentConsumersLesson);
    expect(anchors.length).toBeGreaterThan(20);
    for (const anchor of anchors) expect(html, anchor).toContain(`id="${anchor}"`);
  });

  it('gives every question its options, a run button and a result area', () => {
    for (const question of [idempotentConsumersLesson.predict, ...idempotentConsumersLesson.questions]) {
      for (const option of question.options) expect(html).toContain(`name="choice-${question.anchor}" value="${option.id}"`);
      expect(html).toContain(`data-run-question="${question.anchor}" disabled`);
      expect(html).toContain(`data-result-for="${question.anchor}"`);
    }
  });

  it('escapes code and plain text, so handler source shows as written', () => {
    const q1 = idempotentConsumersLesson.questions.find((question) => question.anchor === 'q1')!;
    expect(q1.code?.source).toContain('Promise<boolean>');
    expect(html).toContain('Promise&lt;boolean&gt;');
    expect(html).not.toContain('Promise<boolean>');
  });
});
