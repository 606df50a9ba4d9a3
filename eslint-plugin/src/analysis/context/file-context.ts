import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import type { LibraryTable } from './library-table.js';
import { constantInitializer, variableOf } from '../syntax/scope.js';
import { calleeName, keyName, moduleExportName, propertyName, unwrapExpression } from '../syntax/nodes.js';
import { importsOf, type FileImports } from '../syntax/imports.js';
import { callsOf } from '../syntax/walk.js';

/**
 * The services every analysis of one file shares: its scopes and text, what it imports, where
 * each of its functions is called or registered, and the adapter table it is read with. Answers
 * are kept in plain maps that live as long as the file's SourceCode.
 */

export type FunctionNode =
  TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

/** A value another module of the project exports (`export const redis = new Redis()`), and what that module imports. */
export interface ImportedValue {
  value: TSESTree.Node;
  imports: FileImports;
}

/** What the analysis reads of a parsed file: ESLint's SourceCode for the linted file, a lighter stand-in for other modules. */
export interface SourceLike {
  readonly ast: TSESTree.Program;
  readonly visitorKeys: TSESLint.SourceCode.VisitorKeys;
  getScope(node: TSESTree.Node): TSESLint.Scope.Scope;
  getText(node?: TSESTree.Node): string;
}

interface CallIndex {
  byFunction: Map<TSESTree.Node, TSESTree.CallExpression[]>;
  byName: Map<string, TSESTree.CallExpression[]>;
}

export function isFunction(node: TSESTree.Node | undefined | null): node is FunctionNode {
  return (
    node?.type === 'FunctionDeclaration' ||
    node?.type === 'FunctionExpression' ||
    node?.type === 'ArrowFunctionExpression'
  );
}

export class FileContext {
  readonly imports: FileImports;
  private readonly sitesCache = new Map<FunctionNode, TSESTree.Node[]>();
  private calls: CallIndex | undefined;
  /** The classes declared at the top level, by name. */
  private classes: Map<string, TSESTree.ClassDeclaration> | undefined;

  constructor(
    private readonly sourceCode: Readonly<SourceLike>,
    readonly libraries: LibraryTable,
    /** The file's path, as ESLint gives it. */
    readonly filename: string,
    /** Reads what a project module exports (the project's modules are read on a floor above this one). */
    private readonly exports?: (file: FileContext, local: string) => ImportedValue | undefined,
  ) {
    this.imports = importsOf(sourceCode.ast);
  }

  /** What the project module this file imports `local` from exports under that name, with that module's imports. */
  importedValue(local: string): ImportedValue | undefined {
    return this.exports?.(this, local);
  }

  scopeOf = (node: TSESTree.Node): TSESLint.Scope.Scope => this.sourceCode.getScope(node);

  text = (node: TSESTree.Node): string => this.sourceCode.getText(node);

  get sourceAst(): TSESTree.Program {
    return this.sourceCode.ast;
  }

  get visitorKeys(): TSESLint.SourceCode.VisitorKeys {
    return this.sourceCode.visitorKeys;
  }

  /** The source of a node as messages quote it: on one line, at most 60 characters. */
  code(node: TSESTree.Node): string {
    const text = this.sourceCode.getText(node).replace(/\s+/g, ' ');
    return text.length > 60 ? `${text.slice(0, 57)}...` : text;
  }

  /** The function node and every reference to its name: where it is called or registered. */
  functionSites(fn: FunctionNode): TSESTree.Node[] {
    const cached = this.sitesCache.get(fn);
    if (cached) return cached;
    const sites: TSESTree.Node[] = [fn];
    let nameNode: TSESTree.Identifier | undefined;
    if (fn.type === 'FunctionDeclaration' && fn.id) nameNode = fn.id;
    else if (fn.parent?.type === 'VariableDeclarator' && fn.parent.id.type === 'Identifier') nameNode = fn.parent.id;
    if (nameNode) {
      const scope =
        fn.type === 'FunctionDeclaration' ? (this.scopeOf(fn).upper ?? this.scopeOf(fn)) : this.scopeOf(fn.parent);
      const variable = variableOf(nameNode, scope);
      for (const reference of variable?.references ?? []) {
        if (reference.identifier !== nameNode) sites.push(reference.identifier);
      }
    }
    const method = fn.parent;
    if (method?.type === 'MethodDefinition' || (method?.type === 'Property' && method.value === fn)) {
      sites.push(...this.thisCalls(method, keyName(method)));
    }
    if (method?.type === 'MethodDefinition')
      sites.push(...(method.static ? this.staticCalls(method) : this.instanceCalls(method)));
    this.sitesCache.set(fn, sites);
    return sites;
  }

  /** The calls of `fn` in this file: the references to it that are a call's callee. */
  callsTo(fn: FunctionNode): TSESTree.CallExpression[] {
    return this.functionSites(fn).flatMap((site) =>
      site.parent?.type === 'CallExpression' && site.parent.callee === site ? [site.parent] : [],
    );
  }

  /** The calls of the file, found in one walk: by the function they sit in, and by the name they call. */
  private callIndex(): CallIndex {
    if (this.calls) return this.calls;
    const index: CallIndex = { byFunction: new Map(), byName: new Map() };
    const add = <K>(map: Map<K, TSESTree.CallExpression[]>, key: K, call: TSESTree.CallExpression) => {
      const list = map.get(key);
      if (list) list.push(call);
      else map.set(key, [call]);
    };
    for (const call of callsOf(this.sourceCode.ast, this.sourceCode.visitorKeys, 200_000)) {
      let holder: TSESTree.Node | undefined = call.parent;
      while (holder && !isFunction(holder)) holder = holder.parent;
      if (holder) add(index.byFunction, holder, call);
      const name = calleeName(call.callee);
      if (name !== undefined) add(index.byName, name, call);
    }
    return (this.calls = index);
  }

  /** The calls of `name`, as a function or as a method of any receiver. */
  callsNamed(name: string): readonly TSESTree.CallExpression[] {
    return this.callIndex().byName.get(name) ?? [];
  }

  /** `receiver.name(…)` callees of the file. */
  private methodCallees(name: string): TSESTree.MemberExpression[] {
    return this.callsNamed(name).flatMap((call) => (call.callee.type === 'MemberExpression' ? [call.callee] : []));
  }

  /** The calls `fn` makes itself, in source order: not those of the functions nested in it. */
  callsIn(fn: FunctionNode): readonly TSESTree.CallExpression[] {
    return this.callIndex().byFunction.get(fn) ?? [];
  }

  /**
   * `handler.handle(job)` where `handler` is `new RefundHandler()`, is held in a field set so, or
   * is declared with the class as its type: the calls of a method on the class's instances.
   */
  private instanceCalls(method: TSESTree.MethodDefinition): TSESTree.Node[] {
    const name = keyName(method);
    const owner = method.parent.parent;
    const className =
      owner.type === 'ClassDeclaration' || owner.type === 'ClassExpression' ? owner.id?.name : undefined;
    if (!name || !className || method.static) return [];
    return this.methodCallees(name).filter((callee) => this.isInstanceOf(callee.object, className));
  }

  /** `IdempotencyService.check(…)`: the calls of a static method through its class's name. */
  private staticCalls(method: TSESTree.MethodDefinition): TSESTree.Node[] {
    const name = keyName(method);
    const owner = method.parent.parent;
    const className =
      owner.type === 'ClassDeclaration' || owner.type === 'ClassExpression' ? owner.id?.name : undefined;
    if (!name || !className) return [];
    return this.methodCallees(name).filter(
      (callee) => callee.object.type === 'Identifier' && callee.object.name === className,
    );
  }

  /** Does `receiver` hold an instance of the class `className`, as far as this file shows? */
  private isInstanceOf(receiver: TSESTree.Node, className: string): boolean {
    const node = unwrapExpression(receiver);
    const constructs = (value: TSESTree.Node | null | undefined) => {
      const inner = value && unwrapExpression(value);
      return inner?.type === 'NewExpression' && inner.callee.type === 'Identifier' && inner.callee.name === className;
    };
    if (node.type === 'NewExpression') return constructs(node);
    if (node.type === 'Identifier') {
      const variable = variableOf(node, this.scopeOf(node));
      const definition = variable?.defs[0];
      if (!definition) return false;
      if (definition.type === 'Variable' && constructs(constantInitializer(node, this.scopeOf(node)))) return true;
      return typeNameOf(definition.name) === className;
    }
    if (node.type === 'MemberExpression' && node.object.type === 'ThisExpression') {
      const field = propertyName(node);
      let body: TSESTree.Node | undefined = node.parent;
      while (body && body.type !== 'ClassBody') body = body.parent;
      if (!field || body?.type !== 'ClassBody') return false;
      for (const member of body.body) {
        if (member.type === 'PropertyDefinition' && keyName(member) === field) {
          return constructs(member.value) || typeNameOf(member) === className;
        }
        if (member.type === 'MethodDefinition' && member.kind === 'constructor') {
          for (const param of member.value.params) {
            if (
              param.type === 'TSParameterProperty' &&
              param.parameter.type === 'Identifier' &&
              param.parameter.name === field
            ) {
              return typeNameOf(param.parameter) === className;
            }
          }
        }
      }
    }
    return false;
  }

  /** `this.name(…)` calls in the class or object literal that holds a method. */
  private thisCalls(method: TSESTree.MethodDefinition | TSESTree.Property, name: string | undefined): TSESTree.Node[] {
    const owner = method.parent;
    if (!name || !owner) return [];
    return this.methodCallees(name).filter(
      (callee) =>
        callee.object.type === 'ThisExpression' &&
        owner.range[0] <= callee.range[0] &&
        callee.range[1] <= owner.range[1],
    );
  }

  /** The name this module exports `fn` by, if it exports it. */
  exportNameOf(fn: FunctionNode | TSESTree.ClassDeclaration): string | undefined {
    const parent = fn.parent;
    if (parent?.type === 'ExportDefaultDeclaration') return 'default';
    const local =
      fn.type === 'FunctionDeclaration' || fn.type === 'ClassDeclaration'
        ? fn.id?.name
        : parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier'
          ? parent.id.name
          : undefined;
    if (!local) return undefined;
    const declaration = fn.type === 'FunctionDeclaration' || fn.type === 'ClassDeclaration' ? fn : parent?.parent;
    if (declaration?.parent?.type === 'ExportNamedDeclaration') return local;
    for (const statement of this.sourceCode.ast.body) {
      if (
        statement.type === 'ExportDefaultDeclaration' &&
        statement.declaration.type === 'Identifier' &&
        statement.declaration.name === local
      )
        return 'default';
      if (statement.type !== 'ExportNamedDeclaration' || statement.source) continue;
      for (const specifier of statement.specifiers) {
        if (specifier.local.type === 'Identifier' && specifier.local.name === local) {
          return moduleExportName(specifier.exported);
        }
      }
    }
    return undefined;
  }

  /** The references, in this module, to a name it declares at its top level (an import, say). */
  referencesTo(name: string): TSESTree.Node[] {
    let scope: TSESLint.Scope.Scope | null = this.scopeOf(this.sourceCode.ast);
    const moduleScope = scope.childScopes.find((child) => child.type === 'module');
    if (moduleScope) scope = moduleScope;
    const variable = scope.set.get(name);
    return (variable?.references ?? []).map((reference) => reference.identifier as TSESTree.Node);
  }

  /** What the module exports under `name` (`default` for its default export): a function, or the value a top-level constant is made from. */
  exportedValue(name: string): TSESTree.Node | undefined {
    const declared = (local: string): TSESTree.Node | undefined => {
      for (const statement of this.sourceCode.ast.body) {
        const declaration =
          statement.type === 'ExportNamedDeclaration' && statement.declaration ? statement.declaration : statement;
        if (
          (declaration.type === 'FunctionDeclaration' || declaration.type === 'ClassDeclaration') &&
          declaration.id?.name === local
        )
          return declaration;
        if (declaration.type === 'VariableDeclaration') {
          for (const declarator of declaration.declarations) {
            if (declarator.id.type === 'Identifier' && declarator.id.name === local && declarator.init)
              return declarator.init;
          }
        }
      }
      return undefined;
    };
    for (const statement of this.sourceCode.ast.body) {
      if (statement.type === 'ExportDefaultDeclaration' && name === 'default') {
        const declaration = statement.declaration;
        return declaration.type === 'Identifier' ? declared(declaration.name) : declaration;
      }
      if (statement.type === 'ExportNamedDeclaration' && !statement.source) {
        for (const specifier of statement.specifiers) {
          const exported = moduleExportName(specifier.exported);
          if (exported === name && specifier.local.type === 'Identifier') return declared(specifier.local.name);
        }
        const declaration = statement.declaration;
        if (
          declaration &&
          (declaration.type === 'FunctionDeclaration' ||
            declaration.type === 'VariableDeclaration' ||
            declaration.type === 'ClassDeclaration')
        ) {
          const found = declared(name);
          if (found) return found;
        }
      }
    }
    return undefined;
  }

  /** The class this module declares at its top level under `name`. */
  classNamed(name: string): TSESTree.ClassDeclaration | undefined {
    if (!this.classes) {
      this.classes = new Map();
      for (const statement of this.sourceCode.ast.body) {
        const declaration =
          (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') &&
          statement.declaration
            ? statement.declaration
            : statement;
        if (declaration.type !== 'ClassDeclaration' || !declaration.id) continue;
        // The first declaration of a name is the one asked for.
        if (!this.classes.has(declaration.id.name)) this.classes.set(declaration.id.name, declaration);
      }
    }
    return this.classes.get(name);
  }

  /** The function the module exports under `name`, if what it exports there is one. */
  exportedFunction(name: string): FunctionNode | undefined {
    const value = this.exportedValue(name);
    return isFunction(value) ? value : undefined;
  }

  /** A function declared in this file that `callee` names: a function, a constant arrow, or a method called on `this`. */
  localFunction(callee: TSESTree.Node): FunctionNode | undefined {
    if (callee.type === 'Identifier') {
      const variable = variableOf(callee, this.scopeOf(callee));
      const definition = variable?.defs[0];
      if (variable?.defs.length !== 1 || !definition) return undefined;
      if (definition.type === 'FunctionName' && isFunction(definition.node)) return definition.node;
      if (definition.type === 'Variable' && isFunction(definition.node.init)) return definition.node.init;
      return undefined;
    }
    if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier') {
      // `IdempotencyService.check(…)`: a static method of a class this file declares.
      const name = propertyName(callee);
      const owner = this.classNamed(callee.object.name);
      for (const member of owner?.body.body ?? []) {
        if (
          member.type === 'MethodDefinition' &&
          member.static &&
          member.value.type === 'FunctionExpression' &&
          member.value.body &&
          keyName(member) === name
        )
          return member.value;
      }
      return undefined;
    }
    if (callee.type === 'MemberExpression' && callee.object.type === 'ThisExpression') {
      const name = propertyName(callee);
      let owner: TSESTree.Node | undefined = callee.parent;
      while (owner && owner.type !== 'ClassBody') owner = owner.parent;
      if (!owner || owner.type !== 'ClassBody' || !name) return undefined;
      for (const member of owner.body) {
        // An overload's signature has no body: the implementation is the method that does.
        if (
          member.type === 'MethodDefinition' &&
          member.value.type === 'FunctionExpression' &&
          keyName(member) === name
        )
          return member.value;
      }
    }
    return undefined;
  }
}

/** The simple type name a binding or field is declared with: `RefundHandler` for `h: RefundHandler`. */
export function typeNameOf(node: TSESTree.Node): string | undefined {
  return typeReferenceOf(node)?.name;
}

/** The name node of a simple class type a binding is declared with (`WalletService` of `w: WalletService`). */
export function typeReferenceOf(node: TSESTree.Node): TSESTree.Identifier | undefined {
  const annotation =
    'typeAnnotation' in node ? (node.typeAnnotation as TSESTree.TSTypeAnnotation | undefined) : undefined;
  const type = annotation?.typeAnnotation;
  return type?.type === 'TSTypeReference' && type.typeName.type === 'Identifier' ? type.typeName : undefined;
}
