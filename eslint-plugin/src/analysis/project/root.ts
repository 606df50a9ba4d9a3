import path from 'node:path';

import { entryAt } from './files.js';

/** Where a project begins: the folders above a file, up to its root. */

const maxAscent = 12;

function exists(file: string): boolean {
  return entryAt(file) !== undefined;
}

/**
 * The project a file belongs to: the folder with `.git` (or `.github`) above it, else the highest
 * with a `package.json`.
 */
export function projectRoot(filename: string): string | undefined {
  return ascend(filename).root;
}

/**
 * A file known by a bare name (the editor's, a test's `file.ts`) belongs to no folder we can
 * trust: resolved against the working directory it would send the analysis through whatever
 * tree the process happens to run in. Only a file's absolute path places it in a project.
 */
export function ascend(filename: string): { folders: string[]; root: string | undefined } {
  const folders: string[] = [];
  if (!path.isAbsolute(filename)) return { folders, root: undefined };
  let dir = path.dirname(path.resolve(filename));
  let root: string | undefined;
  for (let depth = 0; depth < maxAscent; depth += 1) {
    folders.push(dir);
    // A checkout without its history (a source archive) still has the repository's `.github`.
    if (exists(path.join(dir, '.git')) || exists(path.join(dir, '.github'))) {
      root = dir;
      break;
    }
    if (exists(path.join(dir, 'package.json'))) root = dir;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return { folders, root };
}
