import type { TSESTree } from '@typescript-eslint/utils';

import type { BrokerAdapter, Evidence, HandlerPattern, ShapeId } from '../contract/adapter.js';
import { guessed, listOf, shaped, type Fact } from './facts.js';
import type { FileContext, FunctionNode } from '../context/file-context.js';
import { rememberedThisLint } from '../project/files.js';
import { sitesInImporters } from '../project/import-sites.js';
import { calleeName, keyName, memberPath, propertyName } from '../syntax/nodes.js';

/**
 * Which functions handle a delivery, and what each of their parameters holds. A function is a
 * handler because of where it is registered (a property, a call, a constructor, a decorator, a
 * declared handler type: the adapters' `handlers`), because of its parameters' types, or, as a
 * last resort, because of its parameters' names.
 */

type Target = Extract<HandlerPattern, { shape: ShapeId }>;

export function parameterName(param: TSESTree.Parameter | undefined): string | undefined {
  const inner = param?.type === 'AssignmentPattern' ? param.left : param;
  return inner?.type === 'Identifier' ? inner.name : undefined;
}

/** Is `evidence` (any one of its kinds) found for a registration or a call of `adapter`? */
export function hasEvidence(
  evidence: Evidence | undefined,
  adapter: BrokerAdapter,
  file: FileContext,
  receiver: string,
  param: string | undefined,
): boolean {
  if (!evidence) return true;
  return Boolean(
    (evidence.imports && file.libraries.imported(adapter, file.imports)) ||
    (evidence.receiver && evidence.receiver.test(receiver)) ||
    (evidence.parameterName && param !== undefined && evidence.parameterName.test(param)),
  );
}

/** What a registered handler's parameter holds, for the pattern that registered it. */
function targetFacts(pattern: Target, fn: FunctionNode, index: number, code: string): Fact[] | undefined {
  if ((pattern.parameter ?? 0) !== index) return undefined;
  const param = fn.params[index];
  const plural = param?.type === 'ArrayPattern' || /(jobs|messages|records|batch)$/i.test(parameterName(param) ?? '');
  return pattern.list || (pattern.listWhenPlural && plural)
    ? [listOf(pattern.shape, code)]
    : [shaped(pattern.shape, code)];
}

/** A handler pattern and the adapter that gives it. */
interface Registration {
  adapter: BrokerAdapter;
  pattern: Target;
}

/** The handler patterns that register whatever stands at `site` (a function, or a reference to one), where their evidence is found. */
export function registrationsAt(site: TSESTree.Node, file: FileContext, param: string | undefined): Registration[] {
  const parent = site.parent;
  if (!parent) return [];
  const table = file.libraries;
  const found: Registration[] = [];
  if (parent.type === 'Property' && parent.value === site) {
    const key = keyName(parent);
    for (const { adapter, pattern } of (key !== undefined && table.byProperty.get(key)) || []) {
      let receiver = '';
      if (pattern.inCall !== undefined) {
        const call = parent.parent.parent;
        // `task({ run })`, `new CronJob({ onTick })`.
        if (
          (call?.type !== 'CallExpression' && call?.type !== 'NewExpression') ||
          !call.arguments.includes(parent.parent) ||
          calleeName(call.callee) !== pattern.inCall
        )
          continue;
        receiver = call.callee.type === 'MemberExpression' ? (memberPath(call.callee.object)?.join('.') ?? '') : '';
      }
      if (hasEvidence(pattern.evidence, adapter, file, receiver, param)) found.push({ adapter, pattern });
    }
    return found;
  }
  if (
    (parent.type === 'CallExpression' || parent.type === 'NewExpression') &&
    parent.arguments.includes(site as TSESTree.CallExpressionArgument)
  ) {
    const position = parent.arguments.indexOf(site as TSESTree.CallExpressionArgument);
    const method = calleeName(parent.callee);
    if (!method) return found;
    const receiver =
      parent.callee.type === 'MemberExpression' ? (memberPath(parent.callee.object)?.join('.') ?? '') : '';
    const candidates = parent.type === 'NewExpression' ? table.byConstruct.get(method) : table.byCall.get(method);
    for (const { adapter, pattern } of candidates ?? []) {
      if (position < pattern.argument || (pattern.exactly && position !== pattern.argument)) continue;
      if (!hasEvidence(pattern.evidence, adapter, file, receiver, param)) continue;
      if ('event' in pattern && pattern.event !== undefined) {
        const event = parent.arguments[0];
        if (event?.type !== 'Literal' || event.value !== pattern.event) continue;
      }
      found.push({ adapter, pattern });
    }
  }
  return found;
}

/** The facts of parameter `index` of `fn`, from how `fn` is registered at `site`. */
function fromRegistration(
  fn: FunctionNode,
  site: TSESTree.Node,
  index: number,
  code: string,
  file: FileContext,
): Fact[] | undefined {
  for (const { pattern } of registrationsAt(site, file, parameterName(fn.params[index]))) {
    const found = targetFacts(pattern, fn, index, code);
    if (found) return found;
  }
  return undefined;
}

function decoratorName(decorator: TSESTree.Decorator): string | undefined {
  const expression = decorator.expression;
  if (expression.type === 'CallExpression') return calleeName(expression.callee);
  if (expression.type === 'Identifier') return expression.name;
  return undefined;
}

/** A decorated method (`@EventPattern() on(@Payload() data, @Ctx() context)`), or a method of a decorated class. */
function fromDecorators(
  fn: FunctionNode,
  index: number,
  param: TSESTree.Parameter,
  code: string,
  file: FileContext,
): Fact[] | undefined {
  // espree leaves `decorators` out entirely; typescript-eslint gives an empty list.
  const method = fn.parent;
  if (method?.type !== 'MethodDefinition' || method.value !== fn) return undefined;
  const table = file.libraries;
  const parameterDecorators = ('decorators' in param ? (param.decorators ?? []) : []).map(decoratorName);
  for (const name of (method.decorators ?? []).map(decoratorName)) {
    for (const { adapter, pattern } of (name && table.byDecorator.get(name)) || []) {
      if (!hasEvidence(pattern.evidence, adapter, file, '', undefined)) continue;
      for (const decorator of parameterDecorators) {
        const shape = decorator && pattern.byParameterDecorator?.[decorator];
        if (shape) return [shaped(shape, code)];
      }
      const shape = pattern.byPosition[index];
      if (shape) return [shaped(shape, code)];
    }
  }
  const classNode = method.parent.parent;
  if (classNode?.type !== 'ClassDeclaration' && classNode?.type !== 'ClassExpression') return undefined;
  for (const name of (classNode.decorators ?? []).map(decoratorName)) {
    for (const { pattern } of (name && table.byClassDecorator.get(name)) || []) {
      if (keyName(method) !== pattern.method) continue;
      const found = targetFacts(pattern, fn, index, code);
      if (found) return found;
    }
  }
  return undefined;
}

function typeReference(param: TSESTree.Node): TSESTree.EntityName | undefined {
  const annotation =
    'typeAnnotation' in param ? (param.typeAnnotation as TSESTree.TSTypeAnnotation | undefined) : undefined;
  const type = annotation?.typeAnnotation;
  return type?.type === 'TSTypeReference' ? type.typeName : undefined;
}

function typeName(param: TSESTree.Node): string | undefined {
  const name = typeReference(param);
  if (name?.type === 'Identifier') return name.name;
  if (name?.type === 'TSQualifiedName') return name.right.name;
  return undefined;
}

/** The imported name a type is reached through: `Message`, or `Lib` of `Lib.Event`. */
function typeBinding(param: TSESTree.Node): string | undefined {
  let name: TSESTree.EntityName | undefined = typeReference(param);
  while (name?.type === 'TSQualifiedName') name = name.left;
  return name?.type === 'Identifier' ? name.name : undefined;
}

/** A parameter whose declared type says what it holds, or a handler whose variable's type does. */
function fromTypes(
  fn: FunctionNode,
  index: number,
  param: TSESTree.Node,
  code: string,
  file: FileContext,
): Fact[] | undefined {
  const table = file.libraries;
  const name = typeName(param);
  for (const { pattern } of (name && table.byType.get(name)) || []) {
    if (pattern.from && !pattern.from.includes(file.imports.bindings.get(typeBinding(param) ?? '') ?? '')) continue;
    return [shaped(pattern.shape, code)];
  }
  const declarator = fn.parent;
  if (declarator?.type === 'VariableDeclarator' && declarator.init === fn) {
    const handlerType = typeName(declarator.id);
    for (const { pattern } of (handlerType && table.byHandlerType.get(handlerType)) || []) {
      const found = targetFacts(pattern, fn, index, code);
      if (found) return found;
    }
  }
  return undefined;
}

/** The last resort: names. `message` and `job` hold a delivery, `jobs` and `messages` a list of them. */
export function deliveryByName(name: string, file: FileContext): Fact[] | undefined {
  for (const names of file.libraries.deliveryNames) {
    if (names.one.test(name)) return [guessed(shaped(names.shape, name))];
    if (names.many.test(name)) return [guessed(listOf(names.shape, name))];
  }
  return undefined;
}

export function functionName(fn: FunctionNode): string | undefined {
  if (fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if ((parent?.type === 'Property' || parent?.type === 'MethodDefinition') && parent.value === fn)
    return keyName(parent);
  // `exports.handler = async (event) => …`, `module.exports.handler = …`.
  if (parent?.type === 'AssignmentExpression' && parent.right === fn && parent.left.type === 'MemberExpression')
    return propertyName(parent.left);
  return undefined;
}

/** Is `fn` exported from its module, as ESM or CommonJS (`exports.handler = …`)? */
function isExported(fn: FunctionNode, file: FileContext): boolean {
  if (file.exportNameOf(fn) !== undefined) return true;
  const parent = fn.parent;
  if (parent?.type !== 'AssignmentExpression' || parent.left.type !== 'MemberExpression') return false;
  const target: TSESTree.Node = parent.left.object;
  if (
    target.type === 'MemberExpression' &&
    target.object.type === 'Identifier' &&
    target.object.name === 'module' &&
    propertyName(target) === 'exports'
  )
    return true;
  return target.type === 'Identifier' && target.name === 'exports';
}

/**
 * A function a platform runs by its exported name, with its parameter named as the platform
 * names it (`exports.handler = async (event) => …` for a Lambda): an entry point even without
 * types, since the export is how the platform finds it, and it runs again on a retried event.
 */
export function isNamedEntryPoint(fn: FunctionNode, file: FileContext): boolean {
  const name = functionName(fn);
  const first = parameterName(fn.params[0]);
  if (name === undefined || first === undefined) return false;
  return (
    file.libraries.namedHandlers.some((handler) => handler.functionName === name && handler.parameterName === first) &&
    isExported(fn, file)
  );
}

/**
 * What parameter `index` of `fn` holds when `fn` is a handler, judged from its declared types and
 * from the places it is registered (`sites`: the function itself and every reference to its name).
 */
export function handlerParameter(
  fn: FunctionNode,
  index: number,
  sites: readonly TSESTree.Node[],
  file: FileContext,
): Fact[] | undefined {
  const known = parametersOf(fn);
  if (!known.has(index)) known.set(index, parameterRole(fn, index, sites, file));
  return known.get(index);
}

/** The answers for a function's parameters, by index: the rules and the tracer each ask. */
const parametersOf = rememberedThisLint((_fn: FunctionNode) => new Map<number, Fact[] | undefined>());

function parameterRole(
  fn: FunctionNode,
  index: number,
  sites: readonly TSESTree.Node[],
  file: FileContext,
): Fact[] | undefined {
  const param = fn.params[index];
  if (!param) return undefined;
  const code = param.type === 'Identifier' ? param.name : `parameter ${index + 1}`;
  const typed = fromTypes(fn, index, param, code, file);
  if (typed) return typed;
  for (const site of sites) {
    const found = fromRegistration(fn, site, index, code, file);
    if (found) return found;
  }
  const decorated = fromDecorators(fn, index, param, code, file);
  if (decorated) return decorated;
  // Defined here, registered in another module: `eachMessage: handleRefund` over there.
  for (const { module, site } of sitesInImporters(fn, file)) {
    const found = fromRegistration(fn, site, index, code, module);
    if (found) return found;
  }
  return undefined;
}

/**
 * The adapter that registers `fn` (at `sites`, by decorators, in importers) and the shape it gives
 * it, whatever its parameters: `cron.schedule(expr, async () => …)` and `@Cron() sweep()` have none.
 */
export function registrationOf(
  fn: FunctionNode,
  sites: readonly TSESTree.Node[],
  file: FileContext,
): { adapter: BrokerAdapter; shape?: ShapeId } | undefined {
  const atSite = (site: TSESTree.Node, module: FileContext) => {
    const [found] = registrationsAt(site, module, parameterName(fn.params[0]));
    return found && { adapter: found.adapter, shape: found.pattern.shape };
  };
  const here = sites.map((site) => atSite(site, file)).find(Boolean);
  if (here) return here;
  const method = fn.parent;
  if (method?.type === 'MethodDefinition' && method.value === fn) {
    const table = file.libraries;
    for (const name of (method.decorators ?? []).map(decoratorName)) {
      for (const { adapter, pattern } of (name && table.byDecorator.get(name)) || []) {
        if (hasEvidence(pattern.evidence, adapter, file, '', undefined))
          return { adapter, shape: pattern.shape ?? pattern.byPosition.find((shape) => shape !== undefined) };
      }
    }
    const classNode = method.parent.parent;
    if (classNode?.type === 'ClassDeclaration' || classNode?.type === 'ClassExpression') {
      for (const name of (classNode.decorators ?? []).map(decoratorName)) {
        for (const { adapter, pattern } of (name && table.byClassDecorator.get(name)) || []) {
          if (keyName(method) === pattern.method) return { adapter, shape: pattern.shape };
        }
      }
    }
  }
  for (const { module, site } of sitesInImporters(fn, file)) {
    const found = atSite(site, module);
    if (found) return found;
  }
  return undefined;
}

/** Names are consulted only when nothing else in the file says what a parameter holds. */
export function namedParameter(fn: FunctionNode, index: number, file: FileContext): Fact[] | undefined {
  const name = parameterName(fn.params[index]);
  if (name === undefined) return undefined;
  const owner = functionName(fn);
  for (const handler of file.libraries.namedHandlers) {
    if (index === 0 && owner === handler.functionName && name === handler.parameterName)
      return [guessed(shaped(handler.shape, name))];
  }
  return deliveryByName(name, file);
}

/**
 * Does `node` run in a command an operator runs by hand: a method its library's decorator makes
 * a command (`@Command({ command: 'users:import' })`), or any method of a class so decorated?
 */
export function inCommand(node: TSESTree.Node, file: FileContext): boolean {
  const names = file.libraries.commandDecorators;
  if (names.size === 0) return false;
  const decorated = (decorators: readonly TSESTree.Decorator[] | undefined) =>
    (decorators ?? []).some((decorator) => names.has(decoratorName(decorator) ?? ''));
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === 'MethodDefinition' && decorated(current.decorators)) return true;
    if ((current.type === 'ClassDeclaration' || current.type === 'ClassExpression') && decorated(current.decorators))
      return true;
  }
  return false;
}
