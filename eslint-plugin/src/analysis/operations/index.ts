import type { TSESTree } from '@typescript-eslint/utils';

import type { OriginTracer } from '../origin.js';
import { builderOperation } from './builders.js';
import { ormOperation } from './orms.js';
import { prismaOperation } from './prisma.js';
import { redisOperation } from './redis.js';
import { sqlOperations } from './sql.js';
import type { DataOperation } from './types.js';

export type { DataOperation, Field, OperationKind } from './types.js';

const cache = new WeakMap<TSESTree.Node, DataOperation[]>();

/**
 * The database operations a call or tagged template performs, whichever library it uses. Each
 * recogniser is cheap to reject, so this can run on every call in a file.
 */
export function operationsAt(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression, tracer: OriginTracer): DataOperation[] {
  let found = cache.get(node);
  if (found) return found;
  const scopeOf = tracer.scopeOf;
  if (node.type === 'TaggedTemplateExpression') {
    found = sqlOperations(node, scopeOf);
  } else {
    found = sqlOperations(node, scopeOf);
    if (found.length === 0) {
      const single =
        prismaOperation(node, scopeOf) ??
        builderOperation(node, scopeOf) ??
        redisOperation(node, scopeOf, tracer.imports.sources, tracer.text) ??
        ormOperation(node, scopeOf);
      found = single ? [single] : [];
    }
  }
  cache.set(node, found);
  return found;
}
