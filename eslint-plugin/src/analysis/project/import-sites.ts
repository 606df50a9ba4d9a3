import type { TSESTree } from '@typescript-eslint/utils';

import { isFunction, type FileContext, type FunctionNode } from '../context/file-context.js';
import { keyName, memberPath, propertyName } from '../syntax/nodes.js';
import { calledFunction } from './calls.js';
import { walk } from '../syntax/walk.js';
import { importersOf } from './importers.js';
import { moduleContext } from './modules.js';

/**
 * Where other modules of the project use a function this module exports: each reference to the
 * imported binding (`handleRefund` in `eachMessage: handleRefund`, or in `handleRefund(payload)`),
 * as an ES or a CommonJS export, with the module it is in, so that its registration or its arguments can be read there.
 */

export interface ImportSite {
  module: FileContext;
  site: TSESTree.Node;
}

const cache = new WeakMap<FunctionNode, ImportSite[]>();

export function sitesInImporters(fn: FunctionNode, file: FileContext): ImportSite[] {
  const known = cache.get(fn);
  if (known) return known;
  cache.set(fn, []);
  const exported = file.exportNameOf(fn) ?? commonJsExportName(fn, file);
  const found: ImportSite[] = [];
  if (exported) {
    for (const importer of importersOf(file.filename, file.libraries.importAliases)) {
      const module = moduleContext(importer.file, file.libraries);
      if (!module) continue;
      for (const [local, source] of module.imports.bindings) {
        if (source !== importer.specifier) continue;
        const name = module.imports.names.get(local);
        // A module that is the function (`module.exports = handler`) is called by the name it is required as.
        const whole = exported === wholeModule && (name === '*' || name === 'default');
        if (name === exported || whole) found.push(...module.referencesTo(local).map((site) => ({ module, site })));
        else if (name === '*') {
          walk(
            module.sourceAst,
            module.visitorKeys,
            (node) => {
              if (
                node.type === 'MemberExpression' &&
                node.object.type === 'Identifier' &&
                node.object.name === local &&
                !node.computed &&
                node.property.type === 'Identifier' &&
                node.property.name === exported
              ) {
                found.push({ module, site: node });
              }
            },
            200_000,
          );
        }
      }
    }
  } else found.push(...methodSites(fn, file));
  cache.set(fn, found);
  return found;
}

/**
 * The calls of a method of a class this module exports, in the modules that import the class:
 * `this.security.isReplay(id)` with `constructor(private security: WebhookSecurity)`, or on an
 * instance made with `new`. Each candidate call is resolved forward, so only calls of this very
 * method are kept.
 */
function methodSites(fn: FunctionNode, file: FileContext): ImportSite[] {
  const definition = fn.parent;
  const classNode = definition?.parent?.parent;
  if (
    (definition?.type !== 'MethodDefinition' && definition?.type !== 'PropertyDefinition') ||
    definition.computed ||
    classNode?.type !== 'ClassDeclaration'
  )
    return [];
  const method = keyName(definition);
  const exported = file.exportNameOf(classNode);
  if (method === undefined || exported === undefined) return [];
  const found: ImportSite[] = [];
  for (const importer of importersOf(file.filename, file.libraries.importAliases)) {
    const module = moduleContext(importer.file, file.libraries);
    if (!module) continue;
    const importsClass = [...module.imports.bindings].some(
      ([local, source]) => source === importer.specifier && module.imports.names.get(local) === exported,
    );
    if (!importsClass) continue;
    walk(
      module.sourceAst,
      module.visitorKeys,
      (node) => {
        if (
          node.type !== 'MemberExpression' ||
          node.parent?.type !== 'CallExpression' ||
          node.parent.callee !== node ||
          propertyName(node) !== method
        )
          return;
        const called = calledFunction(module, node);
        if (called && called.module.filename === file.filename && called.fn.range[0] === fn.range[0])
          found.push({ module, site: node });
      },
      200_000,
    );
  }
  return found;
}

/** What a module that is one function exports it as: `module.exports = processMessage`. */
const wholeModule = 'module.exports';

/**
 * The name a CommonJS module exports a function by: `module.exports = { name }`, `exports.name =
 * fn`, or the module itself (`module.exports = fn`, `module.exports = exports = async (event) => …`).
 */
function commonJsExportName(fn: FunctionNode, file: FileContext): string | undefined {
  const local =
    fn.type === 'FunctionDeclaration'
      ? fn.id?.name
      : fn.parent?.type === 'VariableDeclarator' && fn.parent.id.type === 'Identifier'
        ? fn.parent.id.name
        : undefined;
  const exports = commonJsExportsOf(file);
  return exports.get(fn) ?? (local === undefined ? undefined : exports.get(local));
}

const commonJsExports = new WeakMap<FileContext, Map<string | TSESTree.Node, string>>();

/** A module's CommonJS exports, read once: by the local name exported, or by the function assigned itself. */
function commonJsExportsOf(file: FileContext): Map<string | TSESTree.Node, string> {
  const known = commonJsExports.get(file);
  if (known) return known;
  const exports = new Map<string | TSESTree.Node, string>();
  // The first statement that exports a name decides, as a reader going down the module would.
  const add = (key: string | TSESTree.Node, name: string | undefined) => {
    if (name !== undefined && !exports.has(key)) exports.set(key, name);
  };
  for (const statement of file.sourceAst.body) {
    const expression = statement.type === 'ExpressionStatement' ? statement.expression : undefined;
    if (expression?.type !== 'AssignmentExpression') continue;
    const target = memberPath(expression.left)?.join('.');
    if (target === 'module.exports') {
      // `module.exports = exports = …` exports what the last assignment holds.
      let assigned: TSESTree.Expression = expression.right;
      while (assigned.type === 'AssignmentExpression') assigned = assigned.right;
      if (assigned.type === 'Identifier') add(assigned.name, wholeModule);
      else if (isFunction(assigned)) add(assigned, wholeModule);
      else if (assigned.type === 'ObjectExpression')
        for (const property of assigned.properties) {
          if (property.type === 'Property' && property.value.type === 'Identifier')
            add(property.value.name, keyName(property));
        }
    }
    const named = target && /^(module\.)?exports\.(\w+)$/.exec(target)?.[2];
    if (named) add(expression.right.type === 'Identifier' ? expression.right.name : expression.right, named);
  }
  commonJsExports.set(file, exports);
  return exports;
}
