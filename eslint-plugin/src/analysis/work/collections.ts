import type { TSESTree } from '@typescript-eslint/utils';

import type { CollectionSpec } from '../contract/adapter.js';
import type { FileContext } from '../context/file-context.js';
import { keyName, propertyName, withoutTypeAssertions } from '../syntax/nodes.js';
import { variableOf } from '../syntax/scope.js';
import { importedExport } from '../project/modules.js';

/**
 * Collections kept in a process's memory (a module's Set, an object's Map, an LRU cache): which
 * expression names one. A collection made inside a function lives for one call; one held by the
 * module or by an object outlives it, and so outlives the delivery that filled it.
 */

/** A collection that outlives one call: held by a module's top level, or by a class's instances. */
export interface Collection {
  /** The name it is held under: `processedIds`, `credited` (for `this.credited`). */
  name: string;
  spec: CollectionSpec;
  /** Where it is made: the variable declarator, class field or constructor assignment. */
  declaration: TSESTree.Node;
  /** The expression that makes it (`new LRUCache({ ttl })`), as written. */
  made: TSESTree.Node;
  /** The code that may record in it: the module, or the class body. */
  owner: TSESTree.Program | TSESTree.ClassBody;
  module: FileContext;
}

export const sameCollection = (a: Collection, b: Collection) =>
  a.module.filename === b.module.filename && a.declaration.range[0] === b.declaration.range[0];

/** The spec of the collection an initializer makes, if it makes one the adapters know. */
export function specOf(
  init: TSESTree.Node | null | undefined,
  file: FileContext,
  depth = 0,
): CollectionSpec | undefined {
  if (!init || depth > 3) return undefined;
  const value = withoutTypeAssertions(init);
  const table = file.libraries;
  // `globalThis.seen ??= new Set()`, `global.seen || (global.seen = new Set())`: one made once per process.
  if (value.type === 'AssignmentExpression') return specOf(value.right, file, depth + 1);
  if (value.type === 'LogicalExpression')
    return specOf(value.left, file, depth + 1) ?? specOf(value.right, file, depth + 1);
  // `const seen = global.__seen`, after `if (!global.__seen) global.__seen = new Set()`.
  if (value.type === 'MemberExpression') return specOf(globalAssigned(value, file), file, depth + 1);
  if (value.type === 'ArrayExpression' && value.elements.length === 0) return table.literalCollections.get('array');
  if (value.type === 'ObjectExpression' && value.properties.length === 0) return table.literalCollections.get('object');
  if (value.type !== 'NewExpression' || value.callee.type !== 'Identifier') return undefined;
  const name = value.callee.name;
  const source = file.imports.bindings.get(name);
  const imported = file.imports.names.get(name);
  for (const spec of table.collectionsByClass.get(name) ?? []) {
    if (spec.from ? source !== undefined && spec.from.includes(source) : source === undefined) return spec;
  }
  // `import LRU from 'lru-cache'`, `import Cache from 'node-cache'`: a default import by any name.
  if (source !== undefined && (imported === 'default' || imported === '*')) {
    for (const specs of table.collectionsByClass.values())
      for (const spec of specs) if (spec.from?.includes(source)) return spec;
  }
  return undefined;
}

/** The value the module's top level gives a property of the global object (`global.__seen = new Set()`). */
function globalAssigned(member: TSESTree.MemberExpression, file: FileContext): TSESTree.Node | undefined {
  const name = propertyName(member);
  const holder = member.object.type === 'Identifier' ? member.object.name : undefined;
  if (!holder || !/^(global|globalThis)$/.test(holder) || !name) return undefined;
  let found: TSESTree.Node | undefined;
  const visit = (statement: TSESTree.Node | null | undefined): void => {
    if (!statement || found) return;
    if (statement.type === 'IfStatement') return visit(statement.consequent);
    if (statement.type === 'BlockStatement') return statement.body.forEach(visit);
    const assigned = statement.type === 'ExpressionStatement' ? statement.expression : undefined;
    if (
      assigned?.type === 'AssignmentExpression' &&
      assigned.left.type === 'MemberExpression' &&
      assigned.left.object.type === 'Identifier' &&
      assigned.left.object.name === holder &&
      propertyName(assigned.left) === name
    )
      found = assigned.right;
  };
  file.sourceAst.body.forEach(visit);
  return found;
}

function isTopLevel(declarator: TSESTree.VariableDeclarator): boolean {
  const declaration = declarator.parent;
  const holder = declaration?.parent;
  return holder?.type === 'Program' || (holder?.type === 'ExportNamedDeclaration' && holder.parent?.type === 'Program');
}

/** The class body `this` refers to at `node`: the nearest non-arrow function must be one of its methods. */
function thisClass(node: TSESTree.Node): TSESTree.ClassBody | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === 'PropertyDefinition' && current.parent.type === 'ClassBody') return current.parent;
    if (current.type === 'FunctionExpression' || current.type === 'FunctionDeclaration') {
      const method = current.parent;
      return method?.type === 'MethodDefinition' && method.parent.type === 'ClassBody' ? method.parent : undefined;
    }
  }
  return undefined;
}

const collections = new WeakMap<TSESTree.Node, Collection | null>();
const moduleCollections = new WeakMap<FileContext, ReadonlySet<string>>();

/**
 * The names of the module's own variables that start as a collection: the only names that can
 * be one. Most lookups (`items[i]`, `map.get(k)` on a parameter) are turned away by name, before
 * any scope is searched.
 */
function collectionNames(file: FileContext): ReadonlySet<string> {
  let names = moduleCollections.get(file);
  if (!names) {
    const found = new Set<string>();
    for (const statement of file.sourceAst.body) {
      const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
      if (declaration?.type !== 'VariableDeclaration') continue;
      for (const declarator of declaration.declarations)
        if (declarator.id.type === 'Identifier' && specOf(declarator.init, file)) found.add(declarator.id.name);
    }
    moduleCollections.set(file, (names = found));
  }
  return names;
}

/** The long-lived collection an expression names: a module's variable, or `this.field` of a class. */
export function collectionOf(receiver: TSESTree.Node, file: FileContext): Collection | undefined {
  const node = withoutTypeAssertions(receiver);
  if (node.type === 'Identifier') {
    if (file.imports.bindings.has(node.name)) return importedCollection(node, file);
    if (!collectionNames(file).has(node.name)) return undefined;
    const variable = variableOf(node, file.scopeOf(node));
    const definition = variable?.defs[0];
    if (
      !variable ||
      variable.defs.length !== 1 ||
      definition?.type !== 'Variable' ||
      definition.node.id.type !== 'Identifier'
    )
      return undefined;
    const declarator = definition.node;
    if (!isTopLevel(declarator)) return undefined;
    return remember(declarator, () => {
      const made = declarator.init;
      const spec = specOf(made, file);
      return spec && made
        ? { name: node.name, spec, declaration: declarator, made, owner: file.sourceAst, module: file }
        : undefined;
    });
  }
  if (node.type === 'MemberExpression' && node.object.type === 'ThisExpression') {
    const field = propertyName(node);
    const body = field === undefined ? undefined : thisClass(node);
    if (!body || field === undefined) return undefined;
    for (const member of body.body) {
      if (member.type === 'PropertyDefinition' && keyName(member) === field && member.value) {
        const value = member.value;
        return remember(member, () => {
          const spec = specOf(value, file);
          return spec ? { name: field, spec, declaration: member, made: value, owner: body, module: file } : undefined;
        });
      }
      if (member.type === 'MethodDefinition' && member.kind === 'constructor' && member.value.body) {
        for (const statement of member.value.body.body) {
          const expression = statement.type === 'ExpressionStatement' ? statement.expression : undefined;
          if (
            expression?.type === 'AssignmentExpression' &&
            expression.left.type === 'MemberExpression' &&
            expression.left.object.type === 'ThisExpression' &&
            propertyName(expression.left) === field
          ) {
            const assigned = expression;
            return remember(assigned, () => {
              const spec = specOf(assigned.right, file);
              return spec
                ? { name: field, spec, declaration: assigned, made: assigned.right, owner: body, module: file }
                : undefined;
            });
          }
        }
      }
    }
  }
  return undefined;
}

const imported = new WeakMap<FileContext, Map<string, Collection | null>>();

/** `import { seen } from './state'`: the collection a project module holds and exports, looked up once per file. */
function importedCollection(node: TSESTree.Identifier, file: FileContext): Collection | undefined {
  let known = imported.get(file);
  if (!known) imported.set(file, (known = new Map<string, Collection | null>()));
  const found = known.get(node.name);
  if (found !== undefined) return found ?? undefined;
  known.set(node.name, null);
  const source = importedExport(file, node);
  const value = source && source.member === undefined ? source.module.exportedValue(source.name) : undefined;
  const declared = value?.type === 'Identifier' ? value : value?.parent;
  const name =
    declared?.type === 'Identifier'
      ? declared
      : declared?.type === 'VariableDeclarator' && declared.id.type === 'Identifier'
        ? declared.id
        : undefined;
  const collection = name && source ? collectionOf(name, source.module) : undefined;
  known.set(node.name, collection ?? null);
  return collection;
}

function remember(declaration: TSESTree.Node, find: () => Collection | undefined): Collection | undefined {
  const known = collections.get(declaration);
  if (known !== undefined) return known ?? undefined;
  const found = find();
  collections.set(declaration, found ?? null);
  return found;
}

/** A collection made inside a function (`const batch = new Set()`): not long-lived, but still not a broker. */
export function localCollection(receiver: TSESTree.Node, module: FileContext): boolean {
  if (receiver.type !== 'Identifier') return false;
  const definition = variableOf(receiver, module.scopeOf(receiver))?.defs[0];
  return definition?.type === 'Variable' && specOf(definition.node.init, module) !== undefined;
}
