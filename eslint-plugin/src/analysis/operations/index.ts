import type { TSESTree } from '@typescript-eslint/utils';

import type { OriginTracer } from '../origin.js';
import { calleeName } from '../scope.js';
import { builderChainEnds, builderOperation } from './builders.js';
import { ormMethods, ormOperation } from './orms.js';
import { prismaMethods, prismaOperation } from './prisma.js';
import { redisMethods, redisOperation } from './redis.js';
import { sqlOperations } from './sql.js';
import type { DataOperation } from './types.js';

export type { DataOperation, Field, OperationKind } from './types.js';

const none: DataOperation[] = [];

const recognisedMethods: ReadonlySet<string> = new Set([...prismaMethods, ...builderChainEnds, ...redisMethods, ...ormMethods]);

/**
 * The database operations a call or tagged template performs, whichever library it uses. Each
 * recogniser is cheap to reject, so this can run on every call in a file; FileAnalysis keeps the
 * answers.
 */
export function findOperations(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression, tracer: OriginTracer): DataOperation[] {
  let found: DataOperation[];
  const scopeOf = tracer.scopeOf;
  if (node.type === 'TaggedTemplateExpression') {
    found = sqlOperations(node, scopeOf);
  } else {
    found = sqlOperations(node, scopeOf);
    const method = calleeName(node.callee);
    if (found.length === 0 && method !== undefined && recognisedMethods.has(method)) {
      // Each recogniser is asked only about the method names it knows.
      const single =
        (prismaMethods.has(method) ? prismaOperation(node, scopeOf) : undefined) ??
        (builderChainEnds.has(method) ? builderOperation(node, scopeOf) : undefined) ??
        (redisMethods.has(method) ? redisOperation(node, scopeOf, tracer.imports.sources, tracer.text) : undefined) ??
        (ormMethods.has(method) ? ormOperation(node, scopeOf) : undefined);
      found = single ? [single] : none;
    }
  }
  return found;
}
