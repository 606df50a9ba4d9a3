import type { TSESTree } from '@typescript-eslint/utils';

import { isFunction, type FileContext, type FunctionNode } from '../context/file-context.js';
import { flip, isNothing, isZero, type Polarity } from './polarity.js';
import { propertyName } from '../syntax/nodes.js';
import { variableOf } from '../syntax/scope.js';

/**
 * Does the application decide, from a value it read, whether a write happens? That is the shape
 * of a check-then-insert: `if (rows.length === 0) insert(…)`, `if (found) return; insert(…)`,
 * `exists || insert(…)`. Polarity matters: the write must run on the "no row" side, so a
 * find-then-update (`if (row) update(row)`) is not mistaken for one.
 */

/** A condition that guards code, and whether it is true when the row is present. */
interface Guard {
  owner: TSESTree.IfStatement | TSESTree.ConditionalExpression | TSESTree.LogicalExpression;
  whenTrue: Polarity;
}

/**
 * Climbs from an expression holding the read's result (polarity: truthy = found) to the guard
 * it feeds, composing the polarity on the way: `!x`, `x.length === 0`, `x == null`, `x > 0`.
 */
function climbToGuard(start: TSESTree.Node, polarity: Polarity): { guard?: Guard; bound?: { id: TSESTree.Node; polarity: Polarity }; returned?: Polarity } {
  let node = start;
  let current = polarity;
  let viaField = false;
  let afterElement = false;
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
        // rows.length, result.rowCount, rows[0], count.count: still "found" when truthy.
        if (parent.object !== node) return {};
        const member = propertyName(parent) ?? (parent.computed && parent.property.type === 'Literal' ? String(parent.property.value) : '');
        if (!existenceMembers.test(member)) {
          // `token.revoked` of a row the code knows it has is its state, whatever the test;
          // `found?.id` may still ask whether there is a row, and `rows[0].n` is what a
          // count or EXISTS query answered.
          if (!parent.optional && !afterElement) return {};
          viaField = true;
        }
        afterElement = member === '0';
        break;
      }
      case 'CallExpression':
        // Boolean(x), Number(x.count): truthy exactly when x says a row was found.
        if (parent.callee.type === 'Identifier' && ['Boolean', 'Number', 'parseInt', 'BigInt'].includes(parent.callee.name)) break;
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
      case 'ConditionalExpression':
        if (parent.test === node) return { guard: { owner: parent, whenTrue: current } };
        return {};
      case 'VariableDeclarator':
        if (parent.init === node) return { bound: { id: parent.id, polarity: current } };
        return {};
      case 'AssignmentExpression':
        if (parent.right === node) return { bound: { id: parent.left, polarity: current } };
        return {};
      case 'ReturnStatement':
        return { returned: current };
      case 'ArrowFunctionExpression':
        return parent.body === node ? { returned: current } : {};
      default:
        return {};
    }
    node = parent;
  }
  return {};
}

/** Members that still say whether something was found: `rows.length`, `result.rowCount`, `rows[0]`, `{ count }`. */
const existenceMembers = /^(length|rowCount|rows|count|_count|size|0|Count|Item|Items|affectedRows|numRows|exists)$/;

const exitStatements = new Set(['ReturnStatement', 'ThrowStatement', 'ContinueStatement', 'BreakStatement']);

/** Statements that never fall through: `return`, `throw`, `continue`, `break`, or a block ending in one. */
export function exits(statement: TSESTree.Statement | null | undefined): boolean {
  if (!statement) return false;
  if (exitStatements.has(statement.type)) return true;
  if (statement.type === 'BlockStatement') return exits(statement.body[statement.body.length - 1]);
  if (statement.type === 'IfStatement') return exits(statement.consequent) && exits(statement.alternate);
  return false;
}

export function contains(outer: TSESTree.Node | null | undefined, inner: TSESTree.Node): boolean {
  return Boolean(outer) && outer!.range[0] <= inner.range[0] && inner.range[1] <= outer!.range[1];
}

/**
 * The statement of a block (or switch case) that holds `node`: code after the guard is what
 * follows that statement in the same block.
 */
function statementInBlock(node: TSESTree.Node): TSESTree.Node | undefined {
  let current: TSESTree.Node = node;
  while (current.parent) {
    const parent: TSESTree.Node = current.parent;
    if (parent.type === 'BlockStatement' || parent.type === 'Program' || parent.type === 'StaticBlock' || parent.type === 'SwitchCase') return current;
    if (isFunction(parent)) return undefined;
    current = parent;
  }
  return undefined;
}

/** A branch taken when the row was `whenTaken` lets a write run unless it was found. */
function allows(whenTaken: Polarity): boolean {
  return whenTaken !== 'present';
}

/** Does `guard` make `write` run only on the side where the row was absent (or either side)? */
function guards(guard: Guard, write: TSESTree.Node): boolean {
  const { owner, whenTrue } = guard;
  if (owner.type === 'LogicalExpression') {
    if (!contains(owner.right, write)) return false;
    // a || write(): runs when a is false; a && write(): runs when a is true.
    return allows(owner.operator === '&&' ? whenTrue : owner.operator === '||' ? flip(whenTrue) : 'either');
  }
  if (contains(owner.consequent, write)) return allows(whenTrue);
  if (contains(owner.alternate, write)) return allows(flip(whenTrue));
  if (owner.type === 'IfStatement' && write.range[0] >= owner.range[1] && exits(owner.consequent) && !owner.alternate) {
    const statement = statementInBlock(owner);
    if (statement && write.range[0] >= statement.range[1] && contains(statement.parent, write)) return allows(flip(whenTrue));
  }
  return false;
}

/**
 * The guards a read result feeds, following it through variables (`const rows = …; const
 * exists = rows.length > 0; if (exists) …`) and through helpers that return it
 * (`async function seen(id) { … return rows.length > 0 }` … `if (await seen(id))`).
 */
export function guardsFedBy(read: TSESTree.Node, file: FileContext): Guard[] {
  const found: Guard[] = [];
  const seen = new Set<TSESTree.Node>();
  const visit = (node: TSESTree.Node, polarity: Polarity, depth: number): void => {
    if (depth > 4 || seen.has(node)) return;
    seen.add(node);
    const { guard, bound, returned } = climbToGuard(node, polarity);
    if (guard) found.push(guard);
    if (bound) {
      for (const identifier of boundIdentifiers(bound.id)) {
        const variable = variableOf(identifier, file.scopeOf(identifier));
        for (const reference of variable?.references ?? []) {
          if (reference.isRead()) visit(reference.identifier, bound.polarity, depth + 1);
        }
      }
    }
    if (returned) {
      const fn = enclosingFunction(node);
      if (fn) {
        for (const site of file.functionSites(fn)) {
          const call = site.parent;
          if (call?.type === 'CallExpression' && call.callee === site) visit(call, returned, depth + 1);
        }
      }
    }
  };
  visit(read, 'present', 0);
  return found;
}

function boundIdentifiers(pattern: TSESTree.Node): TSESTree.Identifier[] {
  switch (pattern.type) {
    case 'Identifier':
      return [pattern];
    case 'ObjectPattern':
      return pattern.properties.flatMap((property) => boundIdentifiers(property.type === 'RestElement' ? property.argument : property.value));
    case 'ArrayPattern':
      return pattern.elements.flatMap((element) => (element ? boundIdentifiers(element) : []));
    case 'AssignmentPattern':
      return boundIdentifiers(pattern.left);
    default:
      return [];
  }
}

export function enclosingFunction(node: TSESTree.Node): FunctionNode | undefined {
  let current = node.parent;
  while (current) {
    if (isFunction(current)) return current;
    current = current.parent;
  }
  return undefined;
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
  if (fn && (fn.type === 'FunctionDeclaration' || fn.type === 'FunctionExpression' || fn.type === 'ArrowFunctionExpression')) {
    for (const site of file.functionSites(fn)) {
      if (site.parent?.type === 'CallExpression' && site.parent.callee === site) sites.push(site.parent);
    }
  }
  return sites;
}

/**
 * Whether a read's guards let a write run only when no row was found. `sites` are the write and
 * the calls of the helper that performs it (writeSites), computed once per write.
 */
export function isDecidedBy(guardsOfRead: readonly Guard[], sites: readonly TSESTree.Node[]): boolean {
  // Plain loops: this runs for every pair of a write and a read of the same table.
  for (const guard of guardsOfRead) {
    for (const site of sites) if (site.range[0] > guard.owner.range[0] && guards(guard, site)) return true;
  }
  return false;
}

/** An enclosing transaction started with SERIALIZABLE isolation, e.g. Prisma's `$transaction(fn, { isolationLevel })`. */
export function inSerializableTransaction(write: TSESTree.Node, text: (node: TSESTree.Node) => string): boolean {
  let current: TSESTree.Node | undefined = write.parent;
  while (current) {
    if (current.type === 'CallExpression' && current.arguments.some((argument) => argument.type === 'ObjectExpression' && /isolationLevel[^,}]*serializ/i.test(text(argument)))) {
      return true;
    }
    current = current.parent;
  }
  return false;
}
