import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { lessonLinks } from 'eslint-plugin-idempotency';
import { describe, expect, it } from 'vitest';

import { idempotentConsumers } from '../../lessons/idempotent-consumers/index.js';
import { assembleLesson } from '../../lessons/src/build/assemble.js';
import { HandlerSourceReader } from '../../lessons/src/build/extract-code.js';
import { loadLessonText } from '../../lessons/src/build/load-lesson-text.js';
import { readRecordedRaces } from '../../lessons/src/build/recorded-races.js';
import { renderMarkdown } from '../../lessons/src/build/render-markdown.js';
import { allQuestions, lessonAnchors, parseBuiltLesson } from '../../lessons/src/built-lesson.js';
import { idempotentConsumersLesson as lesson } from '../../lessons/src/lesson-data.js';
import type { BuiltLesson, CodeSnippet } from '../../lessons/src/model.js';
import { builtLessonFile, lessonFolder, packageRoot } from '../../lessons/src/node/paths.js';
import { pgliteFromImage } from '../../lessons/src/node/pglite-node.js';
import { LessonRunner } from '../../lessons/src/runner.js';
import type { RunnableLesson } from '../../lessons/src/scenario.js';

const repositoryRoot = dirname(packageRoot);

/** Builds the lesson from its files as `npm run build` does, running `runnable` on PGlite. */
async function buildFromFiles(runnable: RunnableLesson): Promise<BuiltLesson> {
  const runner = await LessonRunner.open(runnable, pgliteFromImage());
  try {
    const folder = lessonFolder(lesson.id);
    const { text, file } = await loadLessonText(folder, repositoryRoot);
    return await assembleLesson({
      text,
      runnable,
      files: { folder, textFile: file },
      code: new HandlerSourceReader(repositoryRoot),
      runHandler: (anchor, which) => runner.runHandler(anchor, which),
      ruleLinks: lessonLinks,
      recordedRaces: await readRecordedRaces(folder, repositoryRoot),
    });
  } finally {
    await runner.close();
  }
}

function everySnippet(): CodeSnippet[] {
  return [
    ...lesson.examples.flatMap((example) => example.code),
    ...allQuestions(lesson).flatMap((question) => [
      ...(question.code ? [question.code] : []),
      ...question.options.map((option) => option.code),
    ]),
  ];
}

describe('the places other tools link to', () => {
  it('are exactly the agreed anchors, in reading order', () => {
    expect(lesson.id).toBe('idempotent-consumers');
    expect(lessonAnchors(lesson)).toEqual([
      'predict',
      'thirty-seconds',
      ...Array.from({ length: 10 }, (_, index) => `step-${index + 1}`),
      'analogy',
      'example-4-1',
      'example-4-2',
      'example-4-3',
      'example-4-4',
      'example-4-5',
      'example-4-6',
      'example-4-7',
      'example-4-8',
      'example-4-9',
      'example-4-10',
      'example-4-11',
      'example-4-12',
      'example-4-13',
      'example-4-14',
      'example-4-15',
      'q1',
      'q2',
      'q3',
      'q4',
      'q5',
      'q6',
      'q7',
      'tip-1',
      'tip-2',
      'sources',
      'related',
    ]);
  });

  it("include every anchor eslint-plugin-idempotency's rules point at, each naming its rules", () => {
    const expected = new Map<string, string[]>();
    for (const [rule, link] of Object.entries(lessonLinks)) {
      expect(link.lesson).toBe(lesson.id);
      for (const anchor of [link.anchor, ...link.seeAlso])
        expected.set(anchor, [...(expected.get(anchor) ?? []), rule]);
    }
    const actual = new Map(
      lesson.places.filter((place) => place.rules.length > 0).map((place) => [place.anchor, [...place.rules]]),
    );
    expect(actual).toEqual(expected);
    expect(actual.get('q1')).toEqual(['no-delivery-id-effect-key']);
    expect(actual.get('example-4-1')).toEqual(['no-check-then-insert']);
  });
});

describe('the built lesson', () => {
  it('is what building the lesson from its files gives today (no stale build)', async () => {
    const rebuilt = await buildFromFiles(idempotentConsumers);
    expect(JSON.parse(readFileSync(builtLessonFile(lesson.id), 'utf8'))).toEqual(JSON.parse(JSON.stringify(rebuilt)));
  });

  it('shows each handler as its module has it, helpers first', () => {
    const reader = new HandlerSourceReader(repositoryRoot);
    for (const snippet of everySnippet()) {
      const [moduleId, name] = snippet.handler.split('#') as [string, string];
      const file = join(lessonFolder(lesson.id), 'handlers', `${moduleId}.ts`);
      const moduleText = readFileSync(file, 'utf8');
      expect(snippet.source).toBe(reader.extract(file, name).source);
      // The handler (a function, or a worker class) comes last and stands verbatim in the module that runs it.
      const start = Math.max(
        snippet.source.lastIndexOf(`async function ${name}(`),
        snippet.source.lastIndexOf(`class ${name} {`),
      );
      const handlerText = snippet.source.slice(start);
      expect(handlerText).toMatch(/^(async function|class) /);
      expect(moduleText).toContain(`export ${handlerText}\n`);
    }
  });

  it('shows the code the issue quotes: a delivery-id key in question 1 and an amount key in question 4', () => {
    const q1 = lesson.questions.find((question) => question.anchor === 'q1')!;
    const q4 = lesson.questions.find((question) => question.anchor === 'q4')!;
    expect(q1.code?.source).toContain('const effectId = message.id;');
    expect(q1.code?.source).toContain(
      "db.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [effectId, message.cents])",
    );
    expect(q4.code?.source).toContain("const effectId = 'amount-' + message.cents;");
  });

  it("labels code options with the declaration from that option's own handler", () => {
    for (const question of allQuestions(lesson)) {
      for (const option of question.options.filter(
        (candidate) => candidate.labelKind === 'code' && !candidate.label.includes('\n'),
      )) {
        expect(option.label).toMatch(/^const effectId = /);
        expect(option.code.source).toContain(option.label);
      }
      const labels = question.options.map((option) => option.label);
      expect(new Set(labels).size, `${question.anchor} has two options with the same label`).toBe(labels.length);
    }
  });

  it('cites the sources with the dates their notes were read against, and no hash it did not compute', () => {
    expect(lesson.checkedOn).toBe('2026-12-02');
    expect(lesson.sources.map((source) => [source.id, source.fetched, source.sha256])).toEqual([
      ['S1', '2026-12-02', null],
      ['S2', '2026-12-02', null],
      ['S3', '2026-09-30', null],
      ['BullMQ', '2026-09-30', null],
    ]);
    expect(lesson.steps).toHaveLength(10);
    expect(lesson.analogy.mapping).toHaveLength(5);
  });
});

describe("an option's explanation", () => {
  const lessonText = JSON.parse(readFileSync(join(lessonFolder(lesson.id), 'lesson.json'), 'utf8')) as {
    predict: { options: Record<string, string> };
    questions: { anchor: string; options: Record<string, string> }[];
  };

  it('types no figure or id of its own: every digit comes from a placeholder the run fills', () => {
    for (const [anchor, options] of [
      ['predict', lessonText.predict.options] as const,
      ...lessonText.questions.map((question) => [question.anchor, question.options] as const),
    ]) {
      for (const [id, markdown] of Object.entries(options)) {
        const ownWords = markdown.replace(/\{[a-z_.]+\}/g, '').replace(/\]\(#[a-z0-9-]+\)/g, ']');
        expect(ownWords.replace(/\[[^\]]*\]/g, ''), `${anchor} option ${id}`).not.toMatch(/\d/);
      }
    }
  });

  it('changes when the handler behind it changes, because it is filled from that run', async () => {
    const q3 = idempotentConsumers.questions.find((question) => question.anchor === 'q3')!;
    const altered = {
      ...idempotentConsumers,
      questions: idempotentConsumers.questions.map((question) =>
        question === q3
          ? { ...q3, options: { ...q3.options, d: { ...q3.options['d'], run: q3.options['a'].run } } }
          : question,
      ),
    };
    const rebuilt = await buildFromFiles(altered);
    const explanation = (built: BuiltLesson) =>
      built.questions.find((question) => question.anchor === 'q3')!.options.find((option) => option.id === 'd')!
        .explanationHtml;
    expect(explanation(lesson)).toContain('<code>worker-A</code>, <code>worker-B</code>');
    expect(explanation(lesson)).toContain('800 cents');
    expect(explanation(rebuilt)).toContain(
      '<code>credit-note-31</code>, <code>credit-note-32</code>, <code>credit-note-33</code>',
    );
    expect(explanation(rebuilt)).toContain('1100 cents');
  });
});

describe("a scenario's text", () => {
  const lessonText = JSON.parse(readFileSync(join(lessonFolder(lesson.id), 'lesson.json'), 'utf8')) as {
    predict: { scenario: string[]; prompt: string };
    questions: { anchor: string; scenario: string[]; prompt: string }[];
    examples: { anchor: string; body: string[] }[];
  };

  it('types no id or figure of its own: every digit comes from a delivery it names', () => {
    const texts = [
      ['predict', [...lessonText.predict.scenario, lessonText.predict.prompt]] as const,
      ...lessonText.questions.map((question) => [question.anchor, [...question.scenario, question.prompt]] as const),
      ...lessonText.examples.map((example) => [example.anchor, example.body] as const),
    ];
    for (const [anchor, lines] of texts) {
      const ownWords = lines
        .join('\n')
        .replace(/\{[a-z0-9]+\.[a-zA-Z]+\}/g, '')
        .replace(/\[\[S\d+\]\]\(#sources\)/g, '')
        .replace(/\[[^\]]*\]\(#[a-z0-9-]+\)/g, '')
        .replace(/\b(?:step|example|question) \d+(?:\.\d+)?/gi, '')
        .replace(/SQLSTATE `\d+`/g, '');
      expect(ownWords, anchor).not.toMatch(/\d/);
    }
  });

  it('changes when a delivery changes, because it is filled from the deliveries', async () => {
    const q1 = idempotentConsumers.questions.find((question) => question.anchor === 'q1')!;
    const example46 = idempotentConsumers.examples.find((example) => example.anchor === 'example-4-6')!;
    const order = example46.messages['order'] as unknown as { id: string; cents: number };
    const altered: RunnableLesson = {
      ...idempotentConsumers,
      questions: idempotentConsumers.questions.map((question) =>
        question === q1
          ? {
              ...q1,
              deliveries: q1.deliveries.map((delivery, index) =>
                index === 2 ? { ...delivery, message: { ...delivery.message, cents: 350 } } : delivery,
              ),
            }
          : question,
      ),
      examples: idempotentConsumers.examples.map((example) =>
        example === example46 ? { ...example46, messages: { order: { ...order, cents: 175 } } } : example,
      ),
    };
    const rebuilt = await buildFromFiles(altered);
    const scenario = (built: BuiltLesson) => built.questions.find((question) => question.anchor === 'q1')!.scenarioHtml;
    const body = (built: BuiltLesson) => built.examples.find((example) => example.anchor === 'example-4-6')!.html;
    expect(scenario(lesson)).toContain('for 300 cents');
    expect(scenario(rebuilt)).toContain('for 350 cents');
    expect(scenario(rebuilt)).not.toContain('300');
    expect(body(lesson)).toContain('of 150 cents');
    expect(body(rebuilt)).toContain('of 175 cents');
    expect(body(rebuilt)).not.toContain('150');
    // The explanation beside it moves with the same run: option d of question 1 now adds up the new amount.
    const explanation = (built: BuiltLesson) =>
      built.questions.find((question) => question.anchor === 'q1')!.options.find((option) => option.id === 'c')!
        .explanationHtml;
    expect(explanation(rebuilt)).toContain('850 cents');
  });

  it('shows the 4.6 run the text describes: the example delivers the message its text names', async () => {
    const example46 = idempotentConsumers.examples.find((example) => example.anchor === 'example-4-6')!;
    const order = example46.messages['order'] as unknown as { id: string; cents: number };
    const dearer = { ...order, cents: 175 };
    const runner = await LessonRunner.open(
      { ...idempotentConsumers, examples: [{ ...example46, messages: { order: dearer } }] },
      pgliteFromImage(),
    );
    try {
      const result = await runner.runExample('example-4-6');
      expect(result.ok).toBe(true);
      expect(JSON.stringify(result.transcript)).toContain('175');
      expect(JSON.stringify(result.transcript)).not.toContain('150');
    } finally {
      await runner.close();
    }
  });
});

describe('lesson text rendering', () => {
  it('escapes raw HTML and refuses script links', () => {
    const html = renderMarkdown('Hi <script>alert(1)</script> [x](javascript:alert(1)) [S1](#sources)');
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('<a href="#sources">S1</a>');
  });

  it('left no raw markup in the built lesson', () => {
    const text = readFileSync(builtLessonFile(lesson.id), 'utf8');
    expect(text).not.toMatch(/<script|<iframe|javascript:|onerror=/i);
  });
});

describe('parseBuiltLesson', () => {
  const built = JSON.parse(readFileSync(builtLessonFile(lesson.id), 'utf8')) as Record<string, unknown>;

  it('accepts the built file', () => {
    expect(parseBuiltLesson(built, 'lesson.json').id).toBe('idempotent-consumers');
  });

  it('names the field that is wrong', () => {
    expect(() => parseBuiltLesson({ ...built, format: 2 }, 'x.json')).toThrow(
      'x.json: format: is 2; this package reads format 3, so rebuild the lesson',
    );
    const exercises = structuredClone(built['exercises']) as { starter?: string }[];
    delete exercises[2]!.starter;
    expect(() => parseBuiltLesson({ ...built, exercises }, 'x.json')).toThrow(
      'x.json: exercises[2].starter: is missing',
    );
    const questions = structuredClone(built['questions']) as { answer: string }[];
    questions[1].answer = 'z';
    expect(() => parseBuiltLesson({ ...built, questions }, 'x.json')).toThrow(
      'x.json: questions[1].answer: expected one of a, b, c, d, found "z"',
    );
    const { steps: _steps, ...withoutSteps } = built;
    expect(() => parseBuiltLesson(withoutSteps, 'x.json')).toThrow('x.json: steps: is missing');
  });
});
