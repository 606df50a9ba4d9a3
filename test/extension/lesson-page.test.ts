import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { idempotentConsumersLesson } from '@idempotency/lessons';
import { lessonLinks } from 'eslint-plugin-idempotency';
import { describe, expect, it } from 'vitest';

import { exerciseAnchor } from '../../extension/src/lesson/lesson-content.js';

import { lessonContentSecurityPolicy, lessonPageHtml } from '../../extension/src/lesson/lesson-html.js';
import { parseLessonTarget } from '../../extension/src/lesson/lesson-target.js';

const source = 'https://file+.vscode-resource.vscode-cdn.net';

describe('the lesson page', () => {
  it('allows nothing remote: scripts by nonce and WebAssembly, fetches only from the extension', () => {
    expect(lessonContentSecurityPolicy(source, 'abc')).toBe(
      `default-src 'none'; script-src 'nonce-abc' 'wasm-unsafe-eval'; style-src ${source}; img-src ${source} data:; font-src ${source}; connect-src ${source}`,
    );
  });

  it('carries the lesson text in the page and its start-up data as inert JSON', () => {
    const html = lessonPageHtml({
      cspSource: source,
      nonce: 'n1',
      scriptUri: `${source}/lesson.js`,
      styleUri: `${source}/lesson.css`,
      title: 'Idempotent consumers',
      lessonHtml: '<h1 id="title">Idempotent consumers</h1>',
      bootstrap: { anchor: 'q1', note: '</script><script>alert(1)</script>' },
    });
    expect(html).toContain('<h1 id="title">Idempotent consumers</h1>');
    expect(html).toContain(`<script nonce="n1" type="module" src="${source}/lesson.js"></script>`);
    expect(html).not.toContain('</script><script>alert(1)');
    const json = /<script type="application\/json" id="bootstrap">(.*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(json!)).toEqual({ anchor: 'q1', note: '</script><script>alert(1)</script>' });
  });
});

describe('lesson targets', () => {
  it('reads lesson and anchor, and refuses anything but plain ids', () => {
    expect(parseLessonTarget('idempotent-consumers#q1')).toEqual({ lesson: 'idempotent-consumers', anchor: 'q1' });
    expect(parseLessonTarget('idempotent-consumers')).toEqual({ lesson: 'idempotent-consumers' });
    expect(parseLessonTarget('idempotent-consumers#"><img')).toBeUndefined();
    expect(parseLessonTarget('a#b#c')).toBeUndefined();
  });
});

describe('the exercise a finding can open', () => {
  it("is the lesson exercise for the finding's rule, for every rule; nothing when the lesson cannot be read", () => {
    const root = mkdtempSync(path.join(tmpdir(), 'lessons-'));
    try {
      writeFileSync(path.join(root, 'idempotent-consumers.json'), JSON.stringify(idempotentConsumersLesson));
      writeFileSync(path.join(root, 'broken.json'), '{');
      for (const rule of Object.keys(lessonLinks)) {
        const anchor = exerciseAnchor(root, 'idempotent-consumers', rule);
        expect(anchor, rule).toMatch(/^exercise-[a-z-]+$/);
        expect(idempotentConsumersLesson.exercises.find((exercise) => exercise.anchor === anchor)?.rule).toBe(rule);
      }
      expect(exerciseAnchor(root, 'idempotent-consumers', 'no-such-rule')).toBeUndefined();
      expect(exerciseAnchor(root, 'broken', 'no-check-then-insert')).toBeUndefined();
      expect(exerciseAnchor(root, '../idempotent-consumers', 'no-check-then-insert')).toBeUndefined();
      expect(
        exerciseAnchor(path.join(root, 'missing'), 'idempotent-consumers', 'no-check-then-insert'),
      ).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
