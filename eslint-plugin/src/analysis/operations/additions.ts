import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../context/file-context.js';
import { calleeName, keyName, staticString, unwrapExpression } from '../syntax/nodes.js';
import { objectLiteral } from './fields.js';
import type { DataOperation } from '../contract/operation.js';

/**
 * The fields a write adds to or takes from rather than sets (`credits = credits + $1`,
 * `{ credits: { increment: 5 } }`, `{ $inc: { credits: 5 } }`, `increment('credits', 5)`): a
 * second run of such a write changes the value again. Undefined when the write adds to nothing.
 */
export function addedFields(operation: DataOperation, file: FileContext): readonly string[] | undefined {
  if (operation.adds && operation.adds.length > 0) return operation.adds;
  const spec = file.libraries.dataAdapter(operation.library)?.increments;
  const call = operation.node;
  if (!spec || call.type !== 'CallExpression') return undefined;
  const found: string[] = [];
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
