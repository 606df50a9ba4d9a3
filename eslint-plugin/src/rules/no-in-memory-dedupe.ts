import type { TSESTree } from '@typescript-eslint/utils';

import { analysisFor } from '../analysis/file-analysis.js';
import type { FileContext, FunctionNode } from '../analysis/file-context.js';
import {
  effectIn,
  enclosingFunctionOf,
  fromParameters,
  gatesOf,
  inLoopWithin,
  keyText,
  membershipAt,
  recordingsOf,
  recordingsWhereItLives,
  storesMarker,
  unseenCode,
  type Membership,
} from '../analysis/memory.js';
import { findOperations, type DataOperation } from '../analysis/operations/index.js';
import { OriginTracer } from '../analysis/origin.js';
import { calleeName } from '../analysis/scope.js';
import { walk } from '../analysis/walk.js';
import { createRule } from '../create-rule.js';

/** `await db.query('INSERT … ON CONFLICT DO NOTHING')` as a statement of its own: nobody reads what it said. */
function resultIgnored(node: TSESTree.Node): boolean {
  let current = node;
  while (current.parent && (current.parent.type === 'AwaitExpression' || current.parent.type === 'ChainExpression')) current = current.parent;
  return current.parent?.type === 'ExpressionStatement';
}

/**
 * A durable claim whose answer the function uses: an inbox insert that skips duplicates and is
 * read, SET NX, a conditional put that fails on a duplicate, a team's claim helper. With one, the
 * memory is only a fast path in front of it.
 */
function claimsDurably(fn: FunctionNode, file: FileContext, operationsAt: (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression) => readonly DataOperation[]): boolean {
  let found = false;
  walk(fn.body, file.visitorKeys, (node) => {
    if (found) return false;
    if (node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression') return true;
    found = operationsAt(node).some(
      (operation) =>
        operation.claim !== undefined ||
        (operation.skipsDuplicates === true && !resultIgnored(operation.node)) ||
        // A conditional put, an insert that fails on its unique key: the duplicate throws.
        ((operation.kind === 'insert' || operation.kind === 'upsert') && operation.arbitrated && operation.skipsDuplicates !== true),
    );
    return !found;
  }, 20_000);
  return found;
}

export const noInMemoryDedupe = createRule({
  name: 'no-in-memory-dedupe',
  meta: {
    type: 'problem',
    messages: {
      inMemory:
        '{{collection}} is process memory: after a restart, or on a second worker, it is empty and {{effect}} runs again. Claim the key durably instead: a row with a unique key, or SET NX.',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const analysis = analysisFor(context);
    const file = analysis.file;
    const table = file.libraries;
    const tracers = new Map<FileContext, OriginTracer>([[file, analysis.tracer]]);
    const tracerOf = (module: FileContext) => {
      let tracer = tracers.get(module);
      if (!tracer) tracers.set(module, (tracer = new OriginTracer(module)));
      return tracer;
    };
    const operationsIn = (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression, module: FileContext) =>
      module === file ? analysis.operationsAt(node) : findOperations(node, module);
    const reported = new Set<TSESTree.Node>();

    const check = (membership: Membership) => {
      if (reported.has(membership.node)) return;
      const { collection, key } = membership;
      for (const gate of gatesOf(membership.node, membership.whenTruthy, file)) {
        const fn = enclosingFunctionOf(gate.statement);
        const region = unseenCode(gate);
        if (!fn || region.length === 0) continue;
        const effect = effectIn(region, file, operationsIn);
        if (!effect) continue;
        if (claimsDurably(fn, file, (node) => analysis.operationsAt(node))) return;
        const facts = analysis.tracer.scalars(key);
        if (facts.length > 0 && facts.every((fact) => fact.kind === 'constant' || fact.kind === 'time' || fact.kind === 'minted')) return;
        const wanted = keyText(key, file);
        const here = recordingsOf(collection, fn.body, file);
        const sameKey = membership.records || here.some((recording) => recording.key !== undefined && keyText(recording.key, file) === wanted);
        const everywhere = [...here, ...recordingsWhereItLives(collection)];
        // A Map or an object that stores computed values is a cache, not a record of what was done.
        if (!everywhere.every((recording) => storesMarker(recording, tracerOf))) return;
        // The code serves deliveries, or the key is the delivery's own id: any recording will do.
        const delivery = analysis.servesDelivery(membership.node) || facts.some((fact) => fact.kind === 'delivery' && !fact.guessed && !fact.fallback);
        // Otherwise the whole protocol in one function: ask, act, record the same key, for a key
        // the function was given, outside any loop over data it holds.
        const protocol = sameKey && fromParameters(key, file) && !inLoopWithin(membership.node, fn);
        if (!(delivery && (sameKey || everywhere.length > 0 || membership.records)) && !protocol) return;
        reported.add(membership.node);
        context.report({ node: membership.node, messageId: 'inMemory', data: { collection: collection.name, effect: effect.label.replace(/`/g, '') } });
        return;
      }
    };

    const lookup = (node: TSESTree.Node) => {
      const membership = membershipAt(node, file);
      if (membership) check(membership);
    };

    return {
      CallExpression(node) {
        const method = node.callee.type === 'MemberExpression' ? calleeName(node.callee) : undefined;
        // A collection's own method, or a call whose answer decides an `if`: then it may be a helper asking a collection.
        if ((method && table.collectionMethods.has(method)) || gatesOf(node, 'present', file).length > 0) lookup(node);
      },
      'BinaryExpression[operator="in"]': lookup,
      'MemberExpression[computed=true]': lookup,
    };
  },
});
