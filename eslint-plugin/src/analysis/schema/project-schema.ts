import { readdirSync } from 'node:fs';
import path from 'node:path';

import type { ModelFiles, SchemaFiles } from '../contract/adapter.js';
import type { LibraryTable } from '../context/library-table.js';
import { entryAt, folderIdentity, noteSchemaRead, stampOf, textOf } from '../project/files.js';
import { ascend, projectRoot } from '../project/root.js';
import { listSources } from '../project/importers.js';
import { moduleContext } from '../project/modules.js';
import { normaliseTarget } from '../contract/operation.js';
import { SchemaModel } from './model.js';
import { ddlInCode } from './ddl-in-code.js';
import { type DeclaredTable } from '../contract/schema.js';

/**
 * Finds a linted file's schema: the schema files and migrations of the project it belongs to,
 * looked for at the data adapters' usual locations in each folder from the file's own up to the
 * project's root (the folder with `.git`, else the highest with a `package.json`), and in the
 * packages of a monorepo root; plus any files or folders a team names in its settings. Nothing
 * outside the project is read. Files are parsed once per modification; a file that does not
 * parse is skipped with one warning.
 */

const maxFilesPerFolder = 2_000;
/** Monorepo folders whose packages may hold the schema of their neighbours. */
const packageFolders = ['packages', 'apps', 'libs', 'services'];
/** Long-lived processes (the editor) see new and deleted schema files after this long. */
const listingLifetimeMs = 5_000;

interface Parsed {
  stamp: string;
  tables: readonly DeclaredTable[] | null;
  /** For a file that could not be read: the names it mentions, any of which it may declare keys for. */
  mentions?: ReadonlySet<string>;
}

const parsed = new Map<string, Parsed>();
const listings = new Map<string, { at: number; identity: string; files: string[] }>();
/** The version of each schema file last warned about: a file that breaks again, once mended, is warned about again. */
const warned = new Map<string, string>();

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}

function exists(file: string): boolean {
  return entryAt(file) !== undefined;
}

function isDirectory(dir: string): boolean {
  return entryAt(dir)?.isDirectory() === true;
}

/**
 * The project's folders a file's schema may be in: its own and each above it, to the project
 * root, and the root's packages.
 */
export function projectFolders(filename: string): string[] {
  const { folders, root } = ascend(filename);
  if (!root) return folders.slice(0, 1);
  return [...new Set([...folders.slice(0, folders.indexOf(root) + 1), ...packagesOf(root)])];
}

const packageListings = new Map<string, { at: number; identity: string; folders: string[] }>();

/**
 * The packages of the project at `root`, listed once per listing lifetime: those of a monorepo's
 * package folders, and the root's own folders that are packages (`service-orders/` beside
 * `service-billing/`, a consumer beside the service whose database it writes).
 */
function packagesOf(root: string): string[] {
  const identity = folderIdentity(root);
  const known = packageListings.get(root);
  if (known && known.identity === identity && now() - known.at < listingLifetimeMs) return known.folders;
  const found: string[] = [];
  for (const folder of packageFolders) {
    const packages = path.join(root, folder);
    if (!isDirectory(packages)) continue;
    for (const entry of safeEntries(packages)) if (entry.isDirectory()) found.push(path.join(packages, entry.name));
  }
  for (const entry of safeEntries(root)) {
    const folder = path.join(root, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith('.') && exists(path.join(folder, 'package.json')))
      found.push(folder);
  }
  packageListings.set(root, { at: now(), identity, folders: found });
  return found;
}

function safeEntries(dir: string): import('node:fs').Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Files under `dir` ending with `ending`, at most `depth` folders down, skipping dependencies. */
function filesIn(dir: string, ending: string, depth: number): string[] {
  const found: string[] = [];
  const visit = (current: string, level: number) => {
    for (const entry of safeEntries(current)) {
      if (found.length >= maxFilesPerFolder) return;
      const full = path.join(current, entry.name);
      if (entry.isFile() && entry.name.endsWith(ending)) found.push(full);
      else if (entry.isDirectory() && level < depth && entry.name !== 'node_modules' && !entry.name.startsWith('.'))
        visit(full, level + 1);
    }
  };
  visit(dir, 1);
  return found.sort();
}

function locate(folder: string, schema: SchemaFiles): string[] {
  const key = `${folder}\u0000${schema.kind}`;
  const listing = listings.get(key);
  const pointers = (schema.pointers ?? []).map((pointer) => ({ pointer, file: path.join(folder, pointer.file) }));
  // A pointer file's edit changes the listing as much as a new file in the folder does.
  const identity = [folderIdentity(folder), ...pointers.map(({ file }) => stampOf(file)?.stamp ?? '')].join('\n');
  if (listing && listing.identity === identity && now() - listing.at < listingLifetimeMs) return listing.files;
  const files: string[] = [];
  for (const location of schema.locations) {
    if (typeof location === 'string') {
      const file = path.join(folder, location);
      if (exists(file)) files.push(file);
    } else {
      const dir = path.join(folder, location.folder);
      if (isDirectory(dir)) files.push(...filesIn(dir, location.ending, location.depth ?? 1));
    }
  }
  for (const { pointer, file } of pointers) {
    const text = exists(file) ? textOf(file) : undefined;
    if (text === undefined) continue;
    let named: string[];
    try {
      named = pointer.paths(text);
    } catch {
      named = [];
    }
    // Nothing outside the project is read, wherever a pointer points.
    const root = projectRoot(file) ?? folder;
    const inside = named.filter((given) => !path.relative(root, path.resolve(folder, given)).startsWith('..'));
    files.push(...declared(inside, folder, schema));
  }
  const unique = [...new Set(files)];
  listings.set(key, { at: now(), identity, files: unique });
  return unique;
}

/** Files and folders named in settings or by a pointer, relative to `base`. */
function declared(paths: readonly string[], base: string, schema: SchemaFiles): string[] {
  return paths.flatMap((given) => {
    const full = path.resolve(base, given);
    if (isDirectory(full)) return schema.endings.flatMap((ending) => filesIn(full, ending, 4));
    return schema.endings.some((ending) => full.endsWith(ending)) && exists(full) ? [full] : [];
  });
}

function read(file: string, schema: SchemaFiles): readonly DeclaredTable[] {
  const stamp = stampOf(file)?.stamp;
  if (stamp === undefined) return [];
  const known = parsed.get(file);
  if (known?.stamp === stamp) return known.tables ?? [];
  let tables: readonly DeclaredTable[] | null;
  const text = textOf(file);
  try {
    tables = text === undefined ? [] : schema.read(text, file);
  } catch {
    tables = null;
  }
  parsed.set(file, { stamp, tables, ...(tables === null ? { mentions: namesIn(text ?? '') } : {}) });
  if (
    tables === null &&
    warned.get(file) !== stamp &&
    typeof process !== 'undefined' &&
    typeof process.emitWarning === 'function'
  ) {
    warned.set(file, stamp);
    process.emitWarning(
      `eslint-plugin-idempotency skipped ${file}: it could not be read as ${schema.kind}. Findings that depend on its unique keys treat them as unknown.`,
    );
  }
  return tables ?? [];
}

/** Every word of a text that could name a table, as targets are named (`"Users"`, `users` → `user`). */
function namesIn(text: string): Set<string> {
  return new Set((text.match(/[A-Za-z_][\w$]*/g) ?? []).map(normaliseTarget));
}

const mentions = new Map<string, { stamp: string; readers: Set<ModelFiles> }>();
const modelTables = new Map<string, { stamp: string; tables: readonly DeclaredTable[] }>();

/** Which model readers a module's text could interest, asked once per modification. */
function readersMentioned(
  file: string,
  readers: readonly ModelFiles[],
): { stamp: string; readers: Set<ModelFiles> } | undefined {
  const stamped = stampOf(file);
  if (!stamped || stamped.size > 1_000_000) return undefined;
  const stamp = stamped.stamp;
  const known = mentions.get(file);
  if (known?.stamp === stamp) return known;
  // Unreadable: it declares nothing we can see.
  const text = textOf(file) ?? '';
  const found = { stamp, readers: new Set(readers.filter((reader) => reader.mentions.test(text))) };
  mentions.set(file, found);
  return found;
}

const declaredLately = new Map<
  string,
  {
    at: number;
    identity: string;
    found: { files: { file: string; readers: ReadonlySet<ModelFiles> }[]; stamps: string[] };
  }
>();

const readersByTable = new WeakMap<LibraryTable, readonly ModelFiles[]>();

/** The adapters' readers of model code, and one of the DDL their migrations send as text. */
function modelReadersOf(table: LibraryTable): readonly ModelFiles[] {
  let readers = readersByTable.get(table);
  if (!readers) {
    readers = [...table.modelReaders, ...(table.ddlCalls.length > 0 ? [ddlInCode(table.ddlCalls)] : [])];
    readersByTable.set(table, readers);
  }
  return readers;
}

/**
 * The project's modules that may declare tables in model code (those that mention a model
 * library), looked for again at most every few seconds. Reading what they declare (a parse of
 * each) waits until a table they may name is looked up: see `ModelSources`.
 */
function declaredInModels(
  filename: string,
  table: LibraryTable,
): { files: { file: string; readers: ReadonlySet<ModelFiles> }[]; stamps: string[] } {
  const root = projectRoot(filename);
  const readers = modelReadersOf(table);
  if (!root || readers.length === 0) return { files: [], stamps: [] };
  const key = `${root}\u0000${table.id}`;
  const lately = declaredLately.get(key);
  const identity = folderIdentity(root);
  if (lately && lately.identity === identity && now() - lately.at < listingLifetimeMs) return lately.found;
  const found = { files: [] as { file: string; readers: ReadonlySet<ModelFiles> }[], stamps: [] as string[] };
  for (const file of listSources(root)) {
    const mentioned = readersMentioned(file, readers);
    if (!mentioned || mentioned.readers.size === 0) continue;
    found.stamps.push(`${file}@${mentioned.stamp}`);
    found.files.push({ file, readers: mentioned.readers });
  }
  declaredLately.set(key, { at: now(), identity, found });
  return found;
}

/** The tables a model module declares, read once per modification. */
function modelTablesOf(
  file: string,
  readers: ReadonlySet<ModelFiles>,
  table: LibraryTable,
): (DeclaredTable & { file: string })[] {
  const stamp = stampOf(file)?.stamp ?? '';
  const key = `${file}\u0000${table.id}`;
  let known = modelTables.get(key);
  if (known?.stamp !== stamp) {
    const module = moduleContext(file, table);
    const read = module
      ? [...readers].flatMap((reader) => {
          try {
            return reader.read(module);
          } catch {
            return [];
          }
        })
      : [];
    modelTables.set(key, (known = { stamp, tables: read }));
  }
  return known.tables.map((declared) => ({ ...declared, file }));
}

const models = new Map<string, SchemaModel>();

/** The schema of the project `filename` belongs to, as the adapters' readers find it. */
export function projectSchema(
  filename: string,
  table: LibraryTable,
  settingsPaths: readonly string[],
  cwd: string,
): SchemaModel {
  const folders = projectFolders(filename);
  const sources: { file: string; schema: SchemaFiles }[] = [];
  for (const adapter of table.schemaReaders) {
    const files = new Set([
      ...folders.flatMap((folder) => locate(folder, adapter)),
      ...declared(settingsPaths, cwd, adapter),
    ]);
    for (const file of files) sources.push({ file, schema: adapter });
  }
  const tables = sources.flatMap(({ file, schema }) =>
    read(file, schema).map((declaredTable) => ({ ...declaredTable, file })),
  );
  const inModels = declaredInModels(filename, table);
  const key = [
    ...sources.map(({ file }) => `${file}@${parsed.get(file)?.stamp ?? ''}`),
    ...inModels.stamps,
    String(table.id),
  ].join('\n');
  let model = models.get(key);
  if (!model) {
    const unreadable = sources.filter(({ file }) => parsed.get(file)?.tables === null).map(({ file }) => file);
    const mentioned = unreadable.map((file) => parsed.get(file)?.mentions ?? new Set<string>());
    const readers = new Map(inModels.files.map(({ file, readers }) => [file, readers]));
    model = new SchemaModel(
      tables,
      sources.map(({ file }) => file),
      unreadable,
      mentioned,
      {
        files: inModels.files.map(({ file }) => file),
        read: (file) => modelTablesOf(file, readers.get(file) ?? new Set(), table),
      },
    );
    if (models.size > 200) models.clear();
    models.set(key, model);
  }
  // What this lint consulted, as far as its rules' questions took it: asked when the lint is over.
  const kinds = new Map(sources.map(({ file, schema }) => [file, schema.kind]));
  const consulted = model;
  noteSchemaRead(() => consulted.filesRead().map((file) => ({ file, kind: kinds.get(file) ?? 'model code' })));
  return model;
}
