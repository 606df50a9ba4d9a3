import type { TSESTree } from '@typescript-eslint/utils';

import { isFunction, type FileContext, type FunctionNode } from '../context/file-context.js';
import { calledFunction } from '../project/calls.js';
import { propertyName } from '../syntax/nodes.js';
import { variableOf } from '../syntax/scope.js';
import { parameterName, registrationsAt } from './entry-points.js';

/**
 * The project's own wrappers of a broker's registration: `rabbit.consume(queue, handle)` registers
 * `handle` when the project function `consume` hands its parameter to `channel.consume`.
 */

const wrappers = new WeakMap<FunctionNode, Map<number, boolean>>();
const maxWrapperDepth = 2;

/**
 * Does the project function `fn` register its parameter `index` as a handler: hand it to a
 * broker's registration (`channel.consume(queue, handler)`), call it from a function it registers
 * (`channel.consume(queue, async (msg) => handler(parse(msg)))`), or pass it on to another such
 * wrapper? Then `rabbit.consume(queue, handle)` registers `handle` too.
 */
export function registersParameter(fn: FunctionNode, index: number, file: FileContext, depth = 0): boolean {
  let known = wrappers.get(fn);
  if (!known) wrappers.set(fn, (known = new Map<number, boolean>()));
  const cached = known.get(index);
  if (cached !== undefined) return cached;
  known.set(index, false);
  let param: TSESTree.Node | undefined = fn.params[index];
  if (param?.type === 'AssignmentPattern') param = param.left;
  if (param?.type !== 'Identifier') return false;
  const variable = variableOf(param, file.scopeOf(param));
  const answer = (variable?.references ?? []).some((reference) => {
    const use = reference.identifier as TSESTree.Node;
    if (!reference.isRead()) return false;
    if (registrationsAt(use, file, undefined).length > 0) return true;
    const parent = use.parent;
    if (parent?.type === 'CallExpression' && parent.callee === use) {
      for (let around: TSESTree.Node | undefined = parent.parent; around && around !== fn; around = around.parent) {
        if (isFunction(around) && registrationsAt(around, file, parameterName(around.params[0])).length > 0)
          return true;
      }
      return false;
    }
    return depth < maxWrapperDepth && parent?.type === 'CallExpression' && passedToWrapper(use, file, depth + 1);
  });
  known.set(index, answer);
  return answer;
}

/**
 * Is `site` (a function, or a reference to one, maybe bound: `this.handle.bind(this)`) an argument
 * of a call to a project function that registers it as a handler?
 */
export function passedToWrapper(site: TSESTree.Node, file: FileContext, depth = 0): boolean {
  let argument = site;
  const bound = site.parent;
  if (
    bound?.type === 'MemberExpression' &&
    bound.object === site &&
    propertyName(bound) === 'bind' &&
    bound.parent?.type === 'CallExpression' &&
    bound.parent.callee === bound
  )
    argument = bound.parent;
  const call = argument.parent;
  if (call?.type !== 'CallExpression' || call.callee === argument) return false;
  const index = call.arguments.indexOf(argument as TSESTree.CallExpressionArgument);
  const target = index >= 0 ? calledFunction(file, call.callee) : undefined;
  if (target === undefined) return false;
  if (registersParameter(target.fn, index, target.module, depth)) return true;
  // A factory of handlers: `new Worker(queue, createWorkerHandler(execute))`, where the function
  // `createWorkerHandler` returns calls `execute`.
  return returnsCallerOf(target.fn, index, target.module) && registrationsAt(call, file, undefined).length > 0;
}

/** Does `fn` return a function that calls its parameter `index` (`(handler) => async (job) => handler(job)`)? */
function returnsCallerOf(fn: FunctionNode, index: number, file: FileContext): boolean {
  const param = fn.params[index];
  if (param?.type !== 'Identifier') return false;
  return (variableOf(param, file.scopeOf(param))?.references ?? []).some((reference) => {
    const use = reference.identifier as TSESTree.Node;
    if (use.parent?.type !== 'CallExpression' || use.parent.callee !== use) return false;
    for (let around: TSESTree.Node | undefined = use.parent.parent; around && around !== fn; around = around.parent) {
      if (isFunction(around) && returnedBy(around, fn)) return true;
    }
    return false;
  });
}

/** Is the function `inner` what `fn` returns: its arrow's body, or the value of one of its own `return`s? */
function returnedBy(inner: FunctionNode, fn: FunctionNode): boolean {
  if (fn.body === inner) return true;
  if (inner.parent?.type !== 'ReturnStatement') return false;
  for (let around: TSESTree.Node | undefined = inner.parent.parent; around; around = around.parent) {
    if (isFunction(around)) return around === fn;
  }
  return false;
}
