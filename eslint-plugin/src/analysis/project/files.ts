import { readFileSync, statSync, type Stats } from 'node:fs';

/**
 * The project's files as the analysis reads them: from disk, unless the editor has the file open
 * with unsaved changes, in which case the analysis reads what the user sees. Each file comes with
 * a stamp that changes whenever its text may have, for the caches that keep what was made of it.
 */

const none: ReadonlyMap<string, string> = new Map();
let openDocuments = none;
let statsThisLint = new Map<string, Stats | null>();

/** What one lint read of the project besides the linted file, for a tool to show (the editor's status). */
export interface ProjectReading {
  /** The schema files, migrations and model modules whose unique keys it consulted; undefined when no rule asked. */
  schema?: readonly { file: string; kind: string }[];
  /** The project's modules it followed values and calls into: imported helpers, importers that call the file's functions. */
  modules: readonly string[];
}

let schemaThisLint: (() => NonNullable<ProjectReading['schema']>) | undefined;
let modulesThisLint = new Set<string>();

/**
 * Starts the lint of one file. `texts`: the unsaved texts of open documents, by absolute path,
 * read in place of the disk copies; the editor's engine passes them with each lint, and a
 * command-line run none. What the file system says is asked once per path in one lint (a
 * handler calls its helpers many times) and asked again in the next.
 */
export function beginLint(texts: Readonly<Record<string, string>> | undefined): void {
  lintsBegun += 1;
  const entries = texts ? Object.entries(texts) : [];
  openDocuments = entries.length > 0 ? new Map(entries) : none;
  if (statsThisLint.size > 0) statsThisLint = new Map();
  schemaThisLint = undefined;
  if (modulesThisLint.size > 0) modulesThisLint = new Set();
}

let lintsBegun = 0;

/**
 * `compute`, with its answers kept by node for one lint: answers that read other modules may
 * change with them, while the syntax trees of modules followed into are kept between lints.
 * The other arguments must follow from the node (its file, say): they are not part of the key.
 */
export function rememberedThisLint<K extends object, A extends unknown[], V>(
  compute: (key: K, ...rest: A) => V,
): (key: K, ...rest: A) => V {
  let answers = new WeakMap<K, { value: V }>();
  let lint = lintsBegun;
  return (key, ...rest) => {
    if (lint !== lintsBegun) {
      lint = lintsBegun;
      answers = new WeakMap();
    }
    let answer = answers.get(key);
    if (!answer) answers.set(key, (answer = { value: compute(key, ...rest) }));
    return answer.value;
  };
}

/** The schema this lint consulted: its files, told when asked (model code is read as the rules' questions need it). */
export function noteSchemaRead(files: () => NonNullable<ProjectReading['schema']>): void {
  schemaThisLint = files;
}

/** A module of the project this lint followed a value or a call into. */
export function noteModuleFollowed(file: string): void {
  modulesThisLint.add(file);
}

/** What the last lint read of the project besides `filename`, the file it linted. */
export function projectReading(filename: string): ProjectReading {
  return {
    ...(schemaThisLint ? { schema: schemaThisLint() } : {}),
    modules: [...modulesThisLint].filter((file) => file !== filename).sort(),
  };
}

/** The file system's entry at `file` as this lint saw it first, or undefined when there is none. */
export function entryAt(file: string): Stats | undefined {
  let stats = statsThisLint.get(file);
  if (stats === undefined) {
    try {
      stats = statSync(file);
    } catch {
      stats = null;
    }
    statsThisLint.set(file, stats);
  }
  return stats ?? undefined;
}

/**
 * Which folder is at `dir` now: one deleted and made again at the same path (a checkout written
 * anew) is another folder, and no listing of the earlier one may stand for it.
 */
export function folderIdentity(dir: string): string {
  const stats = entryAt(dir);
  return stats ? `${stats.ino}:${stats.birthtimeMs}:${stats.mtimeMs}` : '';
}

export interface FileStamp {
  /** Changes when the text may have: modification time and size on disk, the text itself when open. */
  stamp: string;
  size: number;
}

/** The stamp of a regular file (open or on disk), or undefined when there is none. */
export function stampOf(file: string): FileStamp | undefined {
  const open = openDocuments.get(file);
  if (open !== undefined) return { stamp: `open:${open}`, size: open.length };
  const stats = entryAt(file);
  return stats?.isFile() ? { stamp: `${stats.mtimeMs}:${stats.size}`, size: stats.size } : undefined;
}

/** The text of a file (open or on disk), or undefined when it cannot be read. */
export function textOf(file: string): string | undefined {
  const open = openDocuments.get(file);
  if (open !== undefined) return open;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
