import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

export interface LessonPage {
  title: string;
  /** Safe HTML, rendered by the lessons package at build time. */
  html: string;
  /** Files under dist/webview the page's script loads (the database files), by role. */
  assets: Record<string, string>;
  /** False when the lesson's files are missing from the package: the page says so. */
  available: boolean;
}

const databaseAssets = { pgliteWasm: 'pglite.wasm', initdbWasm: 'initdb.wasm', pgliteData: 'pglite.data' };

/** Placeholder until the lessons package's rendered output is wired in. */
export function loadLessonPage(webviewRoot: string, lesson: string): LessonPage {
  const file = path.join(webviewRoot, 'lessons', `${lesson}.html`);
  if (!existsSync(file)) {
    return { title: 'Lesson', html: '<p>This lesson is not part of this build of the extension.</p>', assets: {}, available: false };
  }
  return { title: 'Lesson', html: readFileSync(file, 'utf8'), assets: databaseAssets, available: true };
}
