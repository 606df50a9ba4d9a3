import type { TSESTree } from '@typescript-eslint/utils';

import { collectionOf, sameCollection, type Collection } from '../../analysis/work/collections.js';
import { exits } from '../../analysis/control/statements.js';
import { flip, isNothing, type Presence } from '../../analysis/control/polarity.js';
import { isFunction, type FileContext, type FunctionNode } from '../../analysis/context/file-context.js';
import type { DataOperation } from '../../analysis/operations/index.js';
import type { OriginTracer } from '../../analysis/origin/origin.js';
import { sitesInImporters } from '../../analysis/project/import-sites.js';
import { calledFunction } from '../../analysis/project/calls.js';
import { calleeName, callTaking, keyName, propertyName, withoutTypeAssertions } from '../../analysis/syntax/nodes.js';
import { variableOf } from '../../analysis/syntax/scope.js';
import { isWork } from '../../analysis/work/work.js';
import { sends } from '../../analysis/work/messages.js';
import { writingRequest } from '../../analysis/work/requests.js';
import { providerCallAt } from '../../analysis/keys/provider-calls.js';
import type { ProviderEffect } from '../../analysis/contract/providers.js';
import { someNode, walk } from '../../analysis/syntax/walk.js';

/**
 * How code consults a collection kept in process memory: which expression asks whether a key is
 * held, which code runs only when it is not, and what that code does.
 */

/** An expression that asks whether a key is held: truthy when it is (`present`) or when it is not. */
export interface Membership {
  node: TSESTree.Node;
  collection: Collection;
  /** The key asked about, as written where the question is asked. */
  key: TSESTree.Node;
  whenTruthy: 'present' | 'absent';
  /** The call is a helper that also records the key (`isDuplicate(id)` that adds it). */
  records: boolean;
}

/** A write of a key into a collection. */
export interface Recording {
  node: TSESTree.Node;
  key?: TSESTree.Node;
  /** What is stored under the key (a Map's value, an object's property), if anything. */
  value?: TSESTree.Node;
  module: FileContext;
}

/** Code that changes the world: a write that is not a read, a message sent, or a helper doing one. */
export interface Effect {
  /** The node in the examined code: the write, the send, or the call of the helper. */
  node: TSESTree.Node;
  label: string;
  /** The effect is a message sent (an alert, a chat message), not a write or a request. */
  message: boolean;
}

/** `seen.has(id)`, `seen.includes(id)`, `id in seen`, `seen[id]`: a direct question to a collection. */
export function directLookup(
  node: TSESTree.Node,
  file: FileContext,
): { collection: Collection; key: TSESTree.Node } | undefined {
  if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression') {
    const method = propertyName(node.callee);
    const key = node.arguments[0];
    if (!method || !key || key.type === 'SpreadElement' || !file.libraries.collectionMethods.has(method))
      return undefined;
    const collection = collectionOf(node.callee.object, file);
    return collection && collection.spec.lookups.includes(method) ? { collection, key } : undefined;
  }
  if (node.type === 'BinaryExpression' && node.operator === 'in' && node.left.type !== 'PrivateIdentifier') {
    const collection = collectionOf(node.right, file);
    return collection && collection.spec.lookups.includes('in') ? { collection, key: node.left } : undefined;
  }
  if (
    node.type === 'MemberExpression' &&
    node.computed &&
    !(node.parent?.type === 'AssignmentExpression' && node.parent.left === node)
  ) {
    if (node.property.type === 'Literal') return undefined;
    const collection = collectionOf(node.object, file);
    return collection && collection.spec.lookups.includes('[]') ? { collection, key: node.property } : undefined;
  }
  return undefined;
}

/** `seen.add(id)`, `seen.set(id, true)`, `seen.push(id)`, `seen[id] = true`, when `node` is one for `collection`. */
export function directRecording(node: TSESTree.Node, collection: Collection, file: FileContext): Recording | undefined {
  if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression') {
    const method = propertyName(node.callee);
    if (!method || !collection.spec.records.includes(method)) return undefined;
    const target = collectionOf(node.callee.object, file);
    if (!target || !sameCollection(target, collection)) return undefined;
    const [key, value] = node.arguments;
    return {
      node,
      key: key?.type === 'SpreadElement' ? undefined : key,
      value: value?.type === 'SpreadElement' ? undefined : value,
      module: file,
    };
  }
  if (
    node.type === 'AssignmentExpression' &&
    node.left.type === 'MemberExpression' &&
    node.left.computed &&
    collection.spec.records.includes('[]')
  ) {
    const target = collectionOf(node.left.object, file);
    if (!target || !sameCollection(target, collection)) return undefined;
    return { node, key: node.left.property, value: node.right, module: file };
  }
  return undefined;
}

/** The recordings of `collection` in `root` (not following helpers). */
function recordingsIn(root: TSESTree.Node, collection: Collection, file: FileContext): Recording[] {
  const found: Recording[] = [];
  walk(
    root,
    file.visitorKeys,
    (node) => {
      const recording = directRecording(node, collection, file);
      if (recording) found.push(recording);
    },
    50_000,
  );
  return found;
}

export function returnedBoolean(statement: TSESTree.Statement | null | undefined): boolean | undefined {
  if (!statement) return undefined;
  if (statement.type === 'BlockStatement') return returnedBoolean(statement.body[statement.body.length - 1]);
  if (
    statement.type === 'ReturnStatement' &&
    statement.argument?.type === 'Literal' &&
    typeof statement.argument.value === 'boolean'
  )
    return statement.argument.value;
  return undefined;
}

/** A condition that a membership answer decides, and what the condition's truth means. */
export interface Gate {
  statement: TSESTree.IfStatement;
  whenTrue: Presence;
}

/**
 * The `if` statements a membership answer decides, following it through `!`, `||`, `&&`,
 * comparisons with nothing, and one constant (`const dup = seen.has(id); if (dup) return`).
 * A comparison with a number (`counts.get(id) > 5`) is a counter, not membership.
 */
export function gatesOf(start: TSESTree.Node, whenTruthy: Presence, file: FileContext, depth = 0): Gate[] {
  let node = start;
  let polarity = whenTruthy;
  for (let step = 0; step < 12; step += 1) {
    const parent: TSESTree.Node | undefined = node.parent;
    if (!parent) return [];
    switch (parent.type) {
      case 'AwaitExpression':
      case 'ChainExpression':
      case 'TSAsExpression':
      case 'TSNonNullExpression':
      case 'LogicalExpression':
        break;
      case 'UnaryExpression':
        if (parent.operator !== '!') return [];
        polarity = flip(polarity);
        break;
      case 'CallExpression':
        if (parent.callee.type === 'Identifier' && parent.callee.name === 'Boolean' && parent.arguments[0] === node)
          break;
        return [];
      case 'BinaryExpression': {
        const other = parent.left === node ? parent.right : parent.left;
        if (!isNothing(other)) return [];
        if (parent.operator === '===' || parent.operator === '==') polarity = flip(polarity);
        else if (parent.operator !== '!==' && parent.operator !== '!=') return [];
        break;
      }
      case 'IfStatement':
        return parent.test === node ? [{ statement: parent, whenTrue: polarity }] : [];
      case 'VariableDeclarator': {
        if (parent.init !== node || parent.id.type !== 'Identifier' || depth > 0) return [];
        const variable = variableOf(parent.id, file.scopeOf(parent.id));
        if (
          !variable ||
          variable.references.some((reference) => reference.isWrite() && reference.identifier !== parent.id)
        )
          return [];
        return variable.references
          .filter((reference) => reference.isRead())
          .flatMap((reference) => gatesOf(reference.identifier as TSESTree.Node, polarity, file, depth + 1));
      }
      default:
        return [];
    }
    node = parent;
  }
  return [];
}

/** The statements that run only when the key was not held, for one gate. */
export function unseenCode(gate: Gate): TSESTree.Node[] {
  const { statement, whenTrue } = gate;
  const region: TSESTree.Node[] = [];
  const whenAbsent = whenTrue === 'absent' ? statement.consequent : statement.alternate;
  if (whenAbsent) region.push(whenAbsent);
  if (whenTrue === 'present' && exits(statement.consequent) && !statement.alternate) {
    const holder = statement.parent;
    const body =
      holder?.type === 'BlockStatement' || holder?.type === 'Program' || holder?.type === 'StaticBlock'
        ? holder.body
        : holder?.type === 'SwitchCase'
          ? holder.consequent
          : undefined;
    if (body) region.push(...body.slice(body.indexOf(statement) + 1));
  }
  return region;
}

/**
 * The membership questions an expression asks: itself a lookup, or a call of a helper that
 * returns one (`isProcessed(id)` returning `seen.has(id)`), or decides with one and returns a
 * boolean (`isDuplicate(id)`: true when held, else records it and returns false).
 */
export function membershipAt(node: TSESTree.Node, file: FileContext): Membership | undefined {
  const direct = directLookup(node, file);
  if (direct) return { node, ...direct, whenTruthy: 'present', records: false };
  if (node.type !== 'CallExpression') return undefined;
  const helper = calledFunction(file, node.callee);
  if (!helper) return undefined;
  const { fn, module } = helper;
  const argumentFor = (key: TSESTree.Node): TSESTree.Node | undefined => {
    const index =
      key.type === 'Identifier'
        ? fn.params.findIndex((param) => param.type === 'Identifier' && param.name === key.name)
        : -1;
    const argument = node.arguments[index < 0 ? 0 : index];
    return argument && argument.type !== 'SpreadElement' ? argument : undefined;
  };
  // A helper returning the answer: `return seen.has(id)`, `=> seen.has(id)`, `return !seen.has(id)`.
  const returned =
    fn.body.type === 'BlockStatement'
      ? fn.body.body.length === 1 && fn.body.body[0].type === 'ReturnStatement'
        ? fn.body.body[0].argument
        : null
      : fn.body;
  if (returned) {
    const negated = returned.type === 'UnaryExpression' && returned.operator === '!';
    const inner = directLookup(negated ? returned.argument : returned, module);
    const key = inner && argumentFor(inner.key);
    if (inner && key)
      return { node, collection: inner.collection, key, whenTruthy: negated ? 'absent' : 'present', records: false };
  }
  // A helper deciding: `if (seen.has(id)) return true; seen.add(id); return false;`.
  if (fn.body.type !== 'BlockStatement') return undefined;
  for (const statement of fn.body.body) {
    if (statement.type !== 'IfStatement' || statement.alternate) continue;
    const inner = lookupIn(statement.test, module);
    if (!inner) continue;
    const gates = gatesOf(inner.node, 'present', module);
    const gate = gates.find((candidate) => candidate.statement === statement);
    const answer = returnedBoolean(statement.consequent);
    const key = argumentFor(inner.key);
    if (!gate || answer === undefined || !key) continue;
    const heldAnswer = gate.whenTrue === 'present' ? answer : !answer;
    const records = recordingsIn(fn.body, inner.collection, module).length > 0;
    // A helper of another module that asks and records its own collection holds the whole dedupe:
    // the finding is there, at its lookup, once for all its callers (see `effectOfCallers`).
    if (records && module !== file) return undefined;
    return { node, collection: inner.collection, key, whenTruthy: heldAnswer ? 'present' : 'absent', records };
  }
  return undefined;
}

/** The first direct lookup inside a condition. */
function lookupIn(
  test: TSESTree.Node,
  file: FileContext,
): { node: TSESTree.Node; collection: Collection; key: TSESTree.Node } | undefined {
  let found: { node: TSESTree.Node; collection: Collection; key: TSESTree.Node } | undefined;
  walk(
    test,
    file.visitorKeys,
    (node) => {
      if (found) return false;
      const lookup = directLookup(node, file);
      if (lookup) found = { node, ...lookup };
      return !found && !isFunction(node);
    },
    500,
  );
  return found;
}

/**
 * Does `scope` itself take keys out of the collection (`seen.delete(id)`, `delete seen[id]`, or
 * sets them back to nothing, `running[task] = false`, in a `finally` or on a later event)? Then it holds what is going on now (runs in flight, a mode),
 * not what was handled: nothing in it is meant to outlast the work. A removal on a timer only
 * expires a key that was a record until then.
 */
export function removedIn(collection: Collection, scope: TSESTree.Node, file: FileContext): boolean {
  const removes = (node: TSESTree.Node) => {
    const target = emptied(node);
    const removedFrom = target && collectionOf(target, file);
    return removedFrom !== undefined && sameCollection(removedFrom, collection);
  };
  return someNode(
    scope,
    file.visitorKeys,
    (node) => {
      // `setTimeout(() => seen.delete(id), TTL)`, `if (now - at > TTL) seen.delete(id)`: the key
      // expires after a while; it was a record until then. Unless the work the timer starts takes
      // it out when it ends (`retry(id).finally(() => pending.delete(id))`): a retry in flight.
      if (timerCall(node) || (node.type === 'IfStatement' && comparesAge(node.test, file)))
        return (
          someNode(node, file.visitorKeys, (inner) => {
            const last = whenDone(inner);
            return last !== undefined && someNode(last, file.visitorKeys, removes);
          }) || 'skip'
        );
      return removes(node);
    },
    50_000,
  );
}

/** What runs when a piece of work ends, however it ends: a `finally` block, or `.finally(…)`'s callback. */
function whenDone(node: TSESTree.Node): TSESTree.Node | undefined {
  if (node.type === 'TryStatement') return node.finalizer ?? undefined;
  if (
    node.type === 'CallExpression' &&
    node.callee.type === 'MemberExpression' &&
    propertyName(node.callee) === 'finally'
  )
    return node.arguments[0];
  return undefined;
}

/**
 * Is the collection emptied where it lives together with other memory kept for the same work, in
 * one block (`this.firstSent.delete(turn); this.pending.delete(turn)` when a turn ends)? Then it
 * is part of the state of work in flight, torn down when that work is done. A method that takes
 * out its key alone (to let a failed event be retried) or prunes old keys keeps a record.
 */
export function tornDownWithState(collection: Collection): boolean {
  const module = collection.module;
  return someNode(
    collection.owner,
    module.visitorKeys,
    (node) => {
      if (node.type !== 'BlockStatement') return false;
      const removed = node.body.flatMap((statement) => {
        const target = statement.type === 'ExpressionStatement' ? emptied(statement.expression) : undefined;
        const from = target && collectionOf(target, module);
        return from ? [from] : [];
      });
      return (
        removed.some((from) => sameCollection(from, collection)) &&
        removed.some((from) => !sameCollection(from, collection))
      );
    },
    50_000,
  );
}

/** Is the collection made with an option that makes each key expire by itself (`new LRUCache({ ttl })`)? */
export function forgetsByItself(collection: Collection): boolean {
  const options = collection.spec.expiresBy ?? [];
  const value = withoutTypeAssertions(collection.made);
  const settings = value.type === 'NewExpression' ? value.arguments[0] : undefined;
  return (
    settings?.type === 'ObjectExpression' &&
    settings.properties.some((property) => property.type === 'Property' && options.includes(keyName(property) ?? ''))
  );
}

/** A condition on how old something is: `Date.now() - at > TTL_MS`, `now - entry.ts > maxAge`, `expiresAt < now`. */
function comparesAge(test: TSESTree.Node, file: FileContext): boolean {
  return (
    test.type === 'BinaryExpression' &&
    /^[<>]=?$/.test(test.operator) &&
    /\bDate\.now\(|\bnow\b|ttl|expir|max_?age|stale/i.test(file.code(test))
  );
}

/** `setTimeout(…)`, `setInterval(…)`: code that runs later, on a timer of its own. */
function timerCall(node: TSESTree.Node): boolean {
  return node.type === 'CallExpression' && /^(setTimeout|setInterval)$/.test(calleeName(node.callee) ?? '');
}

/** The collection a node takes a key out of: `seen.delete(id)`, `delete seen[id]`, `seen.set(id, false)`, `seen[id] = null`. */
function emptied(node: TSESTree.Node): TSESTree.Node | undefined {
  if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression') {
    const method = propertyName(node.callee);
    const cleared = method === 'set' && node.arguments[1] !== undefined && isNothing(node.arguments[1]);
    return method === 'delete' || cleared ? node.callee.object : undefined;
  }
  if (node.type === 'UnaryExpression' && node.operator === 'delete' && node.argument.type === 'MemberExpression')
    return node.argument.object;
  if (node.type === 'AssignmentExpression' && node.operator === '=' && node.left.type === 'MemberExpression')
    return node.left.computed && isNothing(node.right) ? node.left.object : undefined;
  return undefined;
}

/**
 * Where the key is recorded: in `scope` directly (`seen.add(id)`), or by a helper called there
 * (`markAsProcessed(id)`, one level down, in this module or another).
 */
export function recordingsOf(collection: Collection, scope: TSESTree.Node, file: FileContext): Recording[] {
  const found: Recording[] = [];
  walk(
    scope,
    file.visitorKeys,
    (node) => {
      const recording = directRecording(node, collection, file);
      if (recording) {
        found.push(recording);
        return;
      }
      if (node.type !== 'CallExpression' || collection.spec.records.includes(calleeName(node.callee) ?? '')) return;
      const helper = calledFunction(file, node.callee);
      if (!helper || helper.fn.body.type !== 'BlockStatement') return;
      for (const inner of recordingsIn(helper.fn.body, collection, helper.module)) {
        const argument = node.arguments[0];
        found.push({ ...inner, node, key: argument && argument.type !== 'SpreadElement' ? argument : undefined });
      }
    },
    50_000,
  );
  return found;
}

/**
 * Every recording of the collection where it lives (its module, or its class) and, for one
 * imported from another module, in the module that asks it (`markProcessed` beside `isProcessed`).
 */
export function recordingsWhereItLives(collection: Collection, asking: FileContext): Recording[] {
  const where = recordingsIn(collection.owner, collection, collection.module);
  if (asking.filename === collection.module.filename) return where;
  return [...where, ...recordingsIn(asking.sourceAst, collection, asking)];
}

/**
 * Is the collection itself written to a store where it lives (`redis.set(key,
 * JSON.stringify([...this.executed]))`)? Then it is a mirror of what the store keeps, read back
 * after a restart, not memory of this process alone.
 */
export function savedToStore(
  collection: Collection,
  operationsAt: (node: TSESTree.CallExpression, module: FileContext) => readonly DataOperation[],
): boolean {
  const module = collection.module;
  const holds = (root: TSESTree.Node) =>
    someNode(root, module.visitorKeys, (node) => {
      const named =
        node.type === 'Identifier' || node.type === 'MemberExpression' ? collectionOf(node, module) : undefined;
      return named !== undefined && sameCollection(named, collection);
    });
  return someNode(
    collection.owner,
    module.visitorKeys,
    (node) =>
      node.type === 'CallExpression' &&
      node.arguments.some(holds) &&
      operationsAt(node, module).some((operation) => operation.kind !== 'read'),
    50_000,
  );
}

/** Is the value stored under a key a marker (true, a time, a count of one), rather than a computed value kept for later? */
export function storesMarker(recording: Recording, tracer: (module: FileContext) => OriginTracer): boolean {
  const value = recording.value;
  if (!value) return true;
  const marker = (node: TSESTree.Node): boolean => {
    const inner = withoutTypeAssertions(node);
    if (inner.type === 'ObjectExpression')
      return inner.properties.every((property) => property.type === 'Property' && marker(property.value));
    const facts = tracer(recording.module).scalars(inner);
    return (
      facts.length > 0 &&
      facts.every((fact) => fact.kind === 'constant' || fact.kind === 'time' || fact.kind === 'minted')
    );
  };
  return marker(value);
}

/** A provider's effects that tell someone something, as a message does, rather than move money. */
const notices: ReadonlySet<ProviderEffect> = new Set(['email', 'sms', 'push', 'post']);

/**
 * Does a write happen, a message leave or a provider act, in `roots`, following helpers three
 * levels down (a route's dispatcher, the handler of one event type, the service that sends)?
 */
export function effectIn(
  roots: readonly TSESTree.Node[],
  file: FileContext,
  operationsAt: (
    node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
    module: FileContext,
  ) => readonly DataOperation[],
): Effect | undefined {
  const visited = new Set<FunctionNode>();
  const search = (root: TSESTree.Node, module: FileContext, depth: number): Omit<Effect, 'node'> | undefined => {
    let label: string | undefined;
    let message = false;
    const helpers: { call: TSESTree.CallExpression; module: FileContext }[] = [];
    walk(
      root,
      module.visitorKeys,
      (node) => {
        if (label) return false;
        if (node.type === 'NewExpression') {
          const name = calleeName(node.callee) ?? '';
          if (module.libraries.sendCommands.some((pattern) => pattern.test(name))) {
            label = `new ${name}()`;
            message = true;
          }
          return !label;
        }
        if (node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression') return true;
        // A write a repeat makes again: not one that settles duplicates itself (an upsert, ON CONFLICT,
        // a conditional put), nor one whose repeat leaves the same state (a delete, a SET, an update of values).
        const write = operationsAt(node, module).find((operation) => isWork(operation, module));
        if (write) {
          label = write.label;
          return false;
        }
        if (node.type === 'CallExpression') {
          if (sends(node, module)) {
            label = `${module.code(node.callee)}()`;
            message = true;
            return false;
          }
          const request = writingRequest(node, module);
          if (request) {
            label = request;
            return false;
          }
          // A provider's charge, refund or notice, unless it carries the key the provider settles repeats by.
          const provider = providerCallAt(node, module);
          if (provider && provider.keyed !== true) {
            label = provider.label;
            message = notices.has(provider.effect);
            return false;
          }
          helpers.push({ call: node, module });
        }
        return true;
      },
      20_000,
    );
    if (label) return { label, message };
    if (depth >= 3) return undefined;
    for (const { call, module: from } of helpers) {
      const helper = calledFunction(from, call.callee);
      if (!helper || visited.has(helper.fn)) continue;
      visited.add(helper.fn);
      const inner = search(helper.fn.body, helper.module, depth + 1);
      if (inner) return inner;
    }
    return undefined;
  };
  for (const root of roots) {
    // Report the call in the examined code that leads to the effect.
    let found: Effect | undefined;
    walk(
      root,
      file.visitorKeys,
      (node) => {
        if (found) return false;
        if (node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression' && node.type !== 'NewExpression')
          return true;
        const effect = search(node, file, 0);
        if (effect) found = { node, ...effect };
        return !found;
      },
      20_000,
    );
    if (found) return found;
  }
  return undefined;
}

/** Does the key come from what the function (or one enclosing it) was given: a parameter, through members, calls and constants? */
export function fromParameters(key: TSESTree.Node, file: FileContext, depth = 0): boolean {
  if (depth > 6) return false;
  const node = withoutTypeAssertions(key);
  switch (node.type) {
    case 'Identifier': {
      const variable = variableOf(node, file.scopeOf(node));
      const definition = variable?.defs[0];
      if (!variable || !definition) return false;
      if (definition.type === 'Parameter') return true;
      if (definition.type !== 'Variable') return false;
      const values: TSESTree.Node[] = [];
      if (definition.node.init) values.push(definition.node.init);
      for (const reference of variable.references)
        if (reference.writeExpr && reference.writeExpr !== definition.node.init) values.push(reference.writeExpr);
      // `const { id } = message`: the pattern's source is the initializer.
      return values.some((value) => fromParameters(value, file, depth + 1));
    }
    case 'MemberExpression':
      return fromParameters(node.object, file, depth + 1);
    case 'CallExpression':
      return (
        (node.callee.type === 'MemberExpression' && fromParameters(node.callee.object, file, depth + 1)) ||
        node.arguments.some(
          (argument) => argument.type !== 'SpreadElement' && fromParameters(argument, file, depth + 1),
        )
      );
    case 'AwaitExpression':
    case 'ChainExpression':
      return fromParameters(node.type === 'AwaitExpression' ? node.argument : node.expression, file, depth + 1);
    case 'LogicalExpression':
    case 'BinaryExpression':
      return (
        (node.left.type !== 'PrivateIdentifier' && fromParameters(node.left, file, depth + 1)) ||
        fromParameters(node.right, file, depth + 1)
      );
    case 'ConditionalExpression':
      return fromParameters(node.consequent, file, depth + 1) || fromParameters(node.alternate, file, depth + 1);
    case 'TemplateLiteral':
      return node.expressions.some((expression) => fromParameters(expression, file, depth + 1));
    default:
      return false;
  }
}

const loopTypes = new Set(['ForStatement', 'ForOfStatement', 'ForInStatement', 'WhileStatement', 'DoWhileStatement']);
const iterating = /^(forEach|map|flatMap|filter|reduce|some|every|find)$/;

/** Is `node` inside a loop (or an array callback) within `fn`: deduping items of data at hand? */
export function inLoopWithin(node: TSESTree.Node, fn: FunctionNode): boolean {
  for (let current = node.parent; current && current !== fn; current = current.parent)
    if (loopTypes.has(current.type)) return true;
  const call = callTaking(fn);
  return call !== undefined && iterating.test(calleeName(call.callee) ?? '');
}

/** Text of a key as written, for comparing a lookup's key with a recording's. */
export function keyText(node: TSESTree.Node, file: FileContext): string {
  return file.text(withoutTypeAssertions(node)).replace(/\s+/g, '').replace(/\?\./g, '.');
}

/** The calls of `fn`, in its own module and in the project's modules that import it (as an ES or a CommonJS export). */
export function callsOf(fn: FunctionNode, file: FileContext): { call: TSESTree.CallExpression; module: FileContext }[] {
  const calls: { call: TSESTree.CallExpression; module: FileContext }[] = [];
  const add = (site: TSESTree.Node, module: FileContext) => {
    const call = site.parent;
    if (call?.type === 'CallExpression' && call.callee === site) calls.push({ call, module });
  };
  for (const site of file.functionSites(fn)) if (site !== fn) add(site, file);
  for (const { module, site } of sitesInImporters(fn, file)) add(site, module);
  return calls;
}
