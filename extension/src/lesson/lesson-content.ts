import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import type { BuiltLesson } from '@idempotency/lessons';

import { renderLesson } from './render-lesson.js';

export interface LessonPage {
  title: string;
  /** The lesson as HTML (see renderLesson). */
  html: string;
  /** Files under dist/webview that the page's script loads (the database's files), by role. */
  assets: Record<string, string>;
  /** False when the lesson is missing from the package: the page then says so. */
  available: boolean;
}

/** The files the build copies beside the page (scripts/lesson-assets.mjs), by the role PGlite gives them. */
const databaseAssets = {
  pgliteWasm: 'pglite.wasm.gz',
  initdbWasm: 'initdb.wasm.gz',
  fsBundle: 'pglite.data.gz',
  dataDirImage: 'pglite-image.tar.gz',
};

/**
 * Reads a built lesson from dist/lessons and renders it. Lesson ids come from links and saved
 * panel state, so only plain ids are looked up; a missing or unreadable lesson gives a page that
 * says so in words, never an error dialog.
 */
export function loadLessonPage(lessonsRoot: string, lesson: string): LessonPage {
  const file = path.join(lessonsRoot, `${lesson}.json`);
  if (!/^[a-z0-9-]+$/.test(lesson) || !existsSync(file)) {
    return unavailable(`The lesson “${lesson}” is not part of this version of the extension.`);
  }
  try {
    const built = JSON.parse(readFileSync(file, 'utf8')) as BuiltLesson;
    return { title: built.title, html: renderLesson(built), assets: databaseAssets, available: true };
  } catch (error) {
    return unavailable(
      `The lesson “${lesson}” could not be read (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}

/** The anchor of the lesson's exercise for a rule, if the lesson has one; never throws. */
export function exerciseAnchor(lessonsRoot: string, lesson: string, rule: string): string | undefined {
  if (!/^[a-z0-9-]+$/.test(lesson)) return undefined;
  try {
    const built = JSON.parse(readFileSync(path.join(lessonsRoot, `${lesson}.json`), 'utf8')) as Partial<BuiltLesson>;
    return built.exercises?.find((exercise) => exercise.rule === rule)?.anchor;
  } catch {
    return undefined;
  }
}

function unavailable(message: string): LessonPage {
  const escaped = message.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return { title: 'Lesson', html: `<p class="unavailable">${escaped}</p>`, assets: {}, available: false };
}
