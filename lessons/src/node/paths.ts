import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the lessons package lives on disk. Found by walking up to its package.json, so the same
 * code works from `src/` (tsx, tests) and from `dist/src/` (the compiled CLI).
 */
function findPackageRoot(start: string): string {
  for (let folder = start; ; folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (
      existsSync(manifest) &&
      (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === '@idempotency/lessons'
    ) {
      return folder;
    }
    if (dirname(folder) === folder) throw new Error(`No @idempotency/lessons package.json above ${start}`);
  }
}

export const packageRoot = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

export const lessonFolder = (lessonId: string) => join(packageRoot, lessonId);

/** The rendered lesson; `src/lesson-data.ts` imports it, and tsc copies it to `dist/generated/`. */
export const builtLessonFile = (lessonId: string) => join(packageRoot, 'generated', `${lessonId}.json`);

/** A PGlite data directory made once at build time, so a ready database does not wait for initdb. */
export const pgliteImageFile = join(packageRoot, 'dist', 'pglite-image.tar.gz');
