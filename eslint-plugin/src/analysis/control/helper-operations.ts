import type { TSESTree } from '@typescript-eslint/utils';

import { isFunction, type FileContext, type FunctionNode } from '../context/file-context.js';
import { takesLock, type DataOperation, type Field } from '../contract/operation.js';
import { fieldsOf, matchedFields, objectLiteral, showsEveryField } from '../operations/fields.js';
import { findOperations } from '../operations/index.js';
import { settledOperation } from '../operations/sql.js';
import { calledFunction } from '../project/calls.js';
import { memberPath, unwrapExpression } from '../syntax/nodes.js';
import { constantInitializer } from '../syntax/scope.js';
import { walk } from '../syntax/walk.js';
import { answersWith } from './decisions.js';
import { enclosingFunction } from './statements.js';

/**
 * A call of a helper another module of the project exports, taken for the one operation the
 * helper stands for: `if (await isProcessed(key))` is a read whose answer decides, and
 * `await markProcessed(key)` an insert, just as the calls they make would be in the caller's
 * own code. Then the check, the write and the work between them are judged where they are
 * decided, in the caller, whichever module holds them.
 *
 * A helper stands for a read when its answer is the verdict of a read it makes (`return rows.length
 * > 0`, the row or null); for an insert, upsert or update when that is the only write it makes and
 * it reads nothing first (a helper that checks and inserts is judged in its own module); for a lock
 * when taking one is all it does.
 */

const bodyBudget = 2_000;

/**
 * The operations a call performs, as the adapters read it, unless the call runs a function the
 * project itself declares: `fedGraphRepo.create()` on an instance of the project's own repository
 * class is that method, whatever its name suggests, and what it does is read in its body.
 */
export function callOperations(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  file: FileContext,
): DataOperation[] {
  const found = findOperations(node, file);
  if (found.length === 0 || node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return found;
  // A project's wrapper handed the statement itself (`db.query('INSERT …', […])`) performs what the text says.
  if (writtenText(node.arguments[0], file)) return found;
  // `calledFunction` finds the project's own functions only, never installed code.
  return calledFunction(file, node.callee) ? [] : found;
}

/** Is the argument text written in the code (a string, a template, a constant holding one)? */
function writtenText(argument: TSESTree.Node | undefined, file: FileContext): boolean {
  const value = argument?.type === 'Identifier' ? constantInitializer(argument, file.scopeOf(argument)) : argument;
  return (value?.type === 'Literal' && typeof value.value === 'string') || value?.type === 'TemplateLiteral';
}

interface Summary {
  operation: DataOperation | undefined;
}

const summaries = new WeakMap<FunctionNode, Summary>();

function summarise(fn: FunctionNode, module: FileContext): Summary {
  const known = summaries.get(fn);
  if (known) return known;
  const operations: DataOperation[] = [];
  walk(
    fn.body,
    module.visitorKeys,
    (node) => {
      // A function defined inside runs when something calls it, not when the helper does.
      if (node !== fn.body && isFunction(node)) return false;
      if (node.type === 'CallExpression' || node.type === 'TaggedTemplateExpression')
        operations.push(...callOperations(node, module));
      return true;
    },
    bodyBudget,
  );
  const reads = operations.filter((operation) => operation.kind === 'read');
  const writes = operations.filter((operation) => operation.kind === 'insert' || operation.kind === 'upsert');
  const others = operations.filter((operation) => operation.kind === 'update' || operation.kind === 'delete');
  let operation: DataOperation | undefined;
  // `await Locks.take(key)`: a helper that takes a lock and touches nothing else stands for the lock
  // (a statement of no table beside it, `select set_config('lock_timeout', …)`, touches nothing).
  const lock = operations.find((operation) => operation.kind === 'serialisation');
  if (lock && operations.every((operation) => operation === lock || operation.targets.length === 0)) operation = lock;
  else if (writes.length === 0 && others.length === 0)
    operation = reads.find((read) => answersWith(read.node, fn, module));
  else if (reads.length === 0 && writes.length === 1 && others.length === 0) operation = writes[0];
  // `await markPaid(order.id)`: a helper whose one write is an update stands for it (a flag it sets).
  else if (reads.length === 0 && writes.length === 0 && others.length === 1 && others[0].kind === 'update')
    operation = others[0];
  const summary = { operation };
  summaries.set(fn, summary);
  return summary;
}

/** The operation a call of a project helper in another module (or a lock one of its own module takes) stands for, placed at the call. */
export function helperOperations(call: TSESTree.CallExpression, file: FileContext): DataOperation[] {
  const imported = calledFunction(file, call.callee);
  if (!imported) return [];
  const inner = summarise(imported.fn, imported.module).operation;
  // A helper of the same module is judged in its own body, but a lock it takes (`loadForUpdate(trx,
  // id)`, a row read FOR UPDATE and returned) is held by its caller too, until the transaction ends.
  if (!inner || (imported.module === file && !takesLock(inner))) return [];
  // The helper's own nodes belong to its module: what the caller can judge is the call, and the
  // names of the columns and fields, not the values it fills them with there, but for a value it
  // was given as it was given (`findById(id)` of the parameter `id`: the caller's argument).
  const argumentFor = (name: string) => argumentForParameter(imported.fn, call, name);
  const given = (value: TSESTree.Node): TSESTree.Node[] => {
    let bare = unwrapExpression(value);
    // `JSON.stringify(value)`: what it was given, serialised to be stored.
    if (bare.type === 'CallExpression' && memberPath(bare.callee)?.join('.') === 'JSON.stringify' && bare.arguments[0])
      bare = unwrapExpression(bare.arguments[0]);
    if (bare.type === 'Identifier') {
      const argument = argumentFor(bare.name);
      return argument ? [argument] : [];
    }
    // `dto._id` of the parameter `dto`, handed `data`: the caller's own `data._id`, where it writes one.
    const [root, ...members] = bare.type === 'MemberExpression' ? (memberPath(bare) ?? []) : [];
    const argument = root === undefined ? undefined : argumentFor(root);
    const same = argument?.type === 'Identifier' ? memberRead(call, [argument.name, ...members], file) : undefined;
    return same ? [same] : [];
  };
  const asGiven = (fields: readonly Field[]) =>
    fields.map((field) => ({ ...field, values: field.values.flatMap(given) }));
  const stored = inner.stored?.flatMap(given);
  // A document the helper writes as it was given (`create(data) { return this.model.create(data) }`):
  // the caller's argument is the document, and its object literal shows the fields.
  const document = inner.document && given(inner.document)[0];
  const shown = document && inner.fields.length === 0 ? fieldsOf(document, file.scopeOf) : [];
  // A query the helper matches on as it was given (`exists(filter) { return this.model.exists(filter) }`):
  // the caller's object literal shows what it checks for.
  // A key-value wrapper handed its key: the key is the caller's, and so is what it touches.
  const key = inner.key && given(inner.key.node)[0];
  const query = inner.criteria && objectLiteral(given(inner.criteria)[0], file.scopeOf);
  const filters = query ? matchedFields(query, file.scopeOf) : inner.filters && asGiven(inner.filters);
  return [
    {
      ...settledOperation(inner),
      node: call,
      label: `${file.code(call.callee)}()`,
      ...(key && inner.key
        ? { targets: [inner.key.shape(key, file)], key: { ...inner.key, node: key } }
        : { key: undefined }),
      ...(shown.length > 0
        ? { fields: shown, fieldsComplete: showsEveryField(document, file.scopeOf) }
        : { fields: asGiven(inner.fields) }),
      ...(filters ? { filters } : {}),
      stored: stored && stored.length === inner.stored?.length ? stored : undefined,
      document,
      criteria: undefined,
      fix: undefined,
    },
  ];
}

/** What a call of `fn` hands its parameter `name`: the argument in that place, if it is one. */
export function argumentForParameter(
  fn: FunctionNode,
  call: TSESTree.CallExpression,
  name: string,
): TSESTree.Node | undefined {
  const index = fn.params.findIndex((param) => param.type === 'Identifier' && param.name === name);
  const argument = index >= 0 ? call.arguments[index] : undefined;
  return argument && argument.type !== 'SpreadElement' ? argument : undefined;
}

/** A member read of `path` (`data._id`) the caller's function writes, before `call` or after. */
function memberRead(call: TSESTree.Node, path: readonly string[], file: FileContext): TSESTree.Node | undefined {
  const spelled = path.join('.');
  let found: TSESTree.Node | undefined;
  const fn = enclosingFunction(call);
  if (!fn) return undefined;
  walk(
    fn.body,
    file.visitorKeys,
    (node) => {
      if (found) return false;
      if (node.type === 'MemberExpression' && memberPath(node)?.join('.') === spelled) found = node;
      return true;
    },
    bodyBudget,
  );
  return found;
}
