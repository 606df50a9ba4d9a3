import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../context/file-context.js';
import { calleeName, keyName, staticString, unwrapExpression } from '../syntax/nodes.js';
import { constantInitializer } from '../syntax/scope.js';
import { someNode } from '../syntax/walk.js';
import { columnName } from '../naming/names.js';
import { objectLiteral } from './fields.js';
import type { DataOperation } from '../contract/operation.js';

/**
 * The fields a write adds to or takes from rather than sets (`credits = credits + $1`,
 * `{ credits: { increment: 5 } }`, `{ $inc: { credits: 5 } }`, `increment('credits', 5)`): a
 * second run of such a write changes the value again. Undefined when the write adds to nothing.
 */
export function addedFields(operation: DataOperation, file: FileContext): readonly string[] | undefined {
  if (operation.adds && operation.adds.length > 0) return operation.adds;
  // Read, added to, written back: `{ balance: user.balance + amount }`.
  const found: string[] =
    operation.kind === 'update' || operation.kind === 'upsert'
      ? operation.fields
          .filter((field) => field.values.some((value) => addsTo(field.name, value, file, 0)))
          .map((field) => field.name)
      : [];
  const spec = file.libraries.dataAdapter(operation.library)?.increments;
  const call = operation.node;
  if (!spec || call.type !== 'CallExpression') return found.length > 0 ? found : undefined;
  if (spec.methods?.includes(calleeName(call.callee) ?? '')) {
    for (const argument of call.arguments) {
      const text = staticString(argument);
      if (text !== undefined) found.push(text);
      const object = objectLiteral(argument, file.scopeOf);
      for (const property of object?.properties ?? [])
        if (property.type === 'Property') found.push(keyName(property) ?? '');
    }
  }
  const visit = (node: TSESTree.Node, holder: string | undefined, depth: number) => {
    const object = depth < 5 ? objectLiteral(unwrapExpression(node), file.scopeOf) : undefined;
    for (const property of object?.properties ?? []) {
      if (property.type !== 'Property') continue;
      const name = keyName(property);
      if (name === undefined) continue;
      if (spec.operators?.includes(name) && holder !== undefined) found.push(holder);
      else if (spec.fieldMaps?.includes(name)) {
        for (const field of objectLiteral(property.value, file.scopeOf)?.properties ?? [])
          if (field.type === 'Property') found.push(keyName(field) ?? '');
      } else visit(property.value, name, depth + 1);
    }
  };
  for (const argument of call.arguments) visit(argument, undefined, 0);
  const named = found.filter((name) => name.length > 0);
  return named.length > 0 ? named : undefined;
}

/**
 * Is `value` the field's own earlier value added to: `user.balance + amount` for `balance`, or a
 * date moved on from it (`new Date(membershipExpiration.getTime() + year)`), written in place or
 * held by a constant? A second run adds again; a value counted from the clock (`Date.now() +
 * hour`) sets the same end whoever runs it.
 */
function addsTo(field: string, value: TSESTree.Node, file: FileContext, depth: number): boolean {
  const node = unwrapExpression(value);
  if (depth > 2) return false;
  if (node.type === 'Identifier') {
    const init = constantInitializer(node, file.scopeOf(node));
    return init !== undefined && addsTo(field, init, file, depth + 1);
  }
  if (node.type === 'NewExpression' && node.arguments.length === 1 && node.arguments[0].type !== 'SpreadElement')
    return addsTo(field, node.arguments[0], file, depth + 1);
  if (node.type !== 'BinaryExpression' || (node.operator !== '+' && node.operator !== '-')) return false;
  const own = columnName(field);
  return someNode(node, file.visitorKeys, (each) => {
    const name = each.type === 'Identifier' ? each.name : undefined;
    return name !== undefined && columnName(name) === own;
  });
}
