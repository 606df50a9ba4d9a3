import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext, FunctionNode } from '../context/file-context.js';
import { answeredBy } from './answers.js';
import { guards, type Guard } from './guards.js';
import { flip, isNothing, isZero, type Polarity } from './polarity.js';
import { keyName, promiseStep, propertyName, memberPath, thenCallback } from '../syntax/nodes.js';
import { variableOf } from '../syntax/scope.js';
import { enclosingFunction } from './statements.js';

/**
 * Does the application decide, from a value it read, whether a write happens? That is the shape
 * of a check-then-insert: `if (rows.length === 0) insert(…)`, `if (found) return; insert(…)`,
 * `exists || insert(…)`. Polarity matters: the write must run on the "no row" side, so a
 * find-then-update (`if (row) update(row)`) is not mistaken for one.
 */

/**
 * Climbs from an expression holding the read's result (polarity: truthy = found) to the guard
 * it feeds, composing the polarity on the way: `!x`, `x.length === 0`, `x == null`, `x > 0`.
 */
function climbToGuard(
  start: TSESTree.Node,
  polarity: Polarity,
  carrier?: string,
): { guard?: Guard; bound?: { id: TSESTree.Node; polarity: Polarity; carrier?: string }; returned?: Polarity } {
  let node = start;
  let current = polarity;
  // The field of the value that says whether a row was found (`{ processed: true }`), until it is read.
  let field = carrier;
  let viaField = false;
  let afterElement = false;
  // The place of the value among those `Promise.all` waits for, until a pattern takes it apart.
  let position: number | undefined;
  for (let guard = 0; guard < 16; guard += 1) {
    const parent = node.parent;
    if (!parent) return {};
    switch (parent.type) {
      case 'AwaitExpression':
      case 'ChainExpression':
      case 'TSAsExpression':
      case 'TSNonNullExpression':
        break;
      case 'MemberExpression': {
        const step = field === undefined && parent.object === node ? throughPromise(parent, current) : undefined;
        if (step) {
          [node, current] = [step.call, step.polarity];
          continue;
        }
        if (field !== undefined) {
          if (parent.object !== node || propertyName(parent) !== field) return {};
          field = undefined;
          break;
        }
        // rows.length, result.rowCount, rows[0], count.count: still "found" when truthy.
        if (parent.object !== node) return {};
        const member =
          propertyName(parent) ??
          (parent.computed && parent.property.type === 'Literal' ? String(parent.property.value) : '');
        // `snapshot.empty`, `result.isEmpty`: truthy when nothing was found.
        if (absenceMembers.test(member)) current = flip(current);
        else if (!existenceMembers.test(member)) {
          // `token.revoked` of a row the code knows it has is its state, whatever the test;
          // `found?.id` may still ask whether there is a row, and `rows[0].n` is what a
          // count or EXISTS query answered.
          if (!parent.optional && !afterElement) return {};
          viaField = true;
        }
        afterElement = member === '0';
        // `snapshot.exists()`, `result.isEmpty()`: the answer a method gives, as a member would.
        if (
          /^(exists|isEmpty)$/.test(member) &&
          parent.parent?.type === 'CallExpression' &&
          parent.parent.callee === parent &&
          parent.parent.arguments.length === 0
        )
          node = parent.parent;
        else node = parent;
        continue;
      }
      case 'CallExpression':
        // Boolean(x), Number(x.count): truthy exactly when x says a row was found.
        if (
          parent.callee.type === 'Identifier' &&
          ['Boolean', 'Number', 'parseInt', 'BigInt'].includes(parent.callee.name)
        )
          break;
        // JSON.parse(stored): a key-value store's value read back, nothing when nothing was stored.
        if (parent.arguments[0] === node && memberPath(parent.callee)?.join('.') === 'JSON.parse') break;
        return {};
      case 'UnaryExpression':
        if (parent.operator !== '!') return {};
        current = flip(current);
        break;
      case 'BinaryExpression': {
        const other = parent.left === node ? parent.right : parent.left;
        const { operator } = parent;
        if (isZero(other) || isNothing(other)) {
          if (operator === '===' || operator === '==' || operator === '<=' || operator === '<') current = flip(current);
          else if (operator !== '!==' && operator !== '!=' && operator !== '>') return {};
        } else if (other.type === 'Literal' && other.value === 1 && (operator === '<' || operator === '>=')) {
          if (operator === '<') current = flip(current);
        } else if (operator === '<' || operator === '<=' || operator === '>' || operator === '>=') {
          // `count >= MAX`: a quota compared with a limit, not a question of whether a row exists.
          return {};
        } else if (viaField) {
          // `found.status !== 'done'`: the row's state, not whether it exists.
          return {};
        } else {
          current = 'either';
        }
        break;
      }
      case 'LogicalExpression':
        if (parent.left === node) return { guard: { owner: parent, whenTrue: current } };
        break;
      case 'IfStatement':
        if (parent.test === node && field === undefined) return { guard: { owner: parent, whenTrue: current } };
        return {};
      case 'ConditionalExpression':
        if (parent.test === node) return field === undefined ? { guard: { owner: parent, whenTrue: current } } : {};
        // `client ? await client.query(q) : await pool.query(q)`: either way, the read's result.
        break;
      case 'ArrayExpression': {
        // `await Promise.all([claim, lookup])`: each answer keeps its place in the result.
        const all = parent.parent;
        if (
          position !== undefined ||
          all?.type !== 'CallExpression' ||
          all.arguments[0] !== parent ||
          memberPath(all.callee)?.join('.') !== 'Promise.all'
        )
          return {};
        position = parent.elements.indexOf(node as TSESTree.Expression);
        node = all;
        continue;
      }
      case 'VariableDeclarator':
        if (parent.init !== node) return {};
        if (position !== undefined) {
          // `const [[claimed], actor] = await Promise.all([…])`: the element in the answer's place.
          const element = parent.id.type === 'ArrayPattern' ? parent.id.elements[position] : undefined;
          return element && element.type !== 'RestElement' && field === undefined
            ? { bound: { id: element, polarity: current } }
            : {};
        }
        if (field !== undefined && parent.id.type === 'ObjectPattern') {
          // `const { processed } = await checkProcessed(id)`: only that field says it.
          const property = parent.id.properties.find((each) => each.type === 'Property' && keyName(each) === field);
          return property?.type === 'Property' ? { bound: { id: property.value, polarity: current } } : {};
        }
        return { bound: { id: parent.id, polarity: current, ...(field !== undefined ? { carrier: field } : {}) } };
      case 'AssignmentExpression':
        if (parent.right === node && field === undefined) return { bound: { id: parent.left, polarity: current } };
        return {};
      case 'ReturnStatement':
        return field === undefined ? { returned: current } : {};
      case 'ArrowFunctionExpression':
        return parent.body === node && field === undefined ? { returned: current } : {};
      default:
        return {};
    }
    node = parent;
  }
  return {};
}

/**
 * `read.then((row) => !!row)`, `….catch(() => false)`: the promise's answer, handed on as it is by a
 * step that handles how it ends, or by a callback that only tests the row (`row !== null`, `!row`).
 */
function throughPromise(
  member: TSESTree.MemberExpression,
  polarity: Polarity,
): { call: TSESTree.CallExpression; polarity: Polarity } | undefined {
  const call = member.parent;
  if (call.type !== 'CallExpression' || call.callee !== member) return undefined;
  if (promiseStep(call)) return { call, polarity };
  const [callback] = call.arguments;
  if (
    propertyName(member) !== 'then' ||
    call.arguments.length !== 1 ||
    callback.type !== 'ArrowFunctionExpression' ||
    callback.body.type === 'BlockStatement' ||
    callback.params.length !== 1 ||
    callback.params[0].type !== 'Identifier'
  )
    return undefined;
  const use = testedValue(callback.body, callback.params[0].name);
  const returned = use && climbToGuard(use, polarity).returned;
  return returned ? { call, polarity: returned } : undefined;
}

/** Where `name` sits in a test of it: `!!name`, `name !== null`, `Boolean(name?.id)`. */
function testedValue(node: TSESTree.Node, name: string): TSESTree.Node | undefined {
  switch (node.type) {
    case 'Identifier':
      return node.name === name ? node : undefined;
    case 'UnaryExpression':
      return testedValue(node.argument, name);
    case 'ChainExpression':
      return testedValue(node.expression, name);
    case 'MemberExpression':
      return testedValue(node.object, name);
    case 'BinaryExpression':
      return (node.left.type !== 'PrivateIdentifier' && testedValue(node.left, name)) || testedValue(node.right, name);
    case 'CallExpression':
      return node.arguments.length === 1 ? testedValue(node.arguments[0], name) : undefined;
    default:
      return undefined;
  }
}

/**
 * Members that still say whether something was found: `rows.length`, `result.rowCount`, `rows[0]`,
 * `{ count }`; what an update changed (`modifiedCount`, TypeORM's `affected`, Kysely's
 * `numUpdatedRows`), and the document MongoDB's `findOneAndUpdate` answers with (`res.value`).
 */
const existenceMembers =
  /^(length|rowCount|rows|count|_count|size|0|Count|Item|Items|affectedRows|numRows|exists|docs|value|affected|modifiedCount|matchedCount|upsertedCount|deletedCount|nModified|numUpdatedRows|numDeletedRows|numAffectedRows)$/;
/** Members that say nothing was found: `snapshot.empty`. */
const absenceMembers = /^(empty|isEmpty)$/;

/**
 * The guards a read result feeds, following it through variables (`const rows = …; const
 * exists = rows.length > 0; if (exists) …`) and through helpers that return it
 * (`async function seen(id) { … return rows.length > 0 }` … `if (await seen(id))`).
 */
export function guardsFedBy(read: TSESTree.Node, file: FileContext): Guard[] {
  const found: Guard[] = [];
  const seen = new Set<TSESTree.Node>();
  const toCallers = (from: TSESTree.Node, polarity: Polarity, depth: number, carrier?: string) => {
    const fn = enclosingFunction(from);
    for (const call of fn ? file.callsTo(fn) : []) visit(call, polarity, depth + 1, carrier);
  };
  const visit = (node: TSESTree.Node, polarity: Polarity, depth: number, carrier?: string): void => {
    if (depth > 4 || seen.has(node)) return;
    seen.add(node);
    const { guard, bound, returned } = climbToGuard(node, polarity, carrier);
    if (guard) {
      found.push(guard);
      const answer = answeredBy(guard.owner, guard.whenTrue);
      if (answer) toCallers(guard.owner, answer.polarity, depth, answer.carrier);
    }
    if (bound) uses(bound.id, bound.polarity, depth, bound.carrier);
    if (returned) toCallers(node, returned, depth);
  };
  const uses = (id: TSESTree.Node, polarity: Polarity, depth: number, carrier?: string) => {
    for (const identifier of boundIdentifiers(id)) {
      const variable = variableOf(identifier, file.scopeOf(identifier));
      for (const reference of variable?.references ?? []) {
        if (reference.isRead()) visit(reference.identifier, polarity, depth + 1, carrier);
      }
    }
  };
  // `find(…).then((row) => { if (row) return; … })`: the row is tested where the promise hands it
  // (a callback that only tests it, `.then((row) => !!row)`, hands the answer on: see `throughPromise`).
  const callback = thenCallback(read);
  if (callback?.body.type === 'BlockStatement' && callback.params[0]) uses(callback.params[0], 'present', 0);
  else visit(read, 'present', 0);
  return found;
}

/**
 * Does `fn` answer with the verdict of `read`: return whether it found a row (`return rows.length
 * > 0`, `return found !== null`), or the row or nothing (`if (found) return found; return null`)?
 * Only a plain verdict, not one carried in a field of what it returns.
 */
export function answersWith(read: TSESTree.Node, fn: FunctionNode, file: FileContext): boolean {
  const seen = new Set<TSESTree.Node>();
  const visit = (node: TSESTree.Node, polarity: Polarity, depth: number): boolean => {
    if (depth > 3 || seen.has(node)) return false;
    seen.add(node);
    const { guard, bound, returned } = climbToGuard(node, polarity);
    if (returned && enclosingFunction(node) === fn) return true;
    if (
      guard &&
      enclosingFunction(guard.owner) === fn &&
      answeredBy(guard.owner, guard.whenTrue)?.carrier === undefined &&
      answeredBy(guard.owner, guard.whenTrue) !== undefined
    )
      return true;
    for (const identifier of bound ? boundIdentifiers(bound.id) : []) {
      const variable = variableOf(identifier, file.scopeOf(identifier));
      for (const reference of variable?.references ?? []) {
        if (reference.isRead() && visit(reference.identifier, bound!.polarity, depth + 1)) return true;
      }
    }
    return false;
  };
  return visit(read, 'present', 0);
}

function boundIdentifiers(pattern: TSESTree.Node): TSESTree.Identifier[] {
  switch (pattern.type) {
    case 'Identifier':
      return [pattern];
    case 'ObjectPattern':
      return pattern.properties.flatMap((property) =>
        boundIdentifiers(property.type === 'RestElement' ? property.argument : property.value),
      );
    case 'ArrayPattern':
      return pattern.elements.flatMap((element) => (element ? boundIdentifiers(element) : []));
    case 'AssignmentPattern':
      return boundIdentifiers(pattern.left);
    default:
      return [];
  }
}

const sitesFound = new WeakMap<FileContext, Map<TSESTree.Node, TSESTree.Node[]>>();

/** The places a write happens: the write itself, and calls of the helper it sits in. Found once per write, for every read asked about it. */
export function writeSites(write: TSESTree.Node, file: FileContext): TSESTree.Node[] {
  let known = sitesFound.get(file);
  if (!known) sitesFound.set(file, (known = new Map<TSESTree.Node, TSESTree.Node[]>()));
  let sites = known.get(write);
  if (!sites) known.set(write, (sites = findWriteSites(write, file)));
  return sites;
}

function findWriteSites(write: TSESTree.Node, file: FileContext): TSESTree.Node[] {
  const sites = [write];
  const fn = enclosingFunction(write);
  if (
    fn &&
    (fn.type === 'FunctionDeclaration' || fn.type === 'FunctionExpression' || fn.type === 'ArrowFunctionExpression')
  ) {
    sites.push(...file.callsTo(fn));
  }
  return sites;
}

/**
 * Whether a read's guards let a write run only when no row was found. `sites` are the write and
 * the calls of the helper that performs it (writeSites), computed once per write.
 */
export function isDecidedBy(guardsOfRead: readonly Guard[], sites: readonly TSESTree.Node[]): boolean {
  return decision(guardsOfRead, sites) !== undefined;
}

/**
 * The guard that decides a write and the site it decides (the write, or the call of the helper
 * that makes it): the place, in the function that decides, where the write happens.
 */
export function decision(
  guardsOfRead: readonly Guard[],
  sites: readonly TSESTree.Node[],
): { guard: Guard; site: TSESTree.Node } | undefined {
  // Plain loops: this runs for every pair of a write and a read of the same table.
  for (const guard of guardsOfRead) {
    for (const site of sites) if (site.range[0] > guard.owner.range[0] && guards(guard, site)) return { guard, site };
  }
  return undefined;
}

/** Where a guard has asked its question: after its test (or the left side of `a || b`). */
export function askedBy(guard: Guard): number {
  return guard.owner.type === 'LogicalExpression' ? guard.owner.left.range[1] : guard.owner.test.range[1];
}

/** An enclosing transaction started with SERIALIZABLE isolation, e.g. Prisma's `$transaction(fn, { isolationLevel })`. */
export function inSerializableTransaction(write: TSESTree.Node, text: (node: TSESTree.Node) => string): boolean {
  let current: TSESTree.Node | undefined = write.parent;
  while (current) {
    if (
      current.type === 'CallExpression' &&
      current.arguments.some(
        (argument) => argument.type === 'ObjectExpression' && /isolationLevel[^,}]*serializ/i.test(text(argument)),
      )
    ) {
      return true;
    }
    current = current.parent;
  }
  return false;
}
