import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { calleeName, callTaking, enclosingLiteral, keyName } from '../analysis/syntax/nodes.js';
import { effectKeysOfOperation, type EffectKey, type UniqueColumn } from '../analysis/keys/effect-keys.js';
import { effectKeyOfBinding, effectKeyOfHeaderCall, effectKeyOfProperty } from '../analysis/keys/named-keys.js';
import { analysisFor, type FileAnalysis, type TracedKey } from './file-analysis.js';
import { isFunction, type FileContext, type FunctionNode } from '../analysis/context/file-context.js';
import { functionName } from '../analysis/origin/entry-points.js';
import { mentioning } from '../analysis/project/importers.js';
import { moduleContext } from '../analysis/project/modules.js';
import type { DataOperation } from '../analysis/operations/index.js';
import { OriginTracer } from '../analysis/origin/origin.js';
import { keyFacts } from '../analysis/keys/key-facts.js';
import { callOperations } from '../analysis/control/helper-operations.js';
import { calledFunction } from '../analysis/project/calls.js';
import { rememberedThisLint } from '../analysis/project/files.js';
import { walk } from '../analysis/syntax/walk.js';
import { effectKeyOfKeyPath } from '../analysis/keys/key-paths.js';
import { onlySends } from '../analysis/work/work.js';

/**
 * Is the property a field a database write stores (`data: { idempotencyKey }` of an insert or an
 * update)? Then it is a column of our own, judged with the write's keys, not an option handed to
 * another system: storing a key minted once on its row is how a key is kept for every retry.
 */
function storedByWrite(property: TSESTree.Property, reader: KeyReader): boolean {
  let underData = false;
  const current = enclosingLiteral(property, (part) => {
    if (part.type === 'Property' && dataKeys.has(keyName(part) ?? '')) underData = true;
  });
  const call = callTaking(current);
  if (!call) return false;
  // An update names the values it stores (`data: { … }`, `$set`), or takes them as its only argument.
  const updated = underData || call.arguments.length === 1;
  return reader
    .operationsAt(call)
    .some((operation) =>
      operation.kind === 'update'
        ? updated
        : (operation.kind === 'insert' || operation.kind === 'upsert') &&
          operation.fields.some((field) => field.values.includes(property.value)),
    );
}

const dataKeys = new Set(['data', 'set', '$set', 'values', 'changes']);

/** `publishWorkflowEvent({ …, idempotencyKey })`: handed to a project function that only sends it on, made at the source. */
function handedToSender(property: TSESTree.Property, reader: KeyReader): boolean {
  const call = callTaking(enclosingLiteral(property));
  return call !== undefined && onlySends(call, reader.file);
}

/** What finding a module's keys needs: the module, its database operations, and whether the schema makes a column unique. */
interface KeyReader {
  file: FileContext;
  tracer: OriginTracer;
  operationsAt(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression): readonly DataOperation[];
  unique: UniqueColumn;
}

/**
 * The effect keys written at `node`: a database write's keys, an idempotency header, option or
 * binding, a key path. Most nodes are none of these and are turned away before anything is traced.
 */
function keysOfNode(node: TSESTree.Node, reader: KeyReader): EffectKey[] {
  const keys: EffectKey[] = [];
  const add = (key: EffectKey | undefined) => key && keys.push(key);
  switch (node.type) {
    case 'CallExpression':
    case 'TaggedTemplateExpression':
      for (const operation of reader.operationsAt(node))
        for (const key of effectKeysOfOperation(operation, reader.tracer, reader.file, reader.unique)) add(key);
      if (node.type === 'CallExpression') add(effectKeyOfHeaderCall(node, reader.file.scopeOf));
      break;
    case 'Property': {
      const key =
        effectKeyOfProperty(node, reader.file.libraries) ?? effectKeyOfKeyPath(node, reader.file, reader.tracer);
      if (key && !(key.external && (storedByWrite(node, reader) || handedToSender(node, reader)))) add(key);
      break;
    }
    case 'VariableDeclarator':
      add(effectKeyOfBinding(node));
      break;
    case 'AssignmentExpression':
      add(effectKeyOfHeaderCall(node, reader.file.scopeOf) ?? effectKeyOfBinding(node));
      break;
  }
  return keys;
}

/** The key rules linting a file, and their checks in the order the rules were created. */
const keyRules = new WeakMap<FileAnalysis, { rules: Set<string>; checks: ((key: TracedKey) => void)[] }>();

/**
 * The listeners that find every effect key in a file; the two key rules share them and differ
 * only in what they look for in a key. Every rule is created before ESLint walks the file, so
 * the first key rule gets the listeners, which hand each key to every key rule's `check` as it
 * is found, and the other gets none: the file's keys are looked for once, not once per rule.
 */
export function effectKeyListeners(
  context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>,
  check: (key: TracedKey) => void,
): TSESLint.RuleListener {
  const analysis = analysisFor(context);
  const registered = keyRules.get(analysis);
  // A rule met again is another lint of the same source code: its keys are looked for anew.
  if (registered && !registered.rules.has(context.id)) {
    registered.rules.add(context.id);
    registered.checks.push(check);
    return {};
  }
  const checks = [check];
  keyRules.set(analysis, { rules: new Set([context.id]), checks });
  const seen = new Set<TSESTree.Node>();
  const visit = (keys: readonly TracedKey[]) => {
    for (const key of keys) {
      if (seen.has(key.node)) continue;
      seen.add(key.node);
      for (const each of checks) each(key);
    }
  };
  const reader: KeyReader = {
    file: analysis.file,
    tracer: analysis.tracer,
    operationsAt: (node) => analysis.operationsAt(node),
    unique: uniqueIn(analysis),
  };
  const found = (node: TSESTree.Node) => {
    const keys = keysOfNode(node, reader);
    if (keys.length > 0) visit(analysis.keysAt(node, () => keys));
  };
  // Most calls are neither database writes nor header setters: nothing is stored for them, and
  // most properties and assignments are not keys: they are turned away before anything is traced.
  return {
    CallExpression: found,
    TaggedTemplateExpression: found,
    Property: found,
    VariableDeclarator: found,
    AssignmentExpression: found,
  };
}

/** Does the project's schema make `column` of `target` unique on its own? */
function uniqueIn(analysis: FileAnalysis): UniqueColumn {
  return (target, column) => analysis.schema().keyWithin(target, [column]) !== undefined;
}

/** The effect keys a function of another module writes, found once per lint. */
const keysOfFunction = rememberedThisLint((fn: FunctionNode, module: FileContext, unique: UniqueColumn) => {
  const reader: KeyReader = {
    file: module,
    tracer: new OriginTracer(module),
    operationsAt: (node) => callOperations(node, module),
    unique,
  };
  const keys: EffectKey[] = [];
  walk(fn.body, module.visitorKeys, (node) => {
    for (const key of keysOfNode(node, reader)) keys.push(key);
    return true;
  });
  return keys;
});

/** Text that names an idempotency key: a function without it keys nothing it is handed. */
const namesKey = /idempot/i;

/** Functions whose text names no idempotency key: most, and none of them keys what it is handed. */
const namesNoKey = new WeakMap<FunctionNode, boolean>();

/** The names of the functions that name an idempotency key, by the list of project files that do. */
const takersOf = new WeakMap<readonly string[], ReadonlySet<string>>();

/**
 * The names of the project's functions that name an idempotency key, read from the few production
 * files whose text does; undefined outside a project. A call by any other name hands no key over,
 * and is not resolved: resolving every call would read every module a file imports.
 */
function keyTakers(analysis: FileAnalysis): ReadonlySet<string> | undefined {
  const files = mentioning(namesKey, analysis.file.filename);
  if (!files) return undefined;
  let names = takersOf.get(files);
  if (!names) {
    const found = new Set<string>();
    for (const file of files) {
      const module = moduleContext(file, analysis.file.libraries);
      if (!module) continue;
      walk(module.sourceAst, module.visitorKeys, (node) => {
        if (isFunction(node) && namesKey.test(module.text(node))) {
          const name = functionName(node);
          if (name) found.add(name);
        }
        return true;
      });
    }
    takersOf.set(files, (names = found));
  }
  return names;
}

/** A key in another module's function, traced for one call of it from the linted file. */
export interface HandedKey {
  /** The call of the linted file that hands the values over. */
  call: TSESTree.CallExpression;
  key: TracedKey;
  /** The function's module, and a tracer of it for this call. */
  module: FileContext;
  tracer: OriginTracer;
}

/**
 * The idempotency keys a call hands values to: a function of another module of the project that
 * builds one of them from its parameters (`reverseTax({ reference: \`refund_${id}_${Date.now()}\` })`
 * whose body sends \`tax_reversal_${reference}\` as the key). Each is traced with this call's
 * arguments, so its facts say what the linted file gave it. Only a function whose text names an
 * idempotency key is read: a row's own id made fresh is an ordinary id wherever it is made.
 */
export function handedKeys(call: TSESTree.CallExpression, analysis: FileAnalysis): HandedKey[] {
  if (call.arguments.length === 0) return [];
  const takers = keyTakers(analysis);
  if (takers && !takers.has(calleeName(call.callee) ?? '')) return [];
  const target = calledFunction(analysis.file, call.callee);
  if (!target || target.module === analysis.file) return [];
  const { fn, module } = target;
  let silent = namesNoKey.get(fn);
  if (silent === undefined) namesNoKey.set(fn, (silent = !namesKey.test(module.text(fn))));
  if (silent) return [];
  const keys = keysOfFunction(fn, module, uniqueIn(analysis)).filter((key) => key.strength === 'explicit');
  if (keys.length === 0) return [];
  const tracer = analysis.tracer.across(module, fn, call);
  return keys.map((key) => {
    const copy = Object.assign({}, key) as TracedKey;
    copy.facts = keyFacts(key, tracer);
    return { call, key: copy, module, tracer };
  });
}
