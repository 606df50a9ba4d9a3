import type { TSESTree } from '@typescript-eslint/utils';

import { constantInitializer, usesOfBinding } from '../syntax/scope.js';
import { keyName, memberPath, objectProperty, unwrapExpression } from '../syntax/nodes.js';
import type { ScopeOf } from '../syntax/static-text.js';
import type { Field } from '../contract/operation.js';

/** The object literal an argument is, or names through a constant (`const row = { … }`). */
export function objectLiteral(
  node: TSESTree.Node | undefined,
  scopeOf: ScopeOf,
): TSESTree.ObjectExpression | undefined {
  if (!node) return undefined;
  let current = unwrapExpression(node);
  if (current.type === 'Identifier') {
    const init = constantInitializer(current, scopeOf(current));
    if (init) current = unwrapExpression(init);
  }
  if (current.type === 'ArrayExpression') {
    const first = current.elements[0];
    return first && first.type !== 'SpreadElement' ? objectLiteral(first, scopeOf) : undefined;
  }
  return current.type === 'ObjectExpression' ? current : undefined;
}

/**
 * The objects `Object.assign(entity, data, { status })` merges, when a node is that call or a
 * constant holding it: the row it makes writes their fields.
 */
function assigned(node: TSESTree.Node | undefined, scopeOf: ScopeOf): TSESTree.Node[] | undefined {
  if (!node) return undefined;
  let current = unwrapExpression(node);
  if (current.type === 'Identifier')
    current = unwrapExpression(constantInitializer(current, scopeOf(current)) ?? current);
  if (current.type !== 'CallExpression' || memberPath(current.callee)?.join('.') !== 'Object.assign') return undefined;
  return current.arguments.filter((argument) => argument.type !== 'SpreadElement');
}

/**
 * The fields an object literal writes (`{ refundId: r.id, amount }` → refundId, amount), and
 * those `Object.assign` merges.
 */
export function fieldsOf(node: TSESTree.Node | undefined, scopeOf: ScopeOf): Field[] {
  const merged = assigned(node, scopeOf);
  if (merged) return merged.flatMap((each) => fieldsOf(each, scopeOf));
  const object = objectLiteral(node, scopeOf);
  if (!object) return [];
  const fields: Field[] = [];
  for (const property of object.properties) {
    if (property.type !== 'Property') continue;
    const name = keyName(property);
    if (name === undefined || name.startsWith('$')) continue;
    fields.push({ name, values: [property.value], functions: [] });
  }
  return fields;
}

/** The fields a query matches on: its `where` (`findOne({ where: { a } })`), or the query itself (`exists({ a })`). */
export function matchedFields(query: TSESTree.ObjectExpression, scopeOf: ScopeOf): Field[] {
  return uniqueKeyFields(objectProperty(query, 'where')?.value ?? query, scopeOf);
}

/**
 * The names a unique `where` or filter matches on: `{ refundId }`, or Prisma's compound
 * `{ refundId_accountId: { refundId, accountId } }`.
 */
export function uniqueKeyFields(node: TSESTree.Node | undefined, scopeOf: ScopeOf): Field[] {
  const fields: Field[] = [];
  for (const field of fieldsOf(node, scopeOf)) {
    const nested = field.values[0] && objectLiteral(field.values[0], scopeOf);
    if (nested && field.name.includes('_')) fields.push(...fieldsOf(nested, scopeOf));
    else fields.push(field);
  }
  return fields;
}

/**
 * `const data = { status }; data.sent = { increment: 1 };`: a constant's object given members
 * where it is used (assigned, or merged into by `Object.assign(data, …)`), so its literal does not
 * show them.
 */
function filledInLater(node: TSESTree.Node, scopeOf: ScopeOf): boolean {
  const held = unwrapExpression(node);
  if (held.type !== 'Identifier') return false;
  return usesOfBinding(held, scopeOf(held)).some((identifier) => {
    const use = identifier.parent;
    if (use?.type === 'MemberExpression' && use.object === identifier)
      return use.parent?.type === 'AssignmentExpression' && use.parent.left === use;
    return (
      use?.type === 'CallExpression' &&
      use.arguments[0] === identifier &&
      memberPath(use.callee)?.join('.') === 'Object.assign'
    );
  });
}

/**
 * Does the object literal show every field it writes (or matches on)? Not with a spread or
 * `Object.assign`, a computed name, an operator, or a nested object (a relation written through
 * it, whose columns the object does not name); not for a list of rows, which may differ from the
 * first.
 */
export function showsEveryField(node: TSESTree.Node | undefined, scopeOf: ScopeOf): boolean {
  if (!node || assigned(node, scopeOf) || filledInLater(node, scopeOf)) return false;
  let current = unwrapExpression(node);
  if (current.type === 'ArrayExpression') {
    if (current.elements.length !== 1 || !current.elements[0] || current.elements[0].type === 'SpreadElement')
      return false;
    current = current.elements[0];
  }
  const object = objectLiteral(current, scopeOf);
  if (!object) return false;
  return object.properties.every((property) => {
    // A `$` operator ($where, $expr) matches by something other than its fields.
    if (property.type !== 'Property' || keyName(property) === undefined || keyName(property)!.startsWith('$'))
      return false;
    const value = unwrapExpression(property.value);
    return value.type !== 'ObjectExpression' && value.type !== 'ArrayExpression';
  });
}
