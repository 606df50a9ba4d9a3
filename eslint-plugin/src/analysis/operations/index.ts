import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../context/file-context.js';
import { calleeName } from '../syntax/nodes.js';
import type { DataOperation } from '../contract/operation.js';

export type { DataOperation, Field, OperationKind } from '../contract/operation.js';
export { addedFields } from './additions.js';

const none: DataOperation[] = [];

/**
 * The database operations a call or tagged template performs, whichever library it uses: the
 * data adapters that know the callee's name are asked in turn, and the first that recognises the
 * call answers. Each is cheap to reject, so this can run on every call in a file; FileAnalysis
 * keeps the answers.
 */
export function findOperations(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  file: FileContext,
): DataOperation[] {
  const method = node.type === 'CallExpression' ? calleeName(node.callee) : undefined;
  for (const adapter of file.libraries.dataAdaptersFor(method)) {
    const found = adapter.recognise(node, file);
    if (found === undefined) continue;
    if ('kind' in found) return [found];
    if (found.length > 0) return [...found];
  }
  return none;
}
