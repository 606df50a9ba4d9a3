import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import type { LibraryTable } from './library-table.js';
import { keyName, propertyName, variableOf } from './scope.js';
import { walk } from './walk.js';

/**
 * The services every analysis of one file shares: its scopes and text, what it imports, where
 * each of its functions is called or registered, and the adapter table it is read with. Answers
 * are kept in plain maps that live as long as the file's SourceCode.
 */

export type FunctionNode = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

export interface FileImports {
  /** Module sources imported or required anywhere in the file. */
  sources: Set<string>;
  /** Local binding name → module source. */
  bindings: Map<string, string>;
}

export function isFunction(node: TSESTree.Node | undefined | null): node is FunctionNode {
  return node?.type === 'FunctionDeclaration' || node?.type === 'FunctionExpression' || node?.type === 'ArrowFunctionExpression';
}

function importsOf(program: TSESTree.Program): FileImports {
  const sources = new Set<string>();
  const bindings = new Map<string, string>();
  const visitRequire = (node: TSESTree.Node | null | undefined, pattern?: TSESTree.Node) => {
    if (node?.type === 'AwaitExpression') node = node.argument;
    if (node?.type !== 'CallExpression' || node.callee.type !== 'Identifier' || node.callee.name !== 'require') return;
    const [argument] = node.arguments;
    if (argument?.type !== 'Literal' || typeof argument.value !== 'string') return;
    sources.add(argument.value);
    if (pattern?.type === 'Identifier') bindings.set(pattern.name, argument.value);
    if (pattern?.type === 'ObjectPattern') {
      for (const property of pattern.properties) {
        if (property.type === 'Property' && property.value.type === 'Identifier') bindings.set(property.value.name, argument.value);
      }
    }
  };
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      sources.add(statement.source.value);
      for (const specifier of statement.specifiers) bindings.set(specifier.local.name, statement.source.value);
    } else if (statement.type === 'VariableDeclaration') {
      for (const declarator of statement.declarations) visitRequire(declarator.init, declarator.id);
    }
  }
  return { sources, bindings };
}

export class FileContext {
  readonly imports: FileImports;
  private readonly sitesCache = new Map<FunctionNode, TSESTree.Node[]>();

  constructor(
    private readonly sourceCode: Readonly<TSESLint.SourceCode>,
    readonly libraries: LibraryTable,
  ) {
    this.imports = importsOf(sourceCode.ast);
  }

  scopeOf = (node: TSESTree.Node): TSESLint.Scope.Scope => this.sourceCode.getScope(node);

  text = (node: TSESTree.Node): string => this.sourceCode.getText(node);

  get visitorKeys(): TSESLint.SourceCode.VisitorKeys {
    return this.sourceCode.visitorKeys;
  }

  /** The source of a node as messages quote it: at most 60 characters. */
  code(node: TSESTree.Node): string {
    const text = this.sourceCode.getText(node);
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
      const scope = fn.type === 'FunctionDeclaration' ? this.scopeOf(fn).upper ?? this.scopeOf(fn) : this.scopeOf(fn.parent!);
      const variable = variableOf(nameNode, scope);
      for (const reference of variable?.references ?? []) {
        if (reference.identifier !== nameNode) sites.push(reference.identifier as TSESTree.Node);
      }
    }
    const method = fn.parent;
    if (method?.type === 'MethodDefinition' || (method?.type === 'Property' && method.value === fn)) {
      sites.push(...this.thisCalls(method, keyName(method)));
    }
    this.sitesCache.set(fn, sites);
    return sites;
  }

  /** `this.name(…)` calls in the class or object literal that holds a method. */
  private thisCalls(method: TSESTree.MethodDefinition | TSESTree.Property, name: string | undefined): TSESTree.Node[] {
    if (!name) return [];
    const owner = method.parent;
    const found: TSESTree.Node[] = [];
    if (!owner) return found;
    walk(owner, this.sourceCode.visitorKeys, (current) => {
      if (
        current.type === 'MemberExpression' &&
        current.object.type === 'ThisExpression' &&
        propertyName(current) === name &&
        current.parent?.type === 'CallExpression' &&
        current.parent.callee === current
      ) {
        found.push(current);
      }
    });
    return found;
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
    if (callee.type === 'MemberExpression' && callee.object.type === 'ThisExpression') {
      const name = propertyName(callee);
      let owner: TSESTree.Node | undefined = callee.parent;
      while (owner && owner.type !== 'ClassBody') owner = owner.parent;
      if (!owner || owner.type !== 'ClassBody' || !name) return undefined;
      for (const member of owner.body) {
        if (member.type === 'MethodDefinition' && keyName(member) === name) return member.value as FunctionNode;
      }
    }
    return undefined;
  }
}
