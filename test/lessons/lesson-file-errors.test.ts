import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { idempotentConsumers } from '../../lessons/idempotent-consumers/index.js';
import { assembleLesson } from '../../lessons/src/build/assemble.js';
import { HandlerSourceReader } from '../../lessons/src/build/extract-code.js';
import { loadLessonText } from '../../lessons/src/build/load-lesson-text.js';
import { LessonFileError } from '../../lessons/src/json-reader.js';
import { lessonFolder, packageRoot } from '../../lessons/src/node/paths.js';

const original = JSON.parse(readFileSync(join(lessonFolder('idempotent-consumers'), 'lesson.json'), 'utf8')) as Record<
  string,
  unknown
>;
const folders: string[] = [];

/** A lesson folder in a temporary directory holding `content` as its lesson.json. */
function lessonFolderWith(content: string | undefined): string {
  const root = mkdtempSync(join(tmpdir(), 'lesson-file-'));
  folders.push(root);
  const folder = join(root, 'broken-lesson');
  mkdirSync(folder);
  if (content !== undefined) writeFileSync(join(folder, 'lesson.json'), content);
  return folder;
}

async function errorFor(content: string | undefined): Promise<LessonFileError> {
  const folder = lessonFolderWith(content);
  try {
    await loadLessonText(folder, join(folder, '..'));
  } catch (error) {
    if (error instanceof LessonFileError) return error;
    throw error;
  }
  throw new Error('the lesson file was accepted');
}

// The lesson file as JSON, edited freely by each case.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- reason: a test reaches into any part of the file
type Lesson = Record<string, any>;

function edited(edit: (lesson: Lesson) => void): string {
  const copy = structuredClone(original) as Lesson;
  edit(copy);
  return JSON.stringify(copy);
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('a broken lesson.json', () => {
  it('is reported as missing', async () => {
    expect((await errorFor(undefined)).message).toBe('broken-lesson/lesson.json: is missing');
  });

  it('is reported as invalid JSON', async () => {
    expect((await errorFor('{ "id": ')).message).toMatch(/^broken-lesson\/lesson\.json: is not valid JSON: /);
  });

  it('names a missing field', async () => {
    const error = await errorFor(edited((lesson) => delete lesson['questions'][2]['prompt']));
    expect(error.message).toBe('broken-lesson/lesson.json: questions[2].prompt: is missing');
    expect(error.file).toBe('broken-lesson/lesson.json');
    expect(error.field).toBe('questions[2].prompt');
  });

  it('names a field of the wrong type', async () => {
    const error = await errorFor(edited((lesson) => (lesson['steps'][3] = 42)));
    expect(error.message).toBe('broken-lesson/lesson.json: steps[3]: expected text, found number 42');
  });

  it('names an answer that is not one of the options', async () => {
    const error = await errorFor(edited((lesson) => (lesson['predict']['answer'] = 'e')));
    expect(error.message).toBe('broken-lesson/lesson.json: predict.answer: expected one of a, b, c, found "e"');
  });

  it('names a malformed date and a malformed source hash', async () => {
    expect((await errorFor(edited((lesson) => (lesson['checkedOn'] = 'last autumn')))).message).toBe(
      'broken-lesson/lesson.json: checkedOn: expected a date as YYYY-MM-DD, found "last autumn"',
    );
    expect((await errorFor(edited((lesson) => (lesson['sources'][1]['sha256'] = 'abc')))).field).toBe(
      'sources[1].sha256',
    );
  });

  it('names an analogy row without two cells', async () => {
    const error = await errorFor(edited((lesson) => lesson['analogy']['mapping'][2].pop()));
    expect(error.message).toBe(
      'broken-lesson/lesson.json: analogy.mapping[2]: expected two cells (analogy, consumer), found 1',
    );
  });
});

describe('text and code that disagree', () => {
  async function assemblyError(edit: (lesson: Lesson) => void): Promise<string> {
    const folder = lessonFolderWith(edited(edit));
    const { text, file } = await loadLessonText(folder, join(folder, '..'));
    try {
      await assembleLesson({
        text,
        runnable: idempotentConsumers,
        files: { folder: lessonFolder('idempotent-consumers'), textFile: file },
        code: new HandlerSourceReader(join(packageRoot, '..')),
        runHandler: async () => ({ ok: true, outcome: { inbox: 1 }, text: 'inbox=1', transcript: [] }),
        ruleLinks: {},
        recordedRaces: null,
      });
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    throw new Error('the lesson was assembled');
  }

  it('reports a question the code does not run', async () => {
    expect(await assemblyError((lesson) => (lesson['questions'][3]['anchor'] = 'q9'))).toBe(
      'broken-lesson/lesson.json: question q9: has no runnable question in questions.ts',
    );
  });

  it('reports options that differ from the ones the code runs', async () => {
    expect(await assemblyError((lesson) => delete lesson['questions'][0]['options']['d'])).toBe(
      'broken-lesson/lesson.json: questions[0].options: has options a, b, c but questions.ts runs a, b, c, d',
    );
  });

  it('reports an example with a caption missing for one of its handlers', async () => {
    expect(await assemblyError((lesson) => lesson['examples'][4]['captions'].pop())).toBe(
      'broken-lesson/lesson.json: examples[4].captions: has 2 captions but examples.ts shows 3 handlers',
    );
  });

  it('reports an explanation naming a figure its run does not provide', async () => {
    // The stand-in run of this test reads back only inbox=1 and leaves no tables.
    expect(await assemblyError(() => undefined)).toBe(
      'broken-lesson/lesson.json: predict.options.a: names {effects}, which its run does not provide (it provides {inbox})',
    );
  });

  it('reports a lesson id that is not the code’s', async () => {
    expect(await assemblyError((lesson) => (lesson['id'] = 'other-lesson'))).toBe(
      'broken-lesson/lesson.json: id: is "other-lesson" but the lesson\'s code is "idempotent-consumers"',
    );
  });

  it('reports a handler that its module does not define, naming the file', () => {
    const reader = new HandlerSourceReader(join(packageRoot, '..'));
    expect(() =>
      reader.extract(join(lessonFolder('idempotent-consumers'), 'handlers', 'q1.ts'), 'handleNothing'),
    ).toThrow(
      'lessons/idempotent-consumers/handlers/q1.ts: handleNothing: no top-level function or class with this name',
    );
  });
});
