import path from 'node:path';

import { entryAt } from './files.js';

/** Where a project begins: the folders above a file, up to its root. */

const maxAscent = 12;

function exists(file: string): boolean {
  return entryAt(file) !== undefined;
}

/**
 * The project a file belongs to: the folder with `.git` above it, else the highest with `.github`
 * (a checkout without its history), else the highest with a `package.json`. A package that keeps
 * its own `.github` inside a repository (a service merged in with its history) is part of it.
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
  let github: string | undefined;
  for (let depth = 0; depth < maxAscent; depth += 1) {
    folders.push(dir);
    if (exists(path.join(dir, '.git'))) return { folders, root: dir };
    // A checkout without its history (a source archive) still has the repository's `.github`.
    if (exists(path.join(dir, '.github'))) github = dir;
    if (exists(path.join(dir, 'package.json'))) root = dir;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  if (github) return { folders: folders.slice(0, folders.indexOf(github) + 1), root: github };
  return { folders, root };
}
