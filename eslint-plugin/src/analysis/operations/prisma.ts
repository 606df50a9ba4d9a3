import type { TSESTree } from '@typescript-eslint/utils';

import { memberPath, objectProperty } from '../scope.js';
import type { ScopeOf } from '../static-text.js';
import { fieldsOf, objectLiteral, uniqueKeyFields } from './fields.js';
import { normaliseTarget, type DataOperation } from './types.js';

/** Prisma Client: `prisma.refund.findFirst(…)`, `tx.refund.create({ data })`, `…upsert({ where, create })`. */

const reads = new Set(['findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow', 'findMany', 'count', 'aggregate', 'groupBy']);
const prismaOnly = new Set(['findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow']);
const writes = ['create', 'createMany', 'createManyAndReturn', 'upsert', 'update', 'updateMany', 'delete', 'deleteMany'];

/** The method names this recogniser can accept; any other call is turned away at once. */
export const prismaMethods: ReadonlySet<string> = new Set([...reads, ...writes]);

export function prismaOperation(call: TSESTree.CallExpression, scopeOf: ScopeOf): DataOperation | undefined {
  // client.model.method(…): at least two member steps, else it is not Prisma's shape.
  if (call.callee.type !== 'MemberExpression' || call.callee.object.type !== 'MemberExpression') return undefined;
  const path = memberPath(call.callee);
  if (!path || path.length < 3) return undefined;
  const method = path[path.length - 1]!;
  const model = path[path.length - 2]!;
  if (model.startsWith('$')) return undefined;
  const options = objectLiteral(call.arguments[0], scopeOf);
  const has = (name: string) => Boolean(options && objectProperty(options, name));
  // A home-made data layer with Prisma-like names takes its table as an option; Prisma never does.
  if (has('table') || has('tableName')) return undefined;
  const base = { library: 'Prisma', targets: [normaliseTarget(model)], node: call, label: `${path.join('.')}()`, fields: [], arbitrated: false };

  if (prismaOnly.has(method) || (reads.has(method) && (has('where') || has('select')))) return { ...base, kind: 'read' };
  if ((method === 'create' || method === 'createMany' || method === 'createManyAndReturn') && has('data')) {
    const skipDuplicates = objectProperty(options!, 'skipDuplicates')?.value;
    return {
      ...base,
      kind: 'insert',
      fields: fieldsOf(objectProperty(options!, 'data')?.value, scopeOf),
      arbitrated: skipDuplicates?.type === 'Literal' && skipDuplicates.value === true,
      skipsDuplicates: skipDuplicates?.type === 'Literal' && skipDuplicates.value === true,
    };
  }
  if (method === 'upsert' && has('where') && has('create')) {
    const where = uniqueKeyFields(objectProperty(options!, 'where')?.value, scopeOf);
    return {
      ...base,
      kind: 'upsert',
      fields: [...where, ...fieldsOf(objectProperty(options!, 'create')?.value, scopeOf)],
      conflictTarget: where.map((field) => field.name),
      arbitrated: true,
    };
  }
  if ((method === 'update' || method === 'updateMany') && has('where')) return { ...base, kind: 'update' };
  if ((method === 'delete' || method === 'deleteMany') && has('where')) return { ...base, kind: 'delete' };
  return undefined;
}
