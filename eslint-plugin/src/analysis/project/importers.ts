import { readdirSync } from 'node:fs';
import path from 'node:path';

import { projectRoot } from './root.js';
import { folderIdentity, stampOf, textOf } from './files.js';
import { resolveImport } from './modules.js';
import { namesOneOffPlace } from '../naming/stakes.js';
import type { LibraryTable } from '../context/library-table.js';

/**
 * Which modules of the project import a given file: where its exported functions are called or
 * registered as handlers. The project's source files are listed once (skipping dependencies and
 * build output), and each file's import specifiers are read with a cheap scan, once per
 * modification; only the files whose specifiers could name the target are resolved.
 */

const sourceFile = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const skipped = new Set(['node_modules', 'dist', 'build', 'out', 'coverage', 'vendor', 'tmp', 'generated']);
const maxFiles = 40_000;
const specifierPattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"\n]+)['"]/gm;

/** Tests, fixtures and mocks, by their path in the project. */
const testCode =
  /(^|[\\/])(__tests__|__mocks__|__fixtures__|test|tests|e2e|fixtures|mocks)[\\/]|\.(test|spec)\.[cm]?[jt]sx?$/;

/** Is `file` a test, a fixture or a mock of the project at `root`? Judged by its path inside the project: a project kept in a folder named `test` is not a test. */
export function isTestCode(file: string, root = projectRoot(file)): boolean {
  return testCode.test(root ? path.relative(root, file) : file);
}

interface ProjectIndex {
  at: number;
  identity: string;
  /** Specifier stem → the files and specifiers that end with it. */
  byStem: Map<string, { file: string; specifier: string }[]>;
  /** The project's production source files (no tests, fixtures or mocks). */
  production: string[];
  /** Names asked of `namedElsewhere`, with the answer for this listing. */
  named: Map<string, Set<string>>;
  /** Patterns asked of `mentioning`, with the answer for this listing. */
  mentions: Map<string, readonly string[]>;
}

const indexes = new Map<string, ProjectIndex>();
const specifiers = new Map<string, { stamp: string; specifiers: string[] }>();
/** The editor sees new imports after this long; a command-line run builds the index once. */
const indexLifetimeMs = 30_000;

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

/** The project's own source files below `root`: no dependencies, build output or declarations. */
export function listSources(root: string): string[] {
  const files: string[] = [];
  const visit = (dir: string) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (files.length >= maxFiles) return;
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skipped.has(entry.name)) visit(full);
      } else if (
        entry.isFile() &&
        sourceFile.test(entry.name) &&
        !entry.name.endsWith('.d.ts') &&
        !entry.name.includes('.min.')
      ) {
        files.push(full);
      }
    }
  };
  visit(root);
  return files;
}

function specifiersIn(file: string): string[] {
  const stamped = stampOf(file);
  if (!stamped || stamped.size > 1_000_000) return [];
  const stamp = stamped.stamp;
  const known = specifiers.get(file);
  if (known?.stamp === stamp) return known.specifiers;
  // Unreadable: it imports nothing we can see.
  const text = textOf(file) ?? '';
  const found = [...new Set([...text.matchAll(specifierPattern)].map((match) => match[1]))];
  specifiers.set(file, { stamp, specifiers: found });
  return found;
}

/** The last name a specifier ends with, without extension: `./keys.js` → `keys`, `@app/keys` → `keys`. */
function stemOf(specifier: string): string {
  return path.basename(specifier).replace(/\.(m|c)?(t|j)sx?$/, '');
}

function indexOf(root: string): ProjectIndex {
  const known = indexes.get(root);
  const identity = folderIdentity(root);
  if (known && known.identity === identity && now() - known.at < indexLifetimeMs) return known;
  const byStem = new Map<string, { file: string; specifier: string }[]>();
  const production: string[] = [];
  for (const file of listSources(root)) {
    if (!isTestCode(file, root)) production.push(file);
    for (const specifier of specifiersIn(file)) {
      if (!specifier.startsWith('.') && !specifier.includes('/')) continue;
      const stem = stemOf(specifier);
      const list = byStem.get(stem);
      if (list) list.push({ file, specifier });
      else byStem.set(stem, [{ file, specifier }]);
    }
  }
  const index = { at: now(), identity, byStem, production, named: new Map(), mentions: new Map() };
  indexes.set(root, index);
  return index;
}

/**
 * The project files that import `target`, with the specifiers that name it. Tests are not among
 * them, nor scripts, seeds and data migrations (unless `target` is one too): what a test or a
 * script hands a function (a fresh id for each case or run) says nothing of what production code
 * hands it.
 */
export function importersOf(
  target: string,
  aliases: LibraryTable['importAliases'] = [],
): { file: string; specifier: string }[] {
  const root = projectRoot(target);
  if (!root) return [];
  const stem = stemOf(target);
  // An index module is named by its folder.
  const names = stem === 'index' ? [path.basename(path.dirname(target))] : [stem];
  const index = indexOf(root);
  const oneOff = (file: string) => namesOneOffPlace(path.relative(root, file));
  const targetOneOff = oneOff(target);
  return names
    .flatMap((name) => index.byStem.get(name) ?? [])
    .filter(
      ({ file, specifier }) =>
        file !== target &&
        !isTestCode(file, root) &&
        (targetOneOff || !oneOff(file)) &&
        resolveImport(file, specifier, aliases) === target,
    );
}

/**
 * Is `name` written in a production source file of the project other than `file` (in code, a
 * string or a comment: any mention may be a use)? Each file is read once per name and listing.
 */
export function namedElsewhere(name: string, file: string): boolean {
  const namers = namersOf(name, file);
  return namers === undefined || namers.some((namer) => namer !== file);
}

/** The production source files of the project that write `name` (as `namedElsewhere` reads them); undefined outside a project. */
export function namersOf(name: string, file: string): string[] | undefined {
  const root = projectRoot(file);
  if (!root) return undefined;
  const index = indexOf(root);
  let namers = index.named.get(name);
  if (!namers) {
    namers = new Set();
    for (const other of index.production) {
      const text = textOf(other);
      if (text?.includes(name) && timesWritten(name, text, 1) > 0) namers.add(other);
    }
    index.named.set(name, namers);
  }
  return [...namers];
}

/** The production source files of the project whose text matches `pattern`, read once per listing; undefined outside a project. */
export function mentioning(pattern: RegExp, file: string): readonly string[] | undefined {
  const root = projectRoot(file);
  if (!root) return undefined;
  const index = indexOf(root);
  const key = String(pattern);
  let files = index.mentions.get(key);
  if (!files) index.mentions.set(key, (files = index.production.filter((other) => pattern.test(textOf(other) ?? ''))));
  return files;
}

/** How many times `name` is written in `text` as a whole word, counting up to `enough`. */
export function timesWritten(name: string, text: string, enough = 2): number {
  let times = 0;
  for (let at = text.indexOf(name); at >= 0 && times < enough; at = text.indexOf(name, at + name.length)) {
    const before = text[at - 1];
    const after = text[at + name.length];
    if (!(before && identifierPart.test(before)) && !(after && identifierPart.test(after))) times += 1;
  }
  return times;
}

const identifierPart = /[\w$]/;
