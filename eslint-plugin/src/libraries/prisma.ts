import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../analysis/file-context.js';
import { fieldsOf, objectLiteral, uniqueKeyFields } from '../analysis/operations/fields.js';
import { normaliseTarget, type DataOperation } from '../analysis/operations/types.js';
import { memberPath, objectProperty } from '../analysis/scope.js';
import type { DataAdapter } from './types.js';

/** Prisma Client: `prisma.refund.findFirst(…)`, `tx.refund.create({ data })`, `…upsert({ where, create })`. */

const reads = new Set(['findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow', 'findMany', 'count', 'aggregate', 'groupBy']);
const prismaOnly = new Set(['findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow']);
const writes = ['create', 'createMany', 'createManyAndReturn', 'upsert', 'update', 'updateMany', 'delete', 'deleteMany'];

function prismaOperation(call: TSESTree.CallExpression, file: FileContext): DataOperation | undefined {
  const scopeOf = file.scopeOf;
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
  const base = { library: 'prisma' as const, targets: [normaliseTarget(model)], node: call, label: `${path.join('.')}()`, fields: [], arbitrated: false };

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

export const prisma: DataAdapter = {
  kind: 'data',
  name: 'prisma',
  label: 'Prisma',
  modules: ['@prisma/client', /^\.prisma\//, /\/generated\/prisma/],
  methods: new Set([...reads, ...writes]),
  recognise: (node, file) => (node.type === 'CallExpression' ? prismaOperation(node, file) : undefined),
  remedy: 'an upsert, or create and treat error P2002 as the duplicate',
  uniqueViolations: ['P2002'],
};
