import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { idempotentConsumers } from '../../lessons/idempotent-consumers/index.js';
import { builtLessonFile, lessonFolder, packageRoot } from '../../lessons/src/node/paths.js';

/**
 * The lesson's facts come from a source lesson; its wording must not. Any run of six words that
 * the lesson shares with a file of `../shared/seeds/` (beside the repository, as CI places it) is
 * reported with the place it occurs. Words are compared without case or punctuation, so a copied
 * sentence cannot hide behind a changed comma or a pair of backticks. SQL is not prose (there is
 * one way to write `ON CONFLICT DO NOTHING`), nor is a state such as `inbox=3`: each ends a run.
 */

const runLength = 6;

/** Inline SQL (a code span holding an SQL keyword) and `name=value` states, which runs do not cross. */
const notProse =
  /`[^`]*\b(?:INSERT|SELECT|UPDATE|DELETE|CREATE|ON CONFLICT|WHERE)\b[^`]*`|<code>[^<]*\b(?:INSERT|SELECT|UPDATE|DELETE|CREATE|ON CONFLICT|WHERE)\b[^<]*<\/code>|\b[a-z_]+=[^\s,;]+/g;
const repositoryRoot = dirname(packageRoot);
const seedsFolder = join(repositoryRoot, '..', 'shared', 'seeds');

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '');
}

function runsOf(text: string): Set<string> {
  const runs = new Set<string>();
  for (const stretch of text.split(notProse)) {
    const all = words(stretch.replace(/<[^>]+>/g, ' '));
    for (let start = 0; start + runLength <= all.length; start += 1)
      runs.add(all.slice(start, start + runLength).join(' '));
  }
  return runs;
}

/** Every string of a JSON value with the path it sits at; code is left out, since it is identifiers. */
function prose(value: unknown, path: string, skip: ReadonlySet<string>): { path: string; text: string }[] {
  if (typeof value === 'string') return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => prose(item, `${path}[${index}]`, skip));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) =>
      skip.has(key) ? [] : prose(item, path ? `${path}.${key}` : key, skip),
    );
  }
  return [];
}

function sharedRuns(texts: readonly { path: string; text: string }[], seedRuns: ReadonlySet<string>): string[] {
  return texts.flatMap(({ path, text }) =>
    [...runsOf(text)].filter((run) => seedRuns.has(run)).map((run) => `${path}: "${run}"`),
  );
}

function seedRuns(): Set<string> {
  if (!existsSync(seedsFolder)) {
    throw new Error(
      `the source lessons are expected in ${seedsFolder} (a copy of shared/ beside the repository); without them this test cannot check anything`,
    );
  }
  const runs = new Set<string>();
  const files = readdirSync(seedsFolder).filter((name) => name.endsWith('.txt'));
  if (files.length === 0) throw new Error(`${seedsFolder} holds no .txt source lesson`);
  for (const name of files) for (const run of runsOf(readFileSync(join(seedsFolder, name), 'utf8'))) runs.add(run);
  return runs;
}

describe('the lesson is written in its own words', () => {
  const seeds = seedRuns();
  const lessonId = 'idempotent-consumers';

  it('shares no run of six words with the source lesson, in its text file', () => {
    const text = JSON.parse(readFileSync(join(lessonFolder(lessonId), 'lesson.json'), 'utf8')) as unknown;
    expect(sharedRuns(prose(text, '', new Set(['url', 'sha256'])), seeds)).toEqual([]);
  });

  it('nor in the built lesson, which adds the notes and criteria written beside the handlers (code and recorded SQL aside)', () => {
    const built = JSON.parse(readFileSync(builtLessonFile(lessonId), 'utf8')) as unknown;
    // `starter` is an exercise's handler: its tables and SQL, code as `source` is.
    const code = new Set(['source', 'label', 'url', 'sha256', 'recordedRaces', 'starter']);
    expect(sharedRuns(prose(built, '', code), seeds)).toEqual([]);
  });

  it('nor in the exercises, which are written beside their handlers', () => {
    const texts = idempotentConsumers.exercises.flatMap((exercise) => [
      { path: `${exercise.id}.title`, text: exercise.title },
      { path: `${exercise.id}.task`, text: exercise.task },
      ...Object.entries(exercise.hints).map(([schedule, hint]) => ({
        path: `${exercise.id}.hints.${schedule}`,
        text: hint ?? '',
      })),
    ]);
    expect(texts.length).toBeGreaterThan(12);
    expect(sharedRuns(texts, seeds)).toEqual([]);
  });

  it('nor in the lessons README', () => {
    expect(
      sharedRuns([{ path: 'lessons/README.md', text: readFileSync(join(packageRoot, 'README.md'), 'utf8') }], seeds),
    ).toEqual([]);
  });

  it('would catch a copied sentence despite changed case and punctuation', () => {
    const copied = 'A Consumer separates delivery-identity, from durable business identity!';
    expect(sharedRuns([{ path: 'probe', text: copied }], seeds)).toEqual([
      'probe: "a consumer separates delivery identity from"',
      'probe: "consumer separates delivery identity from durable"',
      'probe: "separates delivery identity from durable business"',
      'probe: "delivery identity from durable business identity"',
    ]);
    // Six words are enough: the seed's setup of question 4, reworded only at its edges, is still caught.
    expect(
      sharedRuns([{ path: 'probe', text: 'Here one sale is replayed through another worker, sadly.' }], seeds),
    ).toEqual(['probe: "one sale is replayed through another"', 'probe: "sale is replayed through another worker"']);
    // SQL and states are facts, not wording: they end a run rather than count in one.
    expect(
      sharedRuns(
        [
          {
            path: 'probe',
            text: 'It runs `INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING message_id` and leaves inbox=3, effects=1, sum=400.',
          },
        ],
        seeds,
      ),
    ).toEqual([]);
    expect(
      sharedRuns(
        [{ path: 'probe', text: 'A consumer keeps delivery identity apart from durable business identity.' }],
        seeds,
      ),
    ).toEqual([]);
  });
});
