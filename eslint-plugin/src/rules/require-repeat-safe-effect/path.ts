import type { TSESTree } from '@typescript-eslint/utils';

import { claimedFacts } from '../../analysis/keys/effect-keys.js';
import type { FileAnalysis } from '../../lint/file-analysis.js';
import { isFunction, type FileContext, type FunctionNode } from '../../analysis/context/file-context.js';
import { calledFunction } from '../../analysis/project/calls.js';
import { duplicateCatches } from '../../analysis/control/caught.js';
import { exits } from '../../analysis/control/statements.js';
import type { DataOperation } from '../../analysis/operations/index.js';
import { callOperations } from '../../analysis/control/helper-operations.js';
import { OriginTracer } from '../../analysis/origin/origin.js';
import { providerCallAt } from '../../analysis/keys/provider-calls.js';
import { calleeName, runsInline, unwrapExpression } from '../../analysis/syntax/nodes.js';
import { variableOf } from '../../analysis/syntax/scope.js';
import { walk } from '../../analysis/syntax/walk.js';
import { operationVerdict, providerVerdict, type GuardKind } from './effects.js';

/**
 * Reads every path from an entry point: its body and the project's functions it calls, a few
 * calls deep. The rule speaks only when the reading is whole: it found an effect that adds, no
 * boundary anywhere (a claim, a write that settles duplicates, a keyed provider call, a lock, a
 * check of stored state), and nothing it could not read that might be one.
 */

export interface UnguardedEffect {
  /** Where to report: the call in the entry point's own body that leads to the effect. */
  node: TSESTree.Node;
  does: string;
  repeat: string;
}

const maxDepth = 3;
const budget = 20_000;

/** Calls whose names say they record, claim, lock or check what was handled: not readable, they may be the boundary. */
const boundaryNames =
  /claim|dedup|idempot|lock|mutex|semaphore|acquire|lease|once|processed|handled|already|seen|duplicate|exists|inbox|guard|reserve|markAs|mark[A-Z]|isNew|firstTime/i;
/** Calls whose names say they fetch a row: a stop when it is missing is validation, not a check of what was done. */
const readerNames = /^(get|find|fetch|load|read|lookup|retrieve|select|query)([A-Z_]\w*)?$/;
/** Callbacks that run while the call runs, as part of the same path. */
/** The first boundary met on the way: what it is, where (maybe in another module), the key it settles repeats on. */
export interface Guard {
  kind: GuardKind;
  node: TSESTree.Node;
  module: FileContext;
  key?: readonly string[];
  /** How the code reads there: "a INSERT", "stripe.refunds.create()". */
  label: string;
}

export interface Reading {
  effects: UnguardedEffect[];
  boundary: boolean;
  guard?: Guard;
  unknown: boolean;
  /** What could not be read and might be the boundary: a call named like one, a table no schema declares. */
  unread?: { node: TSESTree.Node; module: FileContext; label: string };
}

export function readPath(entry: FunctionNode, analysis: FileAnalysis): Reading {
  const reading: Reading = { effects: [], boundary: false, unknown: false };
  const settle = (guard: Guard) => {
    reading.boundary = true;
    reading.guard ??= guard;
  };
  const unread = (node: TSESTree.Node, module: FileContext, label: string) => {
    reading.unknown = true;
    reading.unread ??= { node, module, label };
  };
  const tracers = new Map<FileContext, OriginTracer>([[analysis.file, analysis.tracer]]);
  const tracerOf = (module: FileContext) => {
    let tracer = tracers.get(module);
    if (!tracer) tracers.set(module, (tracer = new OriginTracer(module)));
    return tracer;
  };
  const visited = new Set<FunctionNode>();
  const operationsAt = (
    node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
    module: FileContext,
  ): readonly DataOperation[] =>
    module === analysis.file ? analysis.operationsAt(node) : callOperations(node, module);

  const judgeOperation = (operation: DataOperation, module: FileContext, top: TSESTree.Node) => {
    const { node, label } = operation;
    if (claimedFacts(operation, tracerOf(module), module)) {
      settle({ kind: 'claim', node, module, label, key: operation.conflictTarget ?? claimKey(operation, analysis) });
      return;
    }
    const verdict = operationVerdict(operation, module, tracerOf(module), () => analysis.schema());
    if (!verdict) return;
    if (verdict.kind === 'boundary') settle({ kind: verdict.by, node, module, label, key: verdict.key });
    else if (verdict.kind === 'unknown') unread(node, module, label);
    else if (operation.kind === 'insert' && duplicateCatches(operation.node, module).length > 0)
      settle({ kind: 'caught-duplicate', node, module, label });
    else reading.effects.push({ node: top, does: verdict.does, repeat: verdict.repeat });
  };

  const read = (fn: FunctionNode, module: FileContext, depth: number, topCall: TSESTree.Node | undefined) => {
    if (visited.has(fn)) return;
    visited.add(fn);
    walk(
      fn.body,
      module.visitorKeys,
      (node) => {
        if (reading.boundary || reading.unknown) return false;
        if (node !== fn.body && isFunction(node)) return runsInline(node);
        const top = topCall ?? node;
        if (
          node.type === 'IfStatement' ||
          node.type === 'ConditionalExpression' ||
          node.type === 'SwitchStatement' ||
          node.type === 'WhileStatement'
        ) {
          const test = node.type === 'SwitchStatement' ? node.discriminant : node.test;
          if (test && checksStoredState(test, node, module))
            settle({ kind: 'checked-state', node: test, module, label: module.code(test) });
          return !reading.boundary;
        }
        if (node.type === 'TaggedTemplateExpression') {
          for (const operation of operationsAt(node, module)) judgeOperation(operation, module, top);
          return true;
        }
        if (node.type !== 'CallExpression') return true;
        const operations = operationsAt(node, module);
        if (operations.length > 0) {
          for (const operation of operations) judgeOperation(operation, module, top);
          return true;
        }
        const provider = providerCallAt(node, module);
        if (provider) {
          const verdict = providerVerdict(provider);
          if (verdict?.kind === 'boundary')
            settle({ kind: verdict.by, node, module, label: provider.label, key: verdict.key });
          else if (verdict?.kind === 'effect')
            reading.effects.push({ node: top, does: verdict.does, repeat: verdict.repeat });
          return true;
        }
        const name = calleeName(node.callee) ?? '';
        if (boundaryNames.test(name)) {
          unread(node, module, `${name}()`);
          return false;
        }
        if (depth < maxDepth) {
          const helper = calledFunction(module, node.callee);
          if (helper) read(helper.fn, helper.module, depth + 1, top);
        }
        return true;
      },
      budget,
    );
  };
  read(entry, analysis.file, 0, undefined);
  return reading;
}

/** What a variable holds when it is set once from an awaited call: the call. */
function awaitedCallOf(identifier: TSESTree.Identifier, module: FileContext): TSESTree.CallExpression | undefined {
  const definition = variableOf(identifier, module.scopeOf(identifier))?.defs[0];
  if (definition?.type !== 'Variable' || !definition.node.init) return undefined;
  let init: TSESTree.Node = definition.node.init;
  while (
    init.type === 'TSAsExpression' ||
    init.type === 'TSNonNullExpression' ||
    init.type === 'TSSatisfiesExpression' ||
    init.type === 'ChainExpression'
  )
    init = init.expression;
  const inner = init.type === 'AwaitExpression' ? unwrapExpression(init.argument) : undefined;
  return inner?.type === 'CallExpression' ? inner : undefined;
}

/**
 * Does a condition decide on stored state: the result of an awaited call (a read, a helper that
 * asks whether the work was done, a flag on a row)? A condition on the delivery's own content
 * is not such a check; nor is `if (!user) return`, which only stops when a row is missing.
 */
function checksStoredState(test: TSESTree.Node, statement: TSESTree.Node, module: FileContext): boolean {
  let decides = false;
  walk(test, module.visitorKeys, (node) => {
    if (decides) return false;
    if (isFunction(node)) return false;
    if (node.type === 'AwaitExpression') {
      decides = true;
      return false;
    }
    if (node.type !== 'Identifier') return true;
    const call = awaitedCallOf(node, module);
    if (!call) return true;
    const isRead =
      callOperations(call, module).some((operation) => operation.kind === 'read') ||
      readerNames.test(calleeName(call.callee) ?? '');
    decides = !(isRead && onlyStopsWhenMissing(node, test, statement));
    return !decides;
  });
  return decides;
}

/** `if (!row) return;` or `if (row == null) throw …`: a stop when the row is missing, the rest of the path unconditional. */
function onlyStopsWhenMissing(identifier: TSESTree.Identifier, test: TSESTree.Node, statement: TSESTree.Node): boolean {
  if (statement.type !== 'IfStatement' || statement.alternate || !exits(statement.consequent)) return false;
  const bare = unwrapExpression(test);
  if (bare.type === 'UnaryExpression' && bare.operator === '!' && unwrapExpression(bare.argument) === identifier)
    return true;
  if (bare.type === 'BinaryExpression' && /^[!=]==?$/.test(bare.operator) && bare.operator.startsWith('=')) {
    const other = bare.left === identifier ? bare.right : bare.right === identifier ? bare.left : undefined;
    return (
      other !== undefined &&
      ((other.type === 'Literal' && other.value === null) ||
        (other.type === 'Identifier' && other.name === 'undefined'))
    );
  }
  return false;
}

/** The unique key of the schema that a claim's fields fill, when the schema declares one. */
function claimKey(operation: DataOperation, analysis: FileAnalysis): readonly string[] | undefined {
  const target = operation.targets[0];
  if (!target) return undefined;
  return analysis.schema().keyWithin(
    target,
    operation.fields.map((field) => field.name),
  )?.columns;
}
