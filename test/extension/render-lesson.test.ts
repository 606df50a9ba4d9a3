import { idempotentConsumers, idempotentConsumersLesson, lessonAnchors } from '@idempotency/lessons';
import { describe, expect, it } from 'vitest';

import { renderLesson } from '../../extension/src/lesson/render-lesson.js';

describe('the lesson page rendered on the host', () => {
  const html = renderLesson(idempotentConsumersLesson);

  it('has an element for every place a link can open', () => {
    const anchors = lessonAnchors(idempotentConsumersLesson);
    expect(anchors.length).toBeGreaterThan(20);
    for (const anchor of anchors) expect(html, anchor).toContain(`id="${anchor}"`);
  });

  it('gives every question its options, a run button and a result area', () => {
    for (const question of [idempotentConsumersLesson.predict, ...idempotentConsumersLesson.questions]) {
      for (const option of question.options)
        expect(html).toContain(`name="choice-${question.anchor}" value="${option.id}"`);
      expect(html).toContain(`data-run-question="${question.anchor}" disabled`);
      expect(html).toContain(`data-result-for="${question.anchor}"`);
    }
  });

  it('gives every example a place for its transcript and a SQL console that waits for the database', () => {
    for (const example of idempotentConsumersLesson.examples) {
      expect(html).toContain(`<div class="evidence" data-evidence-for="${example.anchor}"></div>`);
      expect(html).toContain(`<form data-console-for="${example.anchor}">`);
      expect(html).toContain(`data-console-output-for="${example.anchor}"`);
    }
    expect(
      html.match(/<button type="submit" disabled title="The practice database is still starting">Run SQL/g),
    ).toHaveLength(idempotentConsumersLesson.examples.length);
  });

  it('shows the races recorded on a real server under their examples, dated, with the server, as not run in the panel', () => {
    const recorded = idempotentConsumersLesson.recordedRaces!;
    expect(recorded.engine).toMatch(/^PostgreSQL \d+/);
    const example41 = html.slice(html.indexOf('id="example-4-1"'), html.indexOf('id="example-4-2"'));
    expect(example41).toContain(`recorded on ${recorded.engine} on ${recorded.recordedOn}`);
    expect(example41).toContain('they were not run in this panel');
    expect(example41).toContain('<code>4.1 race, unique claim: A=fresh, B=waited/conflict; inbox=1</code>');
    expect(example41).toMatch(/\| waiting: pg_blocking_pids\(\d+\) names worker A/);
    expect(html.slice(html.indexOf('id="example-4-2"'), html.indexOf('id="example-4-4"'))).not.toContain(
      'recorded-races',
    );
  });

  it('ends with the related topics and, for each rule, the sections it opens', () => {
    const related = html.slice(html.indexOf('<section id="related">'));
    expect(idempotentConsumersLesson.related.topics.map((topic) => topic.title)).toEqual([
      'Jobs in a queue',
      "The outbox, on the producer's side",
      'Recording after the effect',
      'Deduplicating in memory',
      'A claim without a unique key',
      'The rules that point here',
    ]);
    for (const anchor of ['example-4-6', 'q5', 'example-4-7', 'q6', 'example-4-8', 'q7'])
      expect(related).toContain(`href="#${anchor}"`);
    expect(related).toContain('href="https://docs.bullmq.io/patterns/idempotent-jobs"');
    expect(related).toContain(
      `<li><code>no-check-then-insert</code>: <a href="#example-4-1">4.1 The row that comes back decides</a>, <a href="#tip-1">Pro tip 1</a>, exercise <a href="#exercise-check-then-insert">Let the database decide who was first</a></li>`,
    );
  });

  it('gives every exercise its task, the schedules that check it, its starting handler to edit and buttons that wait for the database', () => {
    const exercises = idempotentConsumersLesson.exercises;
    expect(exercises.map((exercise) => exercise.id)).toEqual(idempotentConsumers.exercises.map((each) => each.id));
    for (const exercise of exercises) {
      const at = html.indexOf(`<article id="${exercise.anchor}" class="exercise" data-exercise="${exercise.id}">`);
      expect(at, exercise.anchor).toBeGreaterThan(html.indexOf('id="q7"'));
      const article = html.slice(at, html.indexOf('</article>', at));
      expect(article).toContain(`<p>${exercise.task}</p>`);
      for (const schedule of exercise.schedules) expect(article).toContain(`<strong>${schedule.name}</strong>`);
      const textarea = /<textarea id="exercise-text-[a-z-]+" rows="\d+" spellcheck="false">([^<]*)<\/textarea>/.exec(
        article,
      );
      expect(textarea?.[1]?.replace(/&gt;/g, '>').replace(/&lt;/g, '<').replace(/&amp;/g, '&')).toBe(exercise.starter);
      expect(article).toContain(
        '<button type="submit" disabled title="The practice database is still starting">Check on PostgreSQL</button>',
      );
      expect(article).toContain(
        `<button type="button" data-exercise-model="${exercise.id}" disabled title="Check a handler of your own first">`,
      );
      // The model solution is offered by the page's script after a try, not written into the page.
      expect(article).toContain(`<div class="exercise-model" data-exercise-model-for="${exercise.id}" hidden></div>`);
    }
  });

  it('links each place a rule opens to the exercise for that rule', () => {
    for (const place of idempotentConsumersLesson.places.filter(
      (each) => each.rules.length > 0 && /^(q|example-)/.test(each.anchor),
    )) {
      const at = html.indexOf(`id="${place.anchor}"`);
      const article = html.slice(at, html.indexOf('</article>', at));
      for (const rule of place.rules) {
        const exercise = idempotentConsumersLesson.exercises.find((each) => each.rule === rule)!;
        expect(article, `${place.anchor} → ${rule}`).toContain(`<a href="#${exercise.anchor}">`);
      }
    }
  });

  it('escapes code and plain text, so handler source shows as written', () => {
    const q1 = idempotentConsumersLesson.questions.find((question) => question.anchor === 'q1')!;
    expect(q1.code?.source).toContain('Promise<boolean>');
    expect(html).toContain('Promise&lt;boolean&gt;');
    expect(html).not.toContain('Promise<boolean>');
  });
});
