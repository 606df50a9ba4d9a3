import type { TSESTree } from '@typescript-eslint/utils';

import { isFunction, type FileContext } from '../context/file-context.js';
import { moduleOfBinding } from '../project/modules.js';
import { variableOf } from '../syntax/scope.js';
import { walk } from '../syntax/walk.js';

/**
 * Words by which code names the duplicate case itself: `isDuplicateError(e)`, `UniqueViolation`,
 * and PostgreSQL's names for unique constraints (`locking_pkey`, `users_email_key`).
 */
export const duplicateWords = /unique|duplicate|already.?exists|conflict|\w_(pkey|key|ukey|uniq)\b/i;

/**
 * Where a unique violation raised by `node` is caught and treated as the duplicate case: the
 * `try` blocks (or the calls given a `.catch()`) whose handler says so by an error code the data
 * libraries report, a word for the duplicate, or a helper of the file that checks one. A node in
 * a helper is caught when every call of the helper is, two callers up at most. Empty when the
 * violation would escape.
 */
export function duplicateCatches(node: TSESTree.Node, file: FileContext, depth = 0): TSESTree.Node[] {
  const says = (handler: TSESTree.Node) => handlerSays(handler, file);
  let current: TSESTree.Node | undefined = node;
  while (current?.parent && !isFunction(current)) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === 'TryStatement' && parent.block === current && parent.handler && says(parent.handler))
      return [parent.block];
    // write().catch((error) => { if (error.code === '23505') … })
    if (parent.type === 'MemberExpression' && parent.object === current && parent.parent?.type === 'CallExpression') {
      const call = parent.parent;
      if (
        ['catch', 'then'].includes(parent.property.type === 'Identifier' ? parent.property.name : '') &&
        call.arguments.some(says)
      )
        return [current];
    }
    current = parent;
  }
  // The node sits in a helper: its callers may catch the duplicate.
  if (depth >= 2 || !current || !isFunction(current)) return [];
  const calls = file.callsTo(current);
  const caught = calls.map((call) => duplicateCatches(call, file, depth + 1));
  return calls.length > 0 && caught.every((regions) => regions.length > 0) ? caught.flat() : [];
}

const saidByHandlers = new WeakMap<FileContext, WeakMap<TSESTree.Node, boolean>>();

/**
 * Whether a `catch` handler (or a `.catch()` callback) treats a unique violation as the duplicate,
 * asked once per handler of a file, however many writes its `try` holds.
 */
function handlerSays(handler: TSESTree.Node, file: FileContext): boolean {
  let answers = saidByHandlers.get(file);
  if (!answers) saidByHandlers.set(file, (answers = new WeakMap()));
  let answer = answers.get(handler);
  if (answer === undefined) answers.set(handler, (answer = saysDuplicate(handler, file)));
  return answer;
}

/**
 * Does the handler's code (its names, strings and codes; not its comments) say duplicate: an error
 * code the data libraries report for a unique violation, a word for the duplicate, or a helper of
 * the file that checks one? Not the names of error classes the project declares for its own checks
 * (`if (row) throw new DuplicateError()`, caught as `error instanceof DuplicateError`): such a
 * class names the application's duplicate, not the database's refusal, unless the module that
 * declares it speaks of a unique violation (a wrapper that turns `23505` into `ConflictError`).
 */
function saysDuplicate(handler: TSESTree.Node, file: FileContext): boolean {
  const uniqueViolation = file.libraries.uniqueViolation;
  const says = (words: string) => duplicateWords.test(words) || uniqueViolation.test(words);
  let found = false;
  walk(handler, file.visitorKeys, (node) => {
    if (found) return false;
    if (node.type === 'Identifier') found = says(node.name) && !ownErrorClass(node, file);
    else if (node.type === 'Literal')
      found =
        duplicateWords.test(node.raw) || (uniqueViolation.test(node.raw) && !amongOtherFailures(node, uniqueViolation));
    else if (node.type === 'TemplateElement') found = says(node.value.raw);
    // catch (e) { if (isMine(e)) … }: a helper of this file, read one level down.
    else if (node.type === 'CallExpression') {
      const helper = file.localFunction(node.callee);
      found = helper !== undefined && uniqueViolation.test(file.text(helper));
    }
    return !found;
  });
  return found;
}

/**
 * `code === 'P2002' || code === 'P2003' || code === 'P2025'`, `['23505', '23503'].includes(code)`:
 * the violation's code listed beside codes of the same form that are not violations (a foreign
 * key, a missing row) names the errors the code gives up on, not the duplicate it takes as done.
 */
function amongOtherFailures(code: TSESTree.Literal, uniqueViolation: RegExp): boolean {
  let group: TSESTree.Node = code;
  for (let parent = code.parent; parent; parent = parent.parent) {
    if (parent.type === 'LogicalExpression' || parent.type === 'ArrayExpression') group = parent;
    else if (parent.type !== 'BinaryExpression') break;
    if (parent.type === 'ArrayExpression') break;
  }
  if (group === code) return false;
  const others: string[] = [];
  const collect = (node: TSESTree.Node): void => {
    if (node.type === 'Literal') others.push(String(node.value));
    else if (node.type === 'LogicalExpression' || node.type === 'BinaryExpression') {
      collect(node.left);
      collect(node.right);
    } else if (node.type === 'ArrayExpression') for (const element of node.elements) if (element) collect(element);
  };
  collect(group);
  const form = (value: string) => value.replace(/\d/g, '0');
  return others.some((other) => form(other) === form(String(code.value)) && !uniqueViolation.test(other));
}

function ownErrorClass(name: TSESTree.Identifier, file: FileContext): boolean {
  const definition = variableOf(name, file.scopeOf(name))?.defs[0];
  const module =
    definition?.type === 'ClassName'
      ? file
      : definition?.type === 'ImportBinding'
        ? moduleOfBinding(file, name.name)
        : undefined;
  if (!module || (module !== file && !/\bclass\s+\w+\s+extends\s+\w*Error\b/.test(module.text(module.sourceAst))))
    return false;
  return !file.libraries.uniqueViolation.test(module.text(module.sourceAst));
}

/** HTTP's answer for "that exists already": the other system refused a repeat of the request. */
const conflictStatus = /\b409\b|\bconflict\b/i;

/**
 * Is `node` (a request to another system) inside a `try` of its own function whose handler lets
 * the conflict answer through as success (`if (err.response.status !== 409) throw err`), a try
 * that does not also hold `record`? Then a repeat of the request is refused by the other system
 * and the code takes the refusal as done. A handler around the record too is about the record.
 */
export function conflictCaught(node: TSESTree.Node, record: TSESTree.Node, file: FileContext): boolean {
  for (let current: TSESTree.Node = node; current.parent && !isFunction(current); current = current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type !== 'TryStatement' || parent.block !== current || !parent.handler) continue;
    if (record.range[0] >= parent.block.range[0] && record.range[1] <= parent.block.range[1]) return false;
    if (conflictStatus.test(file.text(parent.handler))) return true;
  }
  return false;
}
