import type { TSESTree } from '@typescript-eslint/utils';

import { isFunction, type FileContext, type FunctionNode } from '../context/file-context.js';
import type { Leaf } from '../origin/facts.js';
import { calledFunction } from '../project/calls.js';
import { calleeName, enclosingLiteral, spans } from '../syntax/nodes.js';
import { variableOf } from '../syntax/scope.js';
import { walk } from '../syntax/walk.js';

/**
 * Retries inside one attempt: a key made once and sent again by the code's own retry loop (a
 * `for` around the call, a `fetchWithRetry(url, options)`, `pRetry(() => send(key))`) is the
 * same on every try, which is what the key is for there. Whether the whole attempt repeats is
 * another question, answered where the attempt starts (a delivery handler).
 */

/** A callee that says it retries, when its code cannot be read (a package): `retry`, `fetchWithRetry`, `backOff`. */
const retryingName = /retr(y|ies|ying)|backoff/i;

const loops = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);

const summaries = new WeakMap<FunctionNode, boolean[]>();

/**
 * Does `fn` use its parameter `index` inside a loop of its own body (calls it, or passes it on),
 * or hand it to itself again (`return this.postWithRetry(url, body, headers, --tries)`), so one
 * call uses it many times?
 */
function repeatsParameter(fn: FunctionNode, index: number, file: FileContext): boolean {
  let known = summaries.get(fn);
  if (!known) summaries.set(fn, (known = []));
  const cached = known[index];
  if (cached !== undefined) return cached;
  known[index] = false;
  let param: TSESTree.Node | undefined = fn.params[index];
  if (param?.type === 'AssignmentPattern') param = param.left;
  if (param?.type !== 'Identifier' || fn.body.type !== 'BlockStatement') return false;
  const variable = variableOf(param, file.scopeOf(fn.body));
  const uses = new Set((variable?.references ?? []).map((reference) => reference.identifier as TSESTree.Node));
  let repeated = false;
  walk(
    fn.body,
    file.visitorKeys,
    (node) => {
      if (repeated) return false;
      if (
        node.type === 'CallExpression' &&
        node.arguments.some((argument) => uses.has(argument)) &&
        calledFunction(file, node.callee)?.fn === fn
      )
        repeated = true;
      if (!loops.has(node.type)) return !repeated;
      walk(node, file.visitorKeys, (inner) => {
        if (uses.has(inner) && inner.parent?.type !== 'AssignmentExpression') repeated = true;
        return !repeated;
      });
      return false;
    },
    20_000,
  );
  known[index] = repeated;
  return repeated;
}

/** Does the call use its argument `index` many times: a project function that loops over it, or a package call named for retrying? */
function callRepeats(call: TSESTree.CallExpression, index: number, file: FileContext): boolean {
  const callee = call.callee;
  const target = calledFunction(file, callee);
  if (target) return repeatsParameter(target.fn, index, target.module);
  return retryingName.test(calleeName(callee) ?? '');
}

function inside(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return inner.range[0] >= outer.range[0] && inner.range[1] <= outer.range[1];
}

/**
 * Does the value at `node` change from one repeat of `region` to the next: does it read (itself,
 * or through bindings made inside the region) the loop's own variable or the repeated function's
 * parameter? `${key}_slot_${i}` in `for (let i …)` is a new key for each slot, not a retry.
 */
function variesPerRepeat(node: TSESTree.Node, region: TSESTree.Node, file: FileContext): boolean {
  const header = isFunction(region)
    ? region.params
    : region.type === 'ForStatement'
      ? [region.init]
      : region.type === 'ForOfStatement' || region.type === 'ForInStatement'
        ? [region.left]
        : [];
  const seen = new Set<TSESTree.Node>();
  const reads = (value: TSESTree.Node, depth: number): boolean => {
    let varies = false;
    walk(
      value,
      file.visitorKeys,
      (inner) => {
        if (varies || seen.has(inner)) return false;
        seen.add(inner);
        if (inner.type !== 'Identifier') return true;
        const definition = variableOf(inner, file.scopeOf(inner))?.defs[0];
        const declared = definition?.name as TSESTree.Node | undefined;
        if (!definition || !declared || !inside(region, declared)) return true;
        if (header.some((part) => part && inside(part, declared))) varies = true;
        else if (definition.type === 'Variable' && definition.node.init && depth < 4)
          varies = reads(definition.node.init, depth + 1);
        return !varies;
      },
      5_000,
    );
    return varies;
  };
  return reads(node, 0);
}

/**
 * Is the key at `node`, built from the fresh values `fresh`, sent again by a retry inside the
 * same attempt with the same value? True when the value it sits in is handed to a call that
 * repeats it, or when the key is sent from a loop (or a function handed to a repeating call)
 * and every fresh value was made before it, outside.
 */
export function reusedByRetries(node: TSESTree.Node, fresh: readonly Leaf[], file: FileContext, depth = 0): boolean {
  // A key held in a binding, or the options that hold it (`const headers = { 'Idempotency-Key': key }`), is sent where the binding is read.
  const declarator = node.parent;
  if (declarator?.type === 'VariableDeclarator' && declarator.init === node && declarator.id.type === 'Identifier') {
    const reads = (variableOf(declarator.id, file.scopeOf(declarator)) ?? { references: [] }).references.filter(
      (reference) => reference.isRead(),
    );
    return reads.length > 0 && reads.some((reference) => sentAgain(reference.identifier, fresh, file, depth));
  }
  return sentAgain(node, fresh, file, depth);
}

function sentAgain(node: TSESTree.Node, fresh: readonly Leaf[], file: FileContext, depth: number): boolean {
  const current = enclosingLiteral(node);
  if (current !== node && depth < 2) return reusedByRetries(current, fresh, file, depth + 1);
  // Only a value handed to a call as it is: one made into another value is judged where that one is sent.
  const parent = current.parent;
  const index =
    parent?.type === 'CallExpression' ? parent.arguments.indexOf(current as TSESTree.CallExpressionArgument) : -1;
  if (parent?.type !== 'CallExpression' || index < 0) return false;
  if (callRepeats(parent, index, file)) return true;
  const madeOutside = (region: TSESTree.Node) =>
    fresh.length > 0 &&
    fresh.every((fact) => fact.at !== undefined && !fact.at.file && !spans(region, fact.at)) &&
    !variesPerRepeat(node, region, file);
  for (let up: TSESTree.Node | undefined = parent.parent; up; up = up.parent) {
    if (loops.has(up.type)) return madeOutside(up);
    if (!isFunction(up)) continue;
    const call = up.parent;
    const index = call?.type === 'CallExpression' ? call.arguments.indexOf(up as TSESTree.CallExpressionArgument) : -1;
    if (call?.type === 'CallExpression' && index >= 0 && callRepeats(call, index, file)) return madeOutside(up);
    return false;
  }
  return false;
}
