import type { TSESTree } from '@typescript-eslint/utils';

import { isFunction, typeReferenceOf, type FileContext, type FunctionNode } from '../context/file-context.js';
import { fieldDeclaration, keyName, propertyName, unwrapExpression } from '../syntax/nodes.js';
import { variableOf } from '../syntax/scope.js';
import { walk } from '../syntax/walk.js';
import { noteModuleFollowed, rememberedThisLint } from './files.js';
import { importedValue, moduleContext } from './modules.js';
import { typedDeclarationOf } from './typed-calls.js';

/**
 * The function a call runs, wherever the project declares it: in the file, exported by another
 * module (ESM or CommonJS), a static method of a class (`Keys.make()`), a method of an instance
 * made with `new`, held in a constant, a class field or a constructor parameter (`this.wallet.debit()`
 * with `constructor(private wallet: WalletService)`), or of an object literal; inherited methods
 * are found on the parent class. Read from syntax, never run; each step is bounded, and what
 * cannot be told is undefined, unless the lint has type information: then the checker is asked.
 */

export interface CalledFunction {
  module: FileContext;
  fn: FunctionNode;
}

type ClassNode = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/** What a receiver holds: a class itself (its statics), an instance of one, or an object literal. */
type Holder =
  | { module: FileContext; kind: 'class' | 'instance'; node: ClassNode }
  | { module: FileContext; kind: 'object'; node: TSESTree.ObjectExpression };

const maxInheritance = 3;

/** Answers by callee node, for every rule that asks. */
const resolved = rememberedThisLint((callee: TSESTree.Node, file: FileContext) => resolveCall(file, callee, true));
const resolvedHere = rememberedThisLint((callee: TSESTree.Node, file: FileContext) => resolveCall(file, callee, false));

export function calledFunction(
  file: FileContext,
  callee: TSESTree.Node,
  crossModules = true,
): CalledFunction | undefined {
  const found = (crossModules ? resolved : resolvedHere)(callee, file);
  // What the check read besides the file, for the editor to say: the helpers it followed.
  if (found && found.module !== file) noteModuleFollowed(found.module.filename);
  return found;
}

function resolveCall(file: FileContext, callee: TSESTree.Node, crossModules: boolean): CalledFunction | undefined {
  return syntacticCall(file, callee, crossModules) ?? typedCall(file, callee, crossModules);
}

function syntacticCall(file: FileContext, callee: TSESTree.Node, crossModules: boolean): CalledFunction | undefined {
  const local = file.localFunction(callee);
  if (local) return { module: file, fn: local };
  if (crossModules) {
    const imported = importedValue(file, callee);
    if (imported && isFunction(imported.node)) return { module: imported.module, fn: imported.node };
  }
  if (callee.type !== 'MemberExpression') return undefined;
  const method = propertyName(callee);
  const holder = method === undefined ? undefined : holderOf(file, unwrapExpression(callee.object), crossModules);
  return holder && method !== undefined ? memberFunction(holder, method, crossModules) : undefined;
}

/** What syntax cannot tell, the TypeScript program tells when the lint has one: the function its checker resolves the call to. */
function typedCall(file: FileContext, callee: TSESTree.Node, crossModules: boolean): CalledFunction | undefined {
  const call = callee.parent;
  if ((call?.type !== 'CallExpression' && call?.type !== 'NewExpression') || call.callee !== callee) return undefined;
  const declared = typedDeclarationOf(file.filename, call);
  if (!declared || (!crossModules && declared.filename !== file.filename)) return undefined;
  const module = declared.filename === file.filename ? file : moduleContext(declared.filename, file.libraries);
  const fn = module && functionSpanning(module, declared.start, declared.end);
  return module && fn ? { module, fn } : undefined;
}

/** The outermost function of the module that ends at `end` and begins at or after `start` (a method's value begins at its parameters). */
function functionSpanning(module: FileContext, start: number, end: number): FunctionNode | undefined {
  let found: FunctionNode | undefined;
  walk(module.sourceAst, module.visitorKeys, (node) => {
    if (found) return false;
    if (isFunction(node) && node.range[1] === end && node.range[0] >= start) {
      found = node;
      return false;
    }
    // Only what holds the declaration is entered.
    return node.range[0] <= start && node.range[1] >= end;
  });
  return found;
}

function memberFunction(holder: Holder, name: string, crossModules: boolean, depth = 0): CalledFunction | undefined {
  if (holder.kind === 'object') {
    const property = holder.node.properties.find(
      (item): item is TSESTree.Property => item.type === 'Property' && keyName(item) === name,
    );
    const value = property && unwrapExpression(property.value);
    // `export default { charge }`: a property naming a function of the same module.
    const fn = value && (isFunction(value) ? value : holder.module.localFunction(value));
    return fn ? { module: holder.module, fn } : undefined;
  }
  const wantStatic = holder.kind === 'class';
  for (const member of holder.node.body.body) {
    // A static block or an index signature has no name to call it by.
    if (!('key' in member) || !('static' in member) || member.static !== wantStatic) continue;
    if (keyName(member as TSESTree.MethodDefinition) !== name) continue;
    // An overload's signature has no body: the implementation is the method that does.
    if (member.type === 'MethodDefinition' && member.kind === 'method' && member.value.type === 'FunctionExpression')
      return { module: holder.module, fn: member.value };
    if (member.type === 'PropertyDefinition' && member.value && isFunction(member.value))
      return { module: holder.module, fn: member.value };
  }
  const parent = holder.node.superClass;
  if (!parent || depth >= maxInheritance) return undefined;
  const parentClass = classNamed(holder.module, parent, crossModules);
  return parentClass ? memberFunction({ ...parentClass, kind: holder.kind }, name, crossModules, depth + 1) : undefined;
}

/** The class a name (`WalletService`, `models.Wallet`) stands for, declared in the file or imported. */
function classNamed(
  file: FileContext,
  reference: TSESTree.Node,
  crossModules: boolean,
): { module: FileContext; node: ClassNode } | undefined {
  const value = valueOf(file, reference, crossModules);
  if (!value) return undefined;
  const node = unwrapExpression(value.node);
  return node.type === 'ClassDeclaration' || node.type === 'ClassExpression'
    ? { module: value.module, node }
    : undefined;
}

/** What a name in the file is declared as: its declaration or initial value, here or in the module it is imported from. */
function valueOf(
  file: FileContext,
  reference: TSESTree.Node,
  crossModules: boolean,
): { module: FileContext; node: TSESTree.Node } | undefined {
  if (reference.type === 'Identifier') {
    const variable = variableOf(reference, file.scopeOf(reference));
    const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (definition?.type === 'ClassName') return { module: file, node: definition.node as TSESTree.Node };
    if (definition?.type === 'Variable' && definition.node.init && !isRequire(definition.node.init))
      return { module: file, node: definition.node.init };
    if (definition?.type === 'Parameter') return undefined;
  }
  return crossModules ? importedValue(file, reference) : undefined;
}

function isRequire(node: TSESTree.Node): boolean {
  const inner = node.type === 'AwaitExpression' ? node.argument : node;
  return inner.type === 'CallExpression' && inner.callee.type === 'Identifier' && inner.callee.name === 'require';
}

function holderOf(file: FileContext, receiver: TSESTree.Node, crossModules: boolean): Holder | undefined {
  if (receiver.type === 'MemberExpression' && receiver.object.type === 'ThisExpression')
    return fieldHolder(file, receiver, crossModules);
  if (receiver.type === 'NewExpression') return instanceOf(file, receiver.callee, crossModules);
  if (receiver.type === 'Identifier') {
    const variable = variableOf(receiver, file.scopeOf(receiver));
    const definition = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    // A parameter declared with a class as its type: `(wallet: WalletService) => wallet.debit(…)`.
    if (definition?.type === 'Parameter') {
      const typed = typeReferenceOf(definition.name);
      return typed ? instanceOf(file, typed, crossModules) : undefined;
    }
  }
  const value = valueOf(file, receiver, crossModules);
  if (!value) return undefined;
  const node = unwrapExpression(value.node);
  if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression')
    return { module: value.module, kind: 'class', node };
  if (node.type === 'NewExpression') return instanceOf(value.module, node.callee, crossModules);
  if (node.type === 'ObjectExpression') return { module: value.module, kind: 'object', node };
  return undefined;
}

function instanceOf(file: FileContext, className: TSESTree.Node, crossModules: boolean): Holder | undefined {
  const found = classNamed(file, className, crossModules);
  return found && { module: found.module, kind: 'instance', node: found.node };
}

/** `this.wallet`: a field made with `new`, or declared (as a field or a constructor parameter) with a class as its type. */
function fieldHolder(
  file: FileContext,
  receiver: TSESTree.MemberExpression,
  crossModules: boolean,
): Holder | undefined {
  const declared = fieldDeclaration(receiver);
  if (declared?.type === 'PropertyDefinition') {
    const value = declared.value && unwrapExpression(declared.value);
    if (value?.type === 'NewExpression') return instanceOf(file, value.callee, crossModules);
  }
  const typed = declared && typeReferenceOf(declared.type === 'PropertyDefinition' ? declared : declared.parameter);
  return typed ? instanceOf(file, typed, crossModules) : undefined;
}
