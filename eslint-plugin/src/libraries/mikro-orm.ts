import type { TSESTree } from '@typescript-eslint/utils';

import {
  calleeName,
  constantInitializer,
  fieldsOf,
  memberPath,
  normaliseTarget,
  objectLiteral,
  objectProperty,
  unwrapExpression,
  type AdapterFile,
  type DataAdapter,
  type DataOperation,
  type Field,
  type OperationKind,
} from '../analysis/index.js';

/**
 * MikroORM (@mikro-orm/core and its drivers). The entity manager names its entity first:
 * `em.findOne(Refund, where)`, `em.count(Refund, where)`, `em.create(Refund, data)` (persisted by
 * the next flush), `em.insert(Refund, data)`, `em.upsert(Refund, data, { onConflictAction })`;
 * `em.persistAndFlush(new Refund(…))` writes a new entity. Repositories leave it out:
 * `repo.findOne(where)`, `repo.create(data)`. TypeORM's managers and repositories use several of
 * the same names, so a file must import MikroORM, except for names that only MikroORM has.
 */

const modules = [/^@mikro-orm\//];

const reads = new Set(['findOne', 'findOneOrFail', 'count', 'find', 'findAndCount']);
const inserts = new Set(['create', 'insert', 'insertMany', 'nativeInsert']);
const upserts = new Set(['upsert', 'upsertMany']);
const persists = new Set(['persist', 'persistAndFlush']);
/** Names no other library's entity manager has. */
const ownNames = new Set(['persistAndFlush', 'nativeInsert']);

/** `em`, `this.em`, `orm.em`, `entityManager`, a transaction's `tx` or `em.fork()`. */
const managerName = /^(em|entityManager|manager|tx|trx|fork)$/;

function entityOf(node: TSESTree.Node | undefined): string | undefined {
  const value = node && unwrapExpression(node);
  return value?.type === 'Identifier' && /^[A-Z]/.test(value.name) ? value.name : undefined;
}

/** The entity a repository stands for: `em.getRepository(Refund)`, `this.refundRepository`. */
function repositoryEntity(receiver: TSESTree.Node): string | undefined {
  const node = unwrapExpression(receiver);
  if (node.type === 'CallExpression' && calleeName(node.callee) === 'getRepository') return entityOf(node.arguments[0]);
  const last = memberPath(node)?.at(-1);
  return last && /.(Repository|Repo)$/.test(last) ? last : undefined;
}

/** What a persisted value is: `new Refund(data)`, or `em.create(Refund, data)` held in a constant. */
function persisted(
  node: TSESTree.Node | undefined,
  file: AdapterFile,
): { entity: string; data?: TSESTree.Node } | 'created' | undefined {
  let value = node && unwrapExpression(node);
  if (value?.type === 'Identifier') {
    const init = constantInitializer(value, file.scopeOf(value));
    value = init && unwrapExpression(init);
  }
  if (value?.type === 'NewExpression') {
    const entity = entityOf(value.callee);
    return entity ? { entity, data: value.arguments[0] } : undefined;
  }
  // `em.create(…)` is the insert already; persisting it again is not a second one.
  if (value?.type === 'CallExpression' && calleeName(value.callee) === 'create') return 'created';
  return undefined;
}

function conflictFields(options: TSESTree.ObjectExpression | undefined): string[] | undefined {
  const list = options && objectProperty(options, 'onConflictFields')?.value;
  if (list?.type !== 'ArrayExpression') return undefined;
  return list.elements.flatMap((element) =>
    element?.type === 'Literal' && typeof element.value === 'string' ? [element.value] : [],
  );
}

function mikroOperation(call: TSESTree.CallExpression, file: AdapterFile): DataOperation | undefined {
  const callee = unwrapExpression(call.callee);
  const method = calleeName(callee);
  if (callee.type !== 'MemberExpression' || !method) return undefined;
  const imported = file.libraries.imported(mikroOrm, file.imports);
  if (!imported && !ownNames.has(method)) return undefined;
  const path = memberPath(callee.object);
  const label = (entity: string, kind: OperationKind) =>
    `${kind === 'read' ? 'a' : 'the'} MikroORM ${method}() of ${entity}`;
  const scopeOf = file.scopeOf;

  if (persists.has(method)) {
    const what = persisted(call.arguments[0], file);
    if (!what || what === 'created') return undefined;
    return {
      kind: 'insert',
      library: 'mikro-orm',
      targets: [normaliseTarget(what.entity)],
      node: call,
      label: label(what.entity, 'insert'),
      fields: fieldsOf(what.data, scopeOf),
      arbitrated: false,
    };
  }

  // The entity manager: the entity first. A repository: the entity is its receiver.
  const managed = managerName.test(path?.at(-1) ?? '') ? entityOf(call.arguments[0]) : undefined;
  const entity = managed ?? repositoryEntity(callee.object);
  if (!entity) return undefined;
  const args = managed ? call.arguments.slice(1) : call.arguments;
  const base = {
    library: 'mikro-orm' as const,
    targets: [normaliseTarget(entity)],
    node: call,
    fields: [] as Field[],
    arbitrated: false,
  };
  if (reads.has(method)) {
    // `find()` and `count()` with no condition check nothing.
    if ((method === 'find' || method === 'count' || method === 'findAndCount') && !args[0]) return undefined;
    return { ...base, kind: 'read', label: label(entity, 'read') };
  }
  if (inserts.has(method))
    return { ...base, kind: 'insert', label: label(entity, 'insert'), fields: fieldsOf(args[0], scopeOf) };
  if (upserts.has(method)) {
    const options = objectLiteral(args[1], scopeOf);
    const action = options && objectProperty(options, 'onConflictAction')?.value;
    const ignore = action?.type === 'Literal' && action.value === 'ignore';
    const conflictTarget = conflictFields(options);
    return {
      ...base,
      kind: 'upsert',
      label: label(entity, 'upsert'),
      fields: fieldsOf(args[0], scopeOf),
      ...(conflictTarget ? { conflictTarget } : {}),
      arbitrated: true,
      skipsDuplicates: ignore,
    };
  }
  return undefined;
}

export const mikroOrm: DataAdapter = {
  kind: 'data',
  name: 'mikro-orm',
  label: 'MikroORM',
  modules,
  methods: new Set([...reads, ...inserts, ...upserts, ...persists]),
  recognise: (node, file) => (node.type === 'CallExpression' ? mikroOperation(node, file) : undefined),
  remedy:
    "em.upsert(…, { onConflictAction: 'ignore' }) on a unique key, or insert and treat UniqueConstraintViolationException as the duplicate",
  uniqueViolations: ['UniqueConstraintViolationException'],
  // A migration class's `up()`: `this.addSql('create unique index …')`.
  ddlCalls: [{ method: 'addSql', receiver: /^this$/ }],
};
