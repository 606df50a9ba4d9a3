import type { TSESTree } from '@typescript-eslint/utils';

import { catchAround, enclosingFunction } from '../../analysis/control/statements.js';
import { analysisFor } from '../../lint/file-analysis.js';
import { runsPerDelivery } from '../../lint/stakes.js';
import type { FileContext, FunctionNode } from '../../analysis/context/file-context.js';
import {
  callsOf,
  effectIn,
  forgetsByItself,
  fromParameters,
  gatesOf,
  inLoopWithin,
  keyText,
  membershipAt,
  recordingsOf,
  recordingsWhereItLives,
  removedIn,
  savedToStore,
  returnedBoolean,
  storesMarker,
  tornDownWithState,
  unseenCode,
  type Gate,
  type Membership,
} from './memory.js';
import { keyOfClosedSet } from './closed-keys.js';
import { originAt } from '../../analysis/keys/key-facts.js';
import { readName } from '../../analysis/naming/names.js';
import {
  namesCache,
  namesHandledRecord,
  namesPassingState,
  namesPeople,
  namesRecency,
} from '../../analysis/naming/stores.js';
import type { Leaf } from '../../analysis/origin/facts.js';
import type { DataOperation } from '../../analysis/operations/index.js';
import { callOperations } from '../../analysis/control/helper-operations.js';
import { OriginTracer } from '../../analysis/origin/origin.js';
import { answerUnread, calleeName } from '../../analysis/syntax/nodes.js';
import { walk } from '../../analysis/syntax/walk.js';
import { createRule } from '../../create-rule.js';

/**
 * A durable claim whose answer the function uses: an inbox insert that skips duplicates and is
 * read, SET NX, a conditional put that fails on a duplicate, a team's claim helper. With one, the
 * memory is only a fast path in front of it.
 */
function claimsDurably(
  fn: FunctionNode,
  effect: TSESTree.Node,
  file: FileContext,
  operationsAt: (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression) => readonly DataOperation[],
): boolean {
  let found = false;
  walk(
    fn.body,
    file.visitorKeys,
    (node) => {
      if (found) return false;
      if (node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression') return true;
      // Only a claim on the way to the effect gates it: not one in another branch of the function.
      if (node.range[0] >= effect.range[0] || !onTheWayTo(node, effect, fn)) return true;
      found = operationsAt(node).some(
        (operation) =>
          operation.claim !== undefined ||
          (operation.skipsDuplicates === true && !answerUnread(operation)) ||
          // A conditional put, an insert that fails on its unique key: the duplicate throws.
          ((operation.kind === 'insert' || operation.kind === 'upsert') &&
            operation.arbitrated &&
            operation.skipsDuplicates !== true),
      );
      return !found;
    },
    20_000,
  );
  return found;
}

/** Does every branch that holds `node` (up to `fn`) also hold `effect`: does the code reach `effect` after `node`? */
function onTheWayTo(node: TSESTree.Node, effect: TSESTree.Node, fn: FunctionNode): boolean {
  const holds = (outer: TSESTree.Node) => outer.range[0] <= effect.range[0] && effect.range[1] <= outer.range[1];
  for (let current: TSESTree.Node | undefined = node; current && current !== fn; current = current.parent) {
    const parent: TSESTree.Node | undefined = current.parent;
    if (!parent) break;
    const branch =
      (parent.type === 'IfStatement' && current !== parent.test) ||
      (parent.type === 'ConditionalExpression' && current !== parent.test) ||
      parent.type === 'SwitchCase' ||
      (parent.type === 'LogicalExpression' && current === parent.right);
    if (branch && !holds(current)) return false;
  }
  return true;
}

/**
 * Could the callee be a function of the project (this file's, or one it imports)? A cheap look,
 * before following the call's answer to the conditions it decides.
 */
function mayCallHelper(callee: TSESTree.Node, file: FileContext): boolean {
  if (callee.type === 'Identifier')
    return file.imports.bindings.has(callee.name) || file.localFunction(callee) !== undefined;
  if (callee.type !== 'MemberExpression') return false;
  if (callee.object.type === 'ThisExpression') return file.localFunction(callee) !== undefined;
  return callee.object.type === 'Identifier' && file.imports.names.get(callee.object.name) === '*';
}

/**
 * The answer a helper gives when the gate holds (`if (seen.has(id)) return true; …; return
 * false`): a function that decides for its callers, whose work follows the call, not the check.
 */
function answerOfHelper(gate: Gate, fn: FunctionNode): boolean | undefined {
  const answer = returnedBoolean(gate.statement.consequent);
  if (answer === undefined || fn.body.type !== 'BlockStatement' || gate.statement.parent !== fn.body) return undefined;
  return returnedBoolean(fn.body.body[fn.body.body.length - 1]) === !answer ? answer : undefined;
}

/**
 * Code that only hands the decision on to code out of sight: it returns a constant (a guard's
 * `return true`) or calls the callback its function was given (a middleware's `next()`).
 */
function handsOn(region: readonly TSESTree.Node[]): boolean {
  const handing = (node: TSESTree.Node): boolean => {
    switch (node.type) {
      case 'BlockStatement':
        return node.body.every(handing);
      case 'ReturnStatement':
        return !node.argument || node.argument.type === 'Literal' || handing(node.argument);
      case 'ExpressionStatement':
        return handing(node.expression);
      case 'AwaitExpression':
        return handing(node.argument);
      case 'CallExpression': {
        const fn = enclosingFunction(node);
        const callee = node.callee;
        return (
          callee.type === 'Identifier' &&
          fn !== undefined &&
          fn.params.some((param) => param.type === 'Identifier' && param.name === callee.name)
        );
      }
      default:
        return false;
    }
  };
  return region.length > 0 && region.every(handing);
}

export const noInMemoryDedupe = createRule({
  name: 'no-in-memory-dedupe',
  meta: {
    type: 'problem',
    messages: {
      inMemory:
        'Duplicates remembered in process memory: {{collection}} is empty after a restart and on a second worker, so {{effect}} runs again.',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const analysis = analysisFor(context);
    const file = analysis.file;
    const table = file.libraries;
    // In a page, memory is one user's: no restart or second worker forgets what it holds for them.
    if (table.runsInBrowser(file.imports)) return {};
    const tracers = new Map<FileContext, OriginTracer>([[file, analysis.tracer]]);
    const tracerOf = (module: FileContext) => {
      let tracer = tracers.get(module);
      if (!tracer) tracers.set(module, (tracer = new OriginTracer(module)));
      return tracer;
    };
    const operationsIn = (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression, module: FileContext) =>
      module === file ? analysis.operationsAt(node) : callOperations(node, module);
    const reported = new Set<TSESTree.Node>();

    /**
     * A helper that decides and returns a boolean (`if (seen.has(id)) return false; …; return
     * true`) gates its callers' code: the conditions its answer decides there, in this module or
     * the ones that import it. A helper of the same module is reported by its caller, at the call;
     * one that callers import is reported here, at the lookup, once for all of them.
     */
    const callersGates = (gate: Gate, fn: FunctionNode) => {
      const answer = answerOfHelper(gate, fn);
      if (answer === undefined) return [];
      const truthyWhenHeld = gate.whenTrue === 'present' ? answer : !answer;
      return callsOf(fn, file)
        .slice(0, 20)
        .filter(({ call, module }) => !membershipAt(call, module))
        .flatMap(({ call, module }) =>
          gatesOf(call, truthyWhenHeld ? 'present' : 'absent', module).map((outer) => ({ outer, module })),
        );
    };

    const effectOfCallers = (gate: Gate, fn: FunctionNode) => {
      for (const { outer, module } of callersGates(gate, fn)) {
        const effect = effectIn(unseenCode(outer), module, operationsIn);
        if (effect) return effect;
      }
      return undefined;
    };

    /**
     * The work a check turns away may be out of sight: a guard that answers a controller, a
     * middleware that calls `next()`. A collection named as the record of handled deliveries,
     * asked and given the same delivery id, says what it is for: the handling behind it repeats.
     */
    const handledOutOfSight = (membership: Membership, facts: readonly Leaf[], gate: Gate, fn: FunctionNode) => {
      const { collection, key } = membership;
      // The delivery's id, by where it comes from or by the name the code asks with (`isReplay(eventId)`).
      const delivery =
        facts.some((fact) => fact.kind === 'delivery') ||
        file.libraries.names.meaning(readName(keyText(key, file))) === 'delivery';
      if (!namesHandledRecord(collection.name) || !delivery) return undefined;
      // The gate hands on itself (at a helper's call), or the helper's callers do.
      const handing =
        handsOn(unseenCode(gate)) || callersGates(gate, fn).some(({ outer }) => handsOn(unseenCode(outer)));
      if (!handing || !recordingsIn(membership, fn).sameKey) return undefined;
      return { node: membership.node, label: 'the work behind the check', message: false };
    };

    /** The recordings of the membership's collection in `fn`, and whether one records the key it asks about. */
    const recordingsIn = (membership: Membership, fn: FunctionNode) => {
      const wanted = keyText(membership.key, file);
      const here = recordingsOf(membership.collection, fn.body, file);
      const sameKey =
        membership.records ||
        here.some((recording) => recording.key !== undefined && keyText(recording.key, file) === wanted);
      return { here, sameKey };
    };

    const check = (membership: Membership) => {
      if (reported.has(membership.node)) return;
      const { collection, key } = membership;
      for (const gate of gatesOf(membership.node, membership.whenTruthy, file)) {
        const fn = enclosingFunction(gate.statement);
        const region = unseenCode(gate);
        // A question asked in a `catch` is about the run that just failed (did a step inside finish
        // it?), not about deliveries handled before.
        if (!fn || reported.has(gate.statement) || catchAround(gate.statement)) continue;
        const facts = analysis.tracer.scalars(key);
        const effect =
          effectIn(region, file, operationsIn) ??
          effectOfCallers(gate, fn) ??
          handledOutOfSight(membership, facts, gate, fn);
        if (!effect) continue;
        if (claimsDurably(fn, effect.node, file, (node) => analysis.operationsAt(node))) return;
        if (
          (facts.length > 0 &&
            facts.every((fact) => fact.kind === 'constant' || fact.kind === 'time' || fact.kind === 'minted')) ||
          keyOfClosedSet(key, file)
        )
          return;
        const { here, sameKey } = recordingsIn(membership, fn);
        const everywhere = [...here, ...recordingsWhereItLives(collection, file)];
        // A Map or an object that stores computed values is a cache, not a record of what was done.
        if (!everywhere.every((recording) => storesMarker(recording, tracerOf))) return;
        // So is one named as a cache (`resourceCached.set(lang, true)`): it says what was loaded, not what was handled.
        if (namesCache(collection.name)) return;
        // And one the code empties again, in the asking function, or where the memory lives with the
        // rest of the state kept for the same work (a turn's end): what is in flight, not a record of what was done.
        if (removedIn(collection, fn.body, file) || tornDownWithState(collection)) return;
        // And one named for a state that comes and goes (`disconnected`), set back where it lives
        // (on reconnecting): a mode, not a record of what was done.
        if (namesPassingState(collection.name) && removedIn(collection, collection.owner, collection.module)) return;
        // And one that forgets each key by itself, named for when a message was last sent, and asked
        // with something other than the delivery's id (a room, a user): a rate limit of notices, one
        // mention per room per while; a restart lets one more through, as the expiry does anyway.
        if (
          effect.message &&
          forgetsByItself(collection) &&
          namesRecency(collection.name) &&
          !namesHandledRecord(collection.name) &&
          !facts.some((fact) => fact.kind === 'delivery')
        )
          return;
        // And one named for the people it has answered (`alreadyCheckedUsernames`), before a message,
        // asked with something other than the delivery's id: it remembers people, a policy of answering
        // each once that skips every later message of theirs; a restart lets one more answer through.
        if (
          effect.message &&
          namesPeople(collection.name) &&
          !namesHandledRecord(collection.name) &&
          !facts.some((fact) => fact.kind === 'delivery')
        )
          return;
        // And one the code writes to a store whole: a mirror of what the store keeps.
        if (savedToStore(collection, operationsIn)) return;
        // The code serves deliveries, or the key is the delivery's own id: any recording will do.
        const delivery =
          runsPerDelivery(membership.node, analysis) ||
          facts.some((fact) => fact.kind === 'delivery' && !fact.guessed && !fact.fallback);
        // Otherwise the whole protocol in one function: ask, act, record the same key, for a key
        // the function was given, outside any loop over data it holds.
        const protocol = sameKey && fromParameters(key, file) && !inLoopWithin(membership.node, fn);
        if (!(delivery && (sameKey || everywhere.length > 0 || membership.records)) && !protocol) return;
        reported.add(membership.node);
        reported.add(gate.statement);
        // Where the memory is made, in this file or the module that holds it, for the editor's related information.
        const origin = {
          origin: originAt(collection.declaration),
          ...(collection.module.filename === file.filename ? {} : { originFile: collection.module.filename }),
          originNote: 'the memory is made here',
        };
        context.report({
          node: membership.node,
          messageId: 'inMemory',
          data: { collection: collection.name, effect: effect.label.replace(/`/g, ''), ...origin },
        });
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
        if (
          (method && table.collectionMethods.has(method)) ||
          (mayCallHelper(node.callee, file) && gatesOf(node, 'present', file).length > 0)
        )
          lookup(node);
      },
      'BinaryExpression[operator="in"]': lookup,
      'MemberExpression[computed=true]': lookup,
    };
  },
});
