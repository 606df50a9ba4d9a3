import type { TSESTree } from '@typescript-eslint/utils';

import { providerCallAt } from '../keys/provider-calls.js';
import { addedFields } from '../operations/additions.js';
import { isFunction, type FileContext, type FunctionNode } from '../context/file-context.js';
import { writingRequest } from './requests.js';
import { excluded } from './exempt.js';
import { sends } from './messages.js';
import type { DataOperation } from '../operations/index.js';
import { callOperations } from '../control/helper-operations.js';
import { calledFunction } from '../project/calls.js';
import { calleeName, runsInline, unwrapExpression } from '../syntax/nodes.js';
import { constantInitializer, variableOf } from '../syntax/scope.js';
import { someNode, walk } from '../syntax/walk.js';

/**
 * Work that a second run repeats: a write that does not settle duplicates itself, or a message
 * sent to a broker, done by a call or by the helper it calls (in this file or an imported
 * module, a few calls deep). An upsert, an ON CONFLICT or NX write, is safe to repeat and is not
 * work in this sense; nor is a read.
 */

export interface Work {
  /** The call in the function being read that does the work, itself or through its helpers. */
  node: TSESTree.Node;
  /** How it reads in a message: "the INSERT into payments", "creditCashback()". */
  label: string;
}

const maxHelperDepth = 2;
const walkBudget = 5_000;

/**
 * A write whose repeat is a second effect: not a read, not a lock, not one that settles
 * duplicates, not a delete (a second one finds nothing left to take away), and not an update
 * that only sets values (a second one leaves the row as the first did; one that adds to a
 * value is `accumulates`).
 */
function repeatsWhenRun(operation: DataOperation): boolean {
  return (
    operation.kind !== 'read' &&
    operation.kind !== 'serialisation' &&
    operation.kind !== 'delete' &&
    operation.kind !== 'update' &&
    !operation.arbitrated
  );
}

/**
 * A key-value store's SET replaces what its key holds (`redis.set(k, v)`): a second one leaves
 * the same state, not a second copy.
 */
export function overwrites(operation: DataOperation, file: FileContext): boolean {
  return (
    operation.kind === 'insert' &&
    !operation.arbitrated &&
    file.libraries.dataAdapter(operation.library)?.keyPolicy === 'whole-key'
  );
}

/**
 * An upsert, an update, or a key-value SET, of a value the code added up (`balance: current +
 * credit`), or an update that adds to a value itself (`credits = credits + $1`): settling or
 * finding the row does not make it safe to repeat, since a second run adds again.
 */
function accumulates(operation: DataOperation, file: FileContext): boolean {
  if (operation.kind === 'update' && addedFields(operation, file)) return true;
  const values =
    (operation.kind === 'upsert' && !operation.skipsDuplicates) || operation.kind === 'update'
      ? operation.fields.flatMap((field) => field.values)
      : overwrites(operation, file)
        ? (operation.stored ?? [])
        : [];
  const sum = (node: TSESTree.Node, depth: number): boolean => {
    const value = unwrapExpression(node);
    if (value.type === 'BinaryExpression')
      return (
        (value.operator === '+' || value.operator === '-') &&
        value.left.type !== 'Literal' &&
        value.left.type !== 'TemplateLiteral'
      );
    if (value.type !== 'Identifier' || depth > 1) return false;
    const init = constantInitializer(value, file.scopeOf(value));
    return init !== undefined && sum(init, depth + 1);
  };
  return values.some((value) => sum(value, 0));
}

/** A write that a second run makes again, knowing the file it is in. */
export function isWork(operation: DataOperation, file: FileContext): boolean {
  return (repeatsWhenRun(operation) && !overwrites(operation, file)) || accumulates(operation, file);
}

/**
 * What a helper's body does, directly or through the helpers it calls: work a second run repeats,
 * messages sent (keyed or not), and anything else than reading and sending.
 */
interface HelperWork {
  work: boolean;
  sends: boolean;
  other: boolean;
}

const nothing: HelperWork = { work: false, sends: false, other: false };
const helperWork = new WeakMap<FunctionNode, HelperWork>();

function helperWorkOf(fn: FunctionNode, file: FileContext, depth: number): HelperWork {
  const known = helperWork.get(fn);
  if (known !== undefined) return known;
  helperWork.set(fn, nothing);
  const found = { ...nothing };
  walk(
    fn.body,
    file.visitorKeys,
    (node) => {
      // A function defined inside runs when something calls it, not when the helper does; a
      // callback of a call the helper awaits or returns has run by its answer (a retry, a breaker).
      if (node !== fn.body && isFunction(node) && !runsInline(node)) return false;
      if (node.type === 'TaggedTemplateExpression' || node.type === 'CallExpression') {
        const kind = callKind(node, file, callOperations(node, file), depth + 1);
        found.work ||= kind.work;
        found.sends ||= kind.sends;
        found.other ||= kind.other;
      }
      return !(found.work && found.other);
    },
    walkBudget,
  );
  helperWork.set(fn, found);
  return found;
}

/** What a call does (`callWork`'s question, also asked of one that carries its key), seen through the helpers it calls. */
function callKind(
  call: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  file: FileContext,
  operations: readonly DataOperation[],
  depth: number,
): HelperWork {
  const keyed = call.type === 'CallExpression' && excluded(call, file);
  if (operations.length > 0) {
    const work = !keyed && operations.some((operation) => isWork(operation, file));
    return { work, sends: false, other: operations.some((operation) => operation.kind !== 'read') };
  }
  if (call.type !== 'CallExpression') return nothing;
  if (sends(call, file)) return { work: !keyed, sends: true, other: false };
  if (writingRequest(call, file) !== undefined || providerCallAt(call, file))
    return { ...nothing, work: !keyed, other: true };
  const helper = depth <= maxHelperDepth ? calledFunction(file, call.callee) : undefined;
  const kind = helper ? helperWorkOf(helper.fn, helper.module, depth) : nothing;
  return keyed ? { ...kind, work: false } : kind;
}

/**
 * `publishWorkflowEvent({ …, idempotencyKey })`: a call of a project function that sends messages
 * and does nothing else. What it is handed travels in what it sends, as a producer's key does.
 */
export function onlySends(call: TSESTree.CallExpression, file: FileContext): boolean {
  const helper = calledFunction(file, call.callee);
  const kind = helper && helperWorkOf(helper.fn, helper.module, 1);
  return kind !== undefined && kind.sends && !kind.other;
}

/**
 * The work a call does, in the linted file or a helper's body: a write among its operations that
 * is work; making none, a message it sends, a request that changes another system, a provider's
 * effect, or a project helper (a few calls deep) that does work (`true`). Asked of a call that is
 * not `excluded`.
 */
function callWork(
  call: TSESTree.CallExpression,
  file: FileContext,
  operations: readonly DataOperation[],
  depth: number,
): DataOperation | true | undefined {
  if (operations.length > 0) return operations.find((operation) => isWork(operation, file));
  return callKind(call, file, operations, depth).work ? true : undefined;
}

/** Calls that ask, wait or log rather than act. */
const notEffects =
  /^(debug|info|warn|warning|error|trace|sleep|delay|wait|setTimeout|flush|begin|beginTransaction|startTransaction|commit|rollback|release|close|end|connect|disconnect|(assert|validate|check|ensure|verify|authori[sz]e|authenticate|require|get|find|fetch|load|read|list|count|compute|calculate|parse|render|format|revalidate|invalidate|lookup|resolve|build|prepare|log)([A-Z_]\w*)?)$/;

/** Does the call's name say it only asks, waits or logs (`findUser`, `sleep`, `logToService`)? */
export function onlyAsks(call: TSESTree.CallExpression): boolean {
  const name = calleeName(call.callee);
  return !name || notEffects.test(name);
}

/**
 * `const result = await handler(envelope)`: a function the caller handed in, called for its
 * answer. It is the business work itself (a consumer's wrapper runs the handler it was given),
 * whatever the analysis can see of it.
 */
function handedIn(call: TSESTree.CallExpression, file: FileContext): boolean {
  if (call.callee.type !== 'Identifier' || notEffects.test(call.callee.name)) return false;
  if (variableOf(call.callee, file.scopeOf(call.callee))?.defs[0]?.type !== 'Parameter') return false;
  let node: TSESTree.Node = call;
  while (node.parent?.type === 'AwaitExpression') node = node.parent;
  return (
    node.parent?.type === 'VariableDeclarator' ||
    (node.parent?.type === 'AssignmentExpression' && node.parent.right === node)
  );
}

/**
 * `client.query('BEGIN')`, `query('SET LOCAL …')`: a statement that steers the session, not one
 * that changes data; nor does one that changes the schema (`CREATE TABLE IF NOT EXISTS …`), which
 * a second run finds done or refuses.
 */
function changesNoData(call: TSESTree.CallExpression): boolean {
  const [first] = call.arguments;
  const text =
    first?.type === 'Literal'
      ? first.value
      : first?.type === 'TemplateLiteral' && first.expressions.length === 0
        ? first.quasis[0]?.value.cooked
        : undefined;
  return (
    typeof text === 'string' &&
    /^\s*(BEGIN|START\s+TRANSACTION|COMMIT|ROLLBACK|END|SAVEPOINT|RELEASE|SET|CREATE|ALTER|DROP)\b/i.test(text)
  );
}

/**
 * `await sendInvitationEmail(…);` as a statement of its own: a call awaited for what it does, its
 * result thrown away. It is work even when the analysis cannot see inside it (a provider's SDK,
 * a mailer), unless its name says it only asks, waits or logs.
 */
function awaitedForEffect(call: TSESTree.CallExpression, file: FileContext): Work | undefined {
  if (call.parent?.type !== 'AwaitExpression' || call.parent.parent?.type !== 'ExpressionStatement') return undefined;
  const name = calleeName(call.callee);
  if (!name || notEffects.test(name) || changesNoData(call)) return undefined;
  return { node: call, label: callLabel(call, file) };
}

/**
 * A call whose work the analysis judges whole: a message sent, a call that carries its own key, or
 * an update or upsert that shows every field it sets and only sets them (`saga.update({ where: {
 * orderId }, data: { status: 'COMPLETED' } })`), which a second run leaves as the first one did.
 * A write whose values are filled in where the analysis does not look is not (`data.sent = {
 * increment: 1 }` before `update({ data })`).
 */
function seen(call: TSESTree.CallExpression, module: FileContext): boolean {
  if (excluded(call, module) || sends(call, module)) return true;
  const operations = callOperations(call, module);
  return (
    operations.length > 0 &&
    operations.every(
      (operation) =>
        (operation.kind === 'update' || operation.kind === 'upsert') &&
        operation.fieldsComplete === true &&
        !isWork(operation, module),
    )
  );
}

/** How a call reads in a message: `verifyDomain()` for `verifyDomain(…).catch(…)` too. */
function callLabel(call: TSESTree.CallExpression, file: FileContext): string {
  let callee: TSESTree.Node = call.callee;
  while (
    callee.type === 'MemberExpression' &&
    callee.object.type === 'CallExpression' &&
    /^(catch|then|finally)$/.test(calleeName(callee) ?? '')
  )
    callee = callee.object.callee;
  return `${file.code(callee)}()`;
}

/**
 * The work a call in the linted file does: its own operations (found by `operationsAt`, the
 * file's cache), a message it sends, a helper of the project that does work, or a call awaited
 * for its effect alone.
 */
export function workOfCall(
  call: TSESTree.CallExpression,
  file: FileContext,
  operationsAt: (node: TSESTree.CallExpression) => readonly DataOperation[],
): Work | undefined {
  if (excluded(call, file)) return undefined;
  const operations = operationsAt(call);
  // A provider's charge, payout or email without its idempotency key (one with it is excluded).
  const work = callWork(call, file, operations, 1);
  if (work) return { node: call, label: work === true ? callLabel(call, file) : work.label };
  if (operations.length > 0) return undefined;
  if (handedIn(call, file)) return { node: call, label: callLabel(call, file) };
  const statement = awaitedForEffect(call, file);
  // A project function the analysis reads does what its body does: one that reads and throws
  // (`await throwIfBlocked(…)`) is no effect, one that awaits a call it cannot see into may be.
  const helper = statement && calledFunction(file, call.callee);
  return !helper || awaitsUnseenEffect(helper.fn, helper.module) ? statement : undefined;
}

/**
 * Does the body of `fn` itself await, for its effect alone, a call that runs no function of the
 * project and that the analysis cannot judge whole? A message sent, or a call that carries its own
 * idempotency key, has been judged with the helper's work.
 */
function awaitsUnseenEffect(fn: FunctionNode, module: FileContext): boolean {
  return someNode(
    fn.body,
    module.visitorKeys,
    (node) =>
      node !== fn.body && isFunction(node)
        ? 'skip'
        : node.type === 'CallExpression' &&
          awaitedForEffect(node, module) !== undefined &&
          !calledFunction(module, node.callee) &&
          !seen(node, module),
    walkBudget,
  );
}
