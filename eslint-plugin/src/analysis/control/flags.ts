import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../context/file-context.js';
import type { Guard } from './guards.js';
import { flip, isNothing, type Presence } from './polarity.js';
import { awaited, callTaking, keyName, propertyName, thenCallback } from '../syntax/nodes.js';
import { variableOf } from '../syntax/scope.js';

/**
 * A field of a row the code read, tested to decide whether the work is still to do: `if
 * (order.paidAt) return`, `if (refund.intentId && refund.intent) return`, `if (job.status ===
 * 'done') return`. Polarity `present` means the field says the work was done. Whether a write
 * later sets the field, and so records the work, is the caller's question: a flag tested here
 * and set only after the work is a claim recorded too late.
 */
export interface FlagTest {
  /** The row's variable (`order`). */
  row: TSESLint.Scope.Variable;
  /** The field tested, as written (`paidAt`). */
  field: string;
  /** The `if` that tests it; none when the read's own filter picked only rows not yet done (`where: { sentAt: null }`). */
  guard?: Guard;
  /** The test compares the field with a value: `=== 'done'` names the value that means done, `!== 'pending'` the one that means not yet. */
  compared?: { value: string; means: 'done' | 'not yet' };
}

/** `order` in `const order = …`, `const [order] = …`, `const { rows } = …`: the name a row, or the rows holding it, is bound to. */
function boundName(declarator: TSESTree.Node | undefined, init: TSESTree.Node): TSESTree.Identifier | undefined {
  if (declarator?.type !== 'VariableDeclarator' || declarator.init !== init) return undefined;
  const id = declarator.id;
  if (id.type === 'Identifier') return id;
  if (id.type === 'ArrayPattern') return id.elements[0]?.type === 'Identifier' ? id.elements[0] : undefined;
  const rows =
    id.type === 'ObjectPattern'
      ? id.properties.find((property) => property.type === 'Property' && /^(rows|data)$/.test(keyName(property) ?? ''))
      : undefined;
  return rows?.type === 'Property' && rows.value.type === 'Identifier' ? rows.value : undefined;
}

/** The variable a read's row is bound to: `const order = await find(…)`, `const [order] = await select(…)`, `.then((order) => …)`. */
function rowVariable(read: TSESTree.Node): TSESTree.Identifier | undefined {
  const callback = thenCallback(read);
  if (callback) return callback.params[0]?.type === 'Identifier' ? callback.params[0] : undefined;
  const node = awaited(read);
  return boundName(node.parent, node);
}

/**
 * Is what the read found used as a value, beyond whether it is there: handed to a call
 * (`fromString(last)`, `Number(last)`), computed with (`now - last`), or handed back to the
 * caller (`return { lastScan: cached }`)? A stored time read back so is a throttle's state (`if
 * (now - last < 30_000) return`) or a cache's entry, not a marker of work done.
 */
export function readBack(read: TSESTree.Node, file: FileContext): boolean {
  const found = rowVariable(read);
  const variable = found && variableOf(found, file.scopeOf(found));
  return (variable?.references ?? []).some((reference) => {
    const use = reference.identifier;
    const parent = use.parent;
    return (
      reference.isRead() &&
      (callTaking(use) !== undefined ||
        (parent?.type === 'BinaryExpression' && /^[-+*/%<>]=?$/.test(parent.operator)) ||
        parent?.type === 'ReturnStatement' ||
        (parent?.type === 'Property' && parent.value === use && parent.parent.type === 'ObjectExpression'))
    );
  });
}

/** Steps from the rows a SQL client returns to the row: `.rows`, `[0]`. */
function toRow(member: TSESTree.MemberExpression): boolean {
  return member.computed
    ? member.property.type === 'Literal' && member.property.value === 0
    : propertyName(member) === 'rows';
}

/** A value a field is compared with: a string or number literal, or an enum member (`Status.PAID`). */
function comparable(node: TSESTree.Node, file: FileContext): string | undefined {
  if (node.type === 'Literal' && (typeof node.value === 'string' || typeof node.value === 'number'))
    return String(node.value);
  if (node.type === 'MemberExpression' && !node.computed) return file.code(node);
  return undefined;
}

/** Climbs from `row.field` to the `if` or `?:` whose test it is, composing the polarity (truthy: done). */
function climb(
  member: TSESTree.MemberExpression,
  row: TSESLint.Scope.Variable,
  field: string,
  file: FileContext,
): FlagTest | undefined {
  let node: TSESTree.Node = member;
  let polarity: Presence = 'present';
  let compared: FlagTest['compared'];
  for (let step = 0; step < 8; step += 1) {
    const parent: TSESTree.Node | undefined = node.parent;
    if (!parent) return undefined;
    switch (parent.type) {
      case 'ChainExpression':
      case 'TSNonNullExpression':
      case 'TSAsExpression':
        break;
      case 'UnaryExpression':
        if (parent.operator !== '!') return undefined;
        polarity = flip(polarity);
        break;
      case 'BinaryExpression': {
        if (compared) return undefined;
        const other = parent.left === node ? parent.right : parent.left;
        const negated = parent.operator === '!==' || parent.operator === '!=';
        if (!negated && parent.operator !== '===' && parent.operator !== '==') return undefined;
        if (isNothing(other)) {
          if (!negated) polarity = flip(polarity);
          break;
        }
        const value = comparable(other, file);
        if (value === undefined) return undefined;
        compared = { value, means: negated ? 'not yet' : 'done' };
        break;
      }
      // `a && b`, `a || b` in a test: the branch that leaves is taken only when the flag may say done.
      case 'LogicalExpression':
        if (parent.operator === '??') return undefined;
        break;
      case 'IfStatement':
      case 'ConditionalExpression':
        return parent.test === node
          ? { row, field, guard: { owner: parent, whenTrue: polarity }, compared }
          : undefined;
      default:
        return undefined;
    }
    node = parent;
  }
  return undefined;
}

/** The tests of the read's row's fields that decide what runs after them: `order.paidAt`, `rows[0].paid_at`, `result.rows[0]?.status`. */
export function flagTests(read: TSESTree.Node, file: FileContext): FlagTest[] {
  const tests: FlagTest[] = [];
  const visit = (row: TSESTree.Identifier, depth: number) => {
    const variable = variableOf(row, file.scopeOf(row));
    for (const reference of variable?.references ?? []) {
      if (!reference.isRead()) continue;
      let node: TSESTree.Node = reference.identifier;
      while (
        (node.parent?.type === 'MemberExpression' && node.parent.object === node && toRow(node.parent)) ||
        node.parent?.type === 'ChainExpression'
      )
        node = node.parent;
      const member = node.parent;
      if (member?.type === 'MemberExpression' && member.object === node && !member.computed) {
        const field = propertyName(member);
        const test = field === undefined ? undefined : climb(member, variable!, field, file);
        if (test) tests.push(test);
      } else if (depth === 0 && node !== reference.identifier) {
        // `const order = rows[0]`: the row, named again.
        const named = boundName(node.parent, node);
        if (named) visit(named, depth + 1);
      }
    }
  };
  const row = rowVariable(read);
  if (row) visit(row, 0);
  return tests;
}

/**
 * `findMany({ where: { sentAt: null } })`, `findFirst({ where: { status: 'PENDING' } })`: a read
 * that picks only rows whose work is still to do, by a field of theirs (nothing, or a string
 * constant). The query tests the flag instead of an `if`: each row it gives (the row bound, or
 * each row a `for … of` or a `map` callback walks) carries it as not done. `writes` are the
 * updates of the file: only a row one of them names is asked about, and `filters` is read last.
 */
export function filterFlags(
  read: TSESTree.Node,
  filters: () => readonly { name: string; values: readonly TSESTree.Node[]; constant?: string }[],
  writes: readonly TSESTree.Node[],
  file: FileContext,
): FlagTest[] {
  const bound = rowVariable(read);
  const rows = bound && variableOf(bound, file.scopeOf(bound));
  if (!rows) return [];
  // `for (const row of rows)`, `rows.map(async (row) => …)`: the row is each one walked; else the bound value is the row.
  const walked = rows.references.flatMap((reference) => {
    const id = eachRow(reference.identifier);
    return id ? [variableOf(id, file.scopeOf(id))] : [];
  });
  // Each walk names the row its own way (`rows.map((r) => r.userId)` to list, `for (const row of rows)` to act);
  // only a row a write names (`where: { id: row.id }`) can be marked done. Syntax first: the read's
  // filters may need its SQL parsed.
  const marked = (walked.length > 0 ? walked : [rows]).filter(
    (row): row is TSESLint.Scope.Variable =>
      row != null &&
      row.references.some((reference) =>
        writes.some(
          (write) => write.range[0] <= reference.identifier.range[0] && reference.identifier.range[1] <= write.range[1],
        ),
      ),
  );
  if (marked.length === 0) return [];
  const tests: FlagTest[] = [];
  for (const row of marked) {
    for (const filter of filters()) {
      const [value] = filter.values;
      // `isNull(t.sentAt)` names no value of its own.
      const nothing =
        filter.values.length === 0 ? filter.constant === 'NULL' : filter.values.length === 1 && isNothing(value);
      const constant =
        filter.values.length === 1 && value.type === 'Literal' && typeof value.value === 'string'
          ? value.value
          : undefined;
      if (nothing) tests.push({ row, field: filter.name });
      else if (constant !== undefined)
        tests.push({ row, field: filter.name, compared: { value: constant, means: 'not yet' } });
    }
  }
  return tests;
}

/** The name each element of a list is given where the code walks it: `for (const row of rows)`, `rows.map((row) => …)`. */
function eachRow(list: TSESTree.Node): TSESTree.Identifier | undefined {
  const parent = list.parent;
  if (parent?.type === 'ForOfStatement' && parent.right === list) {
    const declared = parent.left.type === 'VariableDeclaration' ? parent.left.declarations[0]?.id : undefined;
    return declared?.type === 'Identifier' ? declared : undefined;
  }
  if (
    parent?.type !== 'MemberExpression' ||
    parent.object !== list ||
    !/^(map|forEach|flatMap)$/.test(propertyName(parent) ?? '')
  )
    return undefined;
  const call = parent.parent;
  const callback = call?.type === 'CallExpression' && call.callee === parent ? call.arguments[0] : undefined;
  const param =
    callback?.type === 'ArrowFunctionExpression' || callback?.type === 'FunctionExpression'
      ? callback.params[0]
      : undefined;
  return param?.type === 'Identifier' ? param : undefined;
}
