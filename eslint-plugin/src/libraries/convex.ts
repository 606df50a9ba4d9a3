import type { TSESTree } from '@typescript-eslint/utils';

import {
  calleeName,
  chainOf,
  constantInitializer,
  fieldsOf,
  literalArgument,
  memberPath,
  normaliseTarget,
  propertyName,
  unwrapExpression,
  walk,
  type AdapterFile,
  type DataAdapter,
  type DataOperation,
  type Field,
} from '../analysis/index.js';

/**
 * Convex (`convex/server`), whose functions reach the database through `ctx.db`:
 * `ctx.db.query('events').withIndex('by_event', (q) => q.eq('eventId', id)).unique()` (also
 * `first`, `collect`, `take`, `paginate`) reads, `ctx.db.get(id)`, `ctx.db.insert('events', doc)`,
 * `ctx.db.patch(id, fields)`, `ctx.db.replace(id, doc)`, `ctx.db.delete(id)`.
 *
 * Only queries and mutations have `ctx.db` (an action has none: it calls `ctx.runQuery` and
 * `ctx.runMutation`), and Convex runs each as one serialisable transaction, retried when what it
 * read changed before it committed: every operation on `ctx.db` is `serialisable`, so a check and
 * an insert in one mutation are settled. Convex has no unique indexes; that transaction is how a
 * duplicate is kept out.
 */

/** `convex/server`, and the modules Convex generates for a project (`./_generated/server`). */
const modules = [/^convex(\/|$)/, /(^|\/)_generated\/(server|dataModel|api)(\.js)?$/];

/** The calls that run a query and yield its documents. */
const queryEnds = new Set(['unique', 'first', 'collect', 'take', 'paginate']);
const writes: Readonly<Record<string, 'insert' | 'update' | 'delete'>> = {
  insert: 'insert',
  patch: 'update',
  replace: 'update',
  delete: 'delete',
};

/** `ctx.db`, or a constant holding it: the receiver of Convex's database calls. */
function isDatabase(node: TSESTree.Node, file: AdapterFile): boolean {
  let receiver = unwrapExpression(node);
  if (receiver.type === 'Identifier') {
    const init = constantInitializer(receiver, file.scopeOf(receiver));
    if (init) receiver = unwrapExpression(init);
  }
  if (memberPath(receiver)?.at(-1) !== 'db') return false;
  return [...file.imports.sources].some((source) => modules.some((module) => module.test(source)));
}

/**
 * The fields an index range or a filter matches with equality: `q.eq('eventId', id)` in
 * `withIndex`, `q.eq(q.field('eventId'), id)` in `filter`.
 */
function equalities(chain: ReturnType<typeof chainOf>, file: AdapterFile): Field[] {
  const found: Field[] = [];
  for (const { name, call } of chain.links) {
    if (name !== 'withIndex' && name !== 'filter') continue;
    for (const argument of call.arguments) {
      walk(argument, file.visitorKeys, (node) => {
        if (node.type !== 'CallExpression' || calleeName(node.callee) !== 'eq') return true;
        const [field, value] = node.arguments;
        let column = literalArgument(node);
        if (!column && field?.type === 'CallExpression' && calleeName(field.callee) === 'field')
          column = literalArgument(field);
        if (column && value && value.type !== 'SpreadElement')
          found.push({ name: column, values: [value], functions: [] });
        return true;
      });
    }
  }
  return found;
}

/** The table of a document id: `existing._id` where `existing` came from a query of that table. */
function tableOfId(node: TSESTree.Node | undefined, file: AdapterFile): string | undefined {
  const id = node && unwrapExpression(node);
  if (id?.type !== 'MemberExpression' || propertyName(id) !== '_id') return undefined;
  const holder = unwrapExpression(id.object);
  if (holder.type !== 'Identifier') return undefined;
  const init = constantInitializer(holder, file.scopeOf(holder));
  const read = init && unwrapExpression(init);
  const call = read?.type === 'AwaitExpression' ? unwrapExpression(read.argument) : read;
  if (call?.type !== 'CallExpression') return undefined;
  const query = chainOf(call).links.find((candidate) => candidate.name === 'query');
  return query && literalArgument(query.call);
}

function convexOperation(call: TSESTree.CallExpression, file: AdapterFile): DataOperation | undefined {
  const callee = unwrapExpression(call.callee);
  const method = calleeName(callee);
  if (!method || callee.type !== 'MemberExpression') return undefined;
  const base = { library: 'convex' as const, node: call, fields: [] as Field[], arbitrated: false, serialisable: true };
  if (queryEnds.has(method)) {
    const chain = chainOf(call);
    const query = chain.links.find((candidate) => candidate.name === 'query');
    const table = query && literalArgument(query.call);
    const root = query && unwrapExpression(query.call.callee);
    if (!table || root?.type !== 'MemberExpression' || !isDatabase(root.object, file)) return undefined;
    return {
      ...base,
      kind: 'read',
      targets: [normaliseTarget(table)],
      label: `a Convex query of ${table}`,
      filters: equalities(chain, file),
    };
  }
  if (!isDatabase(callee.object, file)) return undefined;
  // Newer Convex names the table first in every call (`ctx.db.get('events', id)`); older, only in insert.
  const named = literalArgument(call);
  const args = named ? call.arguments.slice(1) : call.arguments;
  if (method === 'get') {
    return named
      ? { ...base, kind: 'read', targets: [normaliseTarget(named)], label: `a Convex get() of ${named}` }
      : undefined;
  }
  const kind = writes[method];
  if (!kind) return undefined;
  const table = named ?? tableOfId(args[0], file);
  const targets = table ? [normaliseTarget(table)] : [];
  const label = `the Convex ${method}()${table ? ` of ${table}` : ''}`;
  if (kind === 'insert') {
    if (!named) return undefined;
    return { ...base, kind, targets, label, fields: fieldsOf(args[0], file.scopeOf) };
  }
  return { ...base, kind, targets, label };
}

export const convex: DataAdapter = {
  kind: 'data',
  name: 'convex',
  label: 'Convex',
  modules,
  methods: new Set([...queryEnds, ...Object.keys(writes), 'get']),
  recognise: (node, file) => (node.type === 'CallExpression' ? convexOperation(node, file) : undefined),
  remedy: 'check and insert in one mutation, which Convex runs as a serialisable transaction',
};
