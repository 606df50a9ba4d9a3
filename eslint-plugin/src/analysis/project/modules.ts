import path from 'node:path';

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { FileContext, type ImportedValue } from '../context/file-context.js';
import { matchesModule, type LibraryTable } from '../context/library-table.js';
import type { LibraryAdapter } from '../contract/adapter.js';
import { constantInitializer } from '../syntax/scope.js';
import { moduleExportName, propertyName, unwrapExpression } from '../syntax/nodes.js';
import { commonJsExport } from './commonjs.js';
import { typeScriptParse } from './typescript-parser.js';
import { entryAt, noteModuleFollowed, rememberedThisLint, stampOf, textOf } from './files.js';
import { ascend } from './root.js';
import { pathsMatcher } from './tsconfig.js';

/**
 * Other modules of the project, read (never run) when a value crosses into them: an imported
 * key builder, an imported handler. Imports are resolved as TypeScript and Node resolve them for
 * the project's own files (relative paths, with or without extensions, `index` files, and the
 * `paths` of the nearest tsconfig, a sibling package named by a `file:` dependency); packages in
 * node_modules are not read. Each module is
 * parsed once per modification, with typescript-eslint's parser when the project has it.
 */

const sourceExtensions = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const maxModuleBytes = 1_000_000;
const maxModules = 500;

function isFile(file: string): boolean {
  return entryAt(file)?.isFile() === true;
}

/** `./keys`, `./keys.js` (for `keys.ts`), `./keys/index.ts`: the file a path names, if it is source. */
function sourceFileAt(base: string): string | undefined {
  if (sourceExtensions.includes(path.extname(base)) && isFile(base)) return base;
  // TypeScript's ESM style: `./keys.js` written for `./keys.ts`.
  const stem = /\.(m|c)?jsx?$/.test(base) ? base.replace(/\.(m|c)?jsx?$/, '') : base;
  for (const extension of sourceExtensions) if (isFile(stem + extension)) return stem + extension;
  for (const extension of sourceExtensions)
    if (isFile(path.join(base, `index${extension}`))) return path.join(base, `index${extension}`);
  return undefined;
}

/**
 * The project file `specifier` names from `fromFile`, or undefined (a package, or not found):
 * relative, through the tsconfig's `paths`, through a framework's alias (`$lib/…` in a SvelteKit
 * project, whose generated tsconfig a fresh checkout lacks), or in a sibling package.
 */
export function resolveImport(
  fromFile: string,
  specifier: string,
  aliases: LibraryTable['importAliases'] = [],
): string | undefined {
  // A file known by a bare name has no folder to resolve from (see projectRoot).
  if (!path.isAbsolute(fromFile)) return undefined;
  if (specifier.startsWith('.')) return sourceFileAt(path.resolve(path.dirname(fromFile), specifier));
  if (specifier.startsWith('node:') || path.isAbsolute(specifier)) return undefined;
  for (const candidate of pathsMatcher(path.dirname(fromFile))?.(specifier) ?? []) {
    const found = sourceFileAt(candidate);
    if (found && !found.includes(`${path.sep}node_modules${path.sep}`)) return found;
  }
  for (const { alias, folder, marker } of aliases) {
    if (specifier !== alias && !specifier.startsWith(`${alias}/`)) continue;
    const project = ascend(fromFile).folders.find((dir) => marker.some((file) => entryAt(path.join(dir, file))));
    if (project) return sourceFileAt(path.join(project, folder, specifier.slice(alias.length)));
  }
  const [, name, rest = ''] = /^((?:@[^/]+\/)?[^/]+)(?:\/(.*))?$/.exec(specifier) ?? [];
  const folder = name === undefined ? undefined : siblingPackage(fromFile, name);
  return folder && sourceFileAt(path.join(folder, rest));
}

/**
 * A package the project holds itself, in a folder beside the importing one: a dependency of the
 * nearest package.json given as `file:../common` or `link:../common` (a monorepo without a
 * workspace tool). Installed packages are never read.
 */
function siblingPackage(fromFile: string, name: string): string | undefined {
  for (const folder of ascend(fromFile).folders) {
    const spec = manifestAt(path.join(folder, 'package.json'))?.local.get(name);
    if (spec === undefined) continue;
    const target = path.resolve(folder, spec);
    return target.includes(`${path.sep}node_modules${path.sep}`) ? undefined : target;
  }
  return undefined;
}

interface Manifest {
  /** The dependencies it names by a path (`file:`, `link:`), by package name. */
  local: ReadonlyMap<string, string>;
  /** Made to be published: not private, and saying what to publish (`files`, `publishConfig`). */
  published: boolean;
  /** Every package it depends on, by name. */
  depends: ReadonlySet<string>;
}

const manifests = new Map<string, { stamp: string; manifest: Manifest }>();

/** What the analysis reads of a package.json, once per modification. */
function manifestAt(file: string): Manifest | undefined {
  const stamped = stampOf(file);
  if (!stamped) return undefined;
  const known = manifests.get(file);
  if (known?.stamp === stamped.stamp) return known.manifest;
  const local = new Map<string, string>();
  const depends = new Set<string>();
  let published = false;
  try {
    const manifest = JSON.parse(textOf(file) ?? '') as Record<string, Record<string, unknown> | undefined>;
    for (const name of Object.keys({ ...manifest.peerDependencies, ...manifest.optionalDependencies }))
      depends.add(name);
    for (const [name, spec] of Object.entries({ ...manifest.devDependencies, ...manifest.dependencies })) {
      depends.add(name);
      const where = typeof spec === 'string' ? /^(?:file|link):(.+)$/.exec(spec)?.[1] : undefined;
      if (where !== undefined) local.set(name, where);
    }
    published =
      manifest.private !== (true as unknown) && (manifest.files !== undefined || manifest.publishConfig !== undefined);
  } catch {
    // Not JSON: no dependency is named by it, and nothing says it is published.
  }
  if (manifests.size >= maxModules) manifests.clear();
  const read = { local, published, depends };
  manifests.set(file, { stamp: stamped.stamp, manifest: read });
  return read;
}

/**
 * Does a package.json above `file` (its package's, or a workspace root's) depend on one of
 * `modules`? What a file that imports no library at all (`require('../models')`) is written with.
 */
export function declaresDependency(file: string, modules: readonly (string | RegExp)[]): boolean {
  for (const folder of ascend(file).folders) {
    const depends = manifestAt(path.join(folder, 'package.json'))?.depends;
    for (const name of depends ?? []) if (matchesModule(name, modules)) return true;
  }
  return false;
}

/** Is `file` in a package made to be published, whose exports code outside the project may call? */
export function inPublishedPackage(file: string): boolean {
  for (const folder of ascend(file).folders) {
    const manifest = manifestAt(path.join(folder, 'package.json'));
    if (manifest) return manifest.published;
  }
  return false;
}

function setParents(node: TSESTree.Node, keys: TSESLint.SourceCode.VisitorKeys): void {
  const stack: TSESTree.Node[] = [node];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const key of keys[current.type] ?? []) {
      const child = (current as unknown as Record<string, unknown>)[key];
      for (const item of Array.isArray(child) ? child : [child]) {
        if (item && typeof item === 'object' && 'type' in item) {
          (item as { parent?: TSESTree.Node }).parent = current;
          stack.push(item as TSESTree.Node);
        }
      }
    }
  }
}

/** What a FileContext needs of a parsed module, as ESLint's SourceCode provides it for the linted file. */
class ModuleSource {
  constructor(
    readonly text: string,
    readonly ast: TSESTree.Program,
    private readonly scopeManager: TSESLint.Scope.ScopeManager,
    readonly visitorKeys: TSESLint.SourceCode.VisitorKeys,
  ) {}

  getText(node?: TSESTree.Node): string {
    return node ? this.text.slice(node.range[0], node.range[1]) : this.text;
  }

  /** The innermost scope that holds `node`, found as ESLint finds it. */
  getScope(node: TSESTree.Node): TSESLint.Scope.Scope {
    let inner = node.type !== 'Program';
    for (let current: TSESTree.Node | undefined = node; current; current = current.parent) {
      const scope = this.scopeManager.acquire(current, inner);
      if (scope) return scope.type === 'function-expression-name' ? scope.childScopes[0] : scope;
      inner = current.type !== 'Program';
    }
    return this.scopeManager.scopes[0];
  }
}

interface Parsed {
  stamp: string;
  context: FileContext | null;
}

const modules = new Map<string, Parsed>();

/** The analysis context of another module of the project, or undefined when it cannot be read. */
export function moduleContext(file: string, table: LibraryTable): FileContext | undefined {
  const stamped = stampOf(file);
  if (!stamped || stamped.size > maxModuleBytes) return undefined;
  const stamp = stamped.stamp;
  const key = `${file}\u0000${table.id}`;
  const known = modules.get(key);
  if (known?.stamp === stamp) return known.context ?? undefined;
  const parse = typeScriptParse();
  let context: FileContext | null = null;
  const text = parse ? textOf(file) : undefined;
  if (parse && text !== undefined) {
    try {
      const jsx = /\.(t|j)sx$/.test(file);
      const { ast, scopeManager, visitorKeys } = parse(text, {
        range: true,
        loc: true,
        tokens: false,
        comment: false,
        ecmaVersion: 'latest',
        sourceType: 'module',
        ecmaFeatures: { jsx },
        filePath: file,
      });
      setParents(ast, visitorKeys);
      context = new FileContext(new ModuleSource(text, ast, scopeManager, visitorKeys), table, file, importedValueOf);
    } catch {
      context = null;
    }
  }
  if (modules.size >= maxModules) modules.clear();
  modules.set(key, { stamp, context });
  return context ?? undefined;
}

/** The project module a binding of the file is imported from (`import … from`, `require(…)`), read; undefined for a package. */
export function moduleOfBinding(file: FileContext, local: string): FileContext | undefined {
  const source = file.imports.bindings.get(local);
  return source === undefined ? undefined : importedModule(file, source);
}

/** The project module a specifier of the file names (relative, or through the tsconfig's `paths`), read; undefined for a package. */
function importedModule(file: FileContext, source: string): FileContext | undefined {
  const resolutions = resolutionsThisLint(file);
  let resolved = resolutions.get(source);
  if (resolved === undefined && !resolutions.has(source))
    resolutions.set(source, (resolved = resolveImport(file.filename, source, file.libraries.importAliases)));
  return resolved ? moduleContext(resolved, file.libraries) : undefined;
}

/** The file's specifiers resolved in this lint: every call of an imported name asks again, and the file system is read once per lint. */
const resolutionsThisLint = rememberedThisLint((_file: FileContext) => new Map<string, string | undefined>());

/**
 * The project module and the name it exports that a reference of the file stands for: `helper`
 * after `import { helper }`, `lib.helper` after `import * as lib`; and for `service.charge`
 * after `import service` or `import { service }`, the member asked of what it exports.
 */
export function importedExport(
  file: FileContext,
  reference: TSESTree.Node,
): { module: FileContext; name: string; member?: string } | undefined {
  if (reference.type === 'Identifier') return importedBinding(file, reference.name);
  if (reference.type === 'MemberExpression' && reference.object.type === 'Identifier')
    return importedBinding(file, reference.object.name, propertyName(reference));
  return undefined;
}

/** The project module and the name it exports that the file's binding `local` (with `member` asked of it) stands for. */
function importedBinding(
  file: FileContext,
  local: string,
  member?: string,
): { module: FileContext; name: string; member?: string } | undefined {
  const source = file.imports.bindings.get(local);
  if (!source) return undefined;
  const name = file.imports.names.get(local);
  const exported = name === '*' ? member : name;
  const module = exported ? importedModule(file, source) : undefined;
  return module && exported
    ? { module, name: exported, ...(name !== '*' && member !== undefined ? { member } : {}) }
    : undefined;
}

/**
 * What the project module a file imports `local` from exports under that name, followed through
 * index files, with the imports of the module that declares it.
 */
export function importedValueOf(file: FileContext, local: string): ImportedValue | undefined {
  const imported = importedBinding(file, local);
  const found = imported && exportedBy(imported.module, imported.name, maxReexports);
  if (!found) return undefined;
  noteModuleFollowed(found.module.filename);
  return { value: found.node, imports: found.module.imports };
}

/** Index files re-exporting index files: how many steps a name is followed through. */
const maxReexports = 3;

/** What an imported reference stands for in its module: an ESM export, or a CommonJS one (`require('./keys')` used whole is its `module.exports`). */
export function importedValue(
  file: FileContext,
  reference: TSESTree.Node,
): { module: FileContext; node: TSESTree.Node } | undefined {
  const imported = importedExport(file, reference);
  if (imported) return exportedBy(imported.module, imported.name, maxReexports);
  if (reference.type !== 'Identifier' || file.imports.names.get(reference.name) !== '*') return undefined;
  const module = moduleOfBinding(file, reference.name);
  const node = module && commonJsExport(module, 'default');
  return module && node ? { module, node } : undefined;
}

/**
 * What a module exports under `name`: declared there (ESM or CommonJS), or re-exported from
 * another module of the project (`export * from './refund.service'`, `export { Refunds } from
 * './refunds'`), as an `index` file gathers a folder's exports; a few steps at most.
 */
function exportedBy(
  module: FileContext,
  name: string,
  steps: number,
): { module: FileContext; node: TSESTree.Node } | undefined {
  const node = module.exportedValue(name) ?? commonJsExport(module, name);
  if (node) return { module, node };
  if (steps === 0) return undefined;
  for (const statement of module.sourceAst.body) {
    let asked: string | undefined;
    let source: TSESTree.StringLiteral | null = null;
    if (statement.type === 'ExportAllDeclaration' && !statement.exported && name !== 'default') {
      asked = name;
      source = statement.source;
    } else if (statement.type === 'ExportNamedDeclaration' && statement.source) {
      const specifier = statement.specifiers.find((item) => moduleExportName(item.exported) === name);
      asked = specifier && moduleExportName(specifier.local);
      source = statement.source;
    }
    const resolved =
      asked !== undefined && source
        ? resolveImport(module.filename, source.value, module.libraries.importAliases)
        : undefined;
    const next = resolved && moduleContext(resolved, module.libraries);
    const found = next && exportedBy(next, asked!, steps - 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * Does the file import one of the adapter's modules, itself or through a project module it
 * imports (one step: a Remix route imports `authenticate` from the app's `shopify.server`)?
 */
export function importsLibrary(file: FileContext, adapter: LibraryAdapter): boolean {
  const table = file.libraries;
  if (table.imported(adapter, file.imports)) return true;
  for (const source of file.imports.sources) {
    const module = importedModule(file, source);
    if (module && table.imported(adapter, module.imports)) return true;
  }
  return false;
}

/**
 * The library adapter whose factory made a value: `new Queue(worker)` or `fastq(worker, 1)` with
 * the factory imported from the library, in a constant of this module or one a project module
 * exports (`import { queue } from './queue'`).
 */
export function makerOf(value: TSESTree.Node, file: FileContext): LibraryAdapter | undefined {
  const made = (init: TSESTree.Node, module: FileContext): LibraryAdapter | undefined => {
    if (init.type !== 'NewExpression' && init.type !== 'CallExpression') return undefined;
    let factory: TSESTree.Node = init.callee;
    // `fastq.promise(worker, 1)`: the factory is the imported name the call starts from.
    while (factory.type === 'MemberExpression') factory = factory.object;
    const source = factory.type === 'Identifier' ? module.imports.bindings.get(factory.name) : undefined;
    return source === undefined ? undefined : module.libraries.adapterOfModule(source);
  };
  const local = value.type === 'Identifier' ? constantInitializer(value, file.scopeOf(value)) : undefined;
  if (local) return made(unwrapExpression(local), file);
  const imported = importedExport(file, value);
  const exported = imported && imported.member === undefined ? imported.module.exportedValue(imported.name) : undefined;
  return imported && exported ? made(unwrapExpression(exported), imported.module) : undefined;
}
