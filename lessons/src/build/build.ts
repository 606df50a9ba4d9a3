import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';

import { PGlite } from '@electric-sql/pglite';

import { idempotentConsumers } from '../../idempotent-consumers/index.js';
import { LessonFileError } from '../json-reader.js';
import { PgliteLessonDatabase } from '../pglite-database.js';
import { LessonRunner } from '../runner.js';
import type { RunnableLesson } from '../scenario.js';
import { builtLessonFile, lessonFolder, packageRoot, pgliteImageFile } from '../node/paths.js';
import { assembleLesson, type RuleLink } from './assemble.js';
import { HandlerSourceReader } from './extract-code.js';
import { loadLessonText } from './load-lesson-text.js';
import { readRecordedRaces } from './recorded-races.js';

/**
 * `npm run build -w lessons`, first half (tsc is the second): prepares the PGlite image, renders
 * each lesson, and labels options with the states PGlite computes for them.
 */

const lessons: readonly RunnableLesson[] = [idempotentConsumers];

async function loadRuleLinks(): Promise<Record<string, RuleLink>> {
  try {
    const plugin = await import('eslint-plugin-idempotency');
    return plugin.lessonLinks;
  } catch (error) {
    throw new Error(
      `eslint-plugin-idempotency could not be loaded (${error instanceof Error ? error.message : String(error)}); ` +
        'build it first with `npm run build -w eslint-plugin`',
      { cause: error },
    );
  }
}

/**
 * Trims a fresh data directory to what the lessons use, since every host downloads and unpacks
 * the image before its database starts (the editor's panel through the webview's resource
 * loader). Lessons run in the `postgres` database and never create one, so the two template
 * databases go; and the write-ahead log still holds everything initdb wrote, so it moves to a
 * new segment, with the old one removed rather than kept for reuse. The image shrinks from
 * about 4.5 MB to about 1 MB.
 */
async function slimDataDirectory(pglite: PGlite): Promise<void> {
  for (const template of ['template0', 'template1']) {
    // One statement per call: DROP DATABASE refuses to run inside a multi-statement batch.
    await pglite.exec(`ALTER DATABASE ${template} IS_TEMPLATE false`);
    await pglite.exec(`DROP DATABASE ${template}`);
  }
  await pglite.exec('SET wal_recycle = off');
  await pglite.query('SELECT pg_switch_wal()');
  await pglite.exec('CHECKPOINT');
}

async function prepareImage(pglite: PGlite): Promise<void> {
  await slimDataDirectory(pglite);
  const image = await pglite.dumpDataDir('gzip');
  await mkdir(dirname(pgliteImageFile), { recursive: true });
  await writeFile(pgliteImageFile, new Uint8Array(await image.arrayBuffer()));
}

async function build(): Promise<void> {
  const started = performance.now();
  const ruleLinks = await loadRuleLinks();
  // One initdb for the whole build; its untouched data directory becomes the image hosts start from.
  const pglite = await PGlite.create();
  await prepareImage(pglite);
  const database = new PgliteLessonDatabase(pglite);
  try {
    for (const runnable of lessons) {
      const folder = lessonFolder(runnable.id);
      const { text, file } = await loadLessonText(folder, dirname(packageRoot));
      const runner = await LessonRunner.open(runnable, () => Promise.resolve(database));
      const lesson = await assembleLesson({
        text,
        runnable,
        files: { folder, textFile: file },
        code: new HandlerSourceReader(dirname(packageRoot)),
        runHandler: (anchor, which) => runner.runHandler(anchor, which),
        ruleLinks,
        recordedRaces: await readRecordedRaces(folder, dirname(packageRoot)),
      });
      const output = builtLessonFile(runnable.id);
      await mkdir(dirname(output), { recursive: true });
      await writeFile(output, `${JSON.stringify(lesson, null, 2)}\n`);
      console.log(`lessons: built ${relative(packageRoot, output)}`);
    }
  } finally {
    await database.close();
  }
  console.log(
    `lessons: prepared ${relative(packageRoot, pgliteImageFile)} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

try {
  await build();
} catch (error) {
  // A broken lesson file is the author's to fix: say which file and field, without a stack trace.
  console.error(
    error instanceof LessonFileError
      ? `lesson error: ${error.message}`
      : `lessons build failed: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exitCode = 1;
}
