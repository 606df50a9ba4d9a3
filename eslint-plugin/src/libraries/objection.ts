import type { TSESTree } from '@typescript-eslint/utils';

import {
  fieldsOf,
  link,
  normaliseTarget,
  unwrapExpression,
  variableOf,
  type AdapterFile,
  type Chain,
  type ChainLink,
  type DataAdapter,
  type DataOperation,
} from '../analysis/index.js';
import { atChainEnd, chainEnds, whereFilters } from './shared/query-chains.js';

/**
 * Objection.js, on knex: every query starts at a model class, `Refund.query()` (or
 * `Refund.query(trx)`), and is read from the end of its chain: `.findOne(where)`, `.findById(id)`,
 * `.where(…).first()` read; `.insert(row)` inserts into the model's table, settled by
 * `.onConflict(…).ignore()` or `.merge()`. `upsertGraph` fetches the graph and then inserts what
 * is missing in application code, so it settles nothing itself.
 *
 * A knex chain starts at `knex('table')`; an Objection chain at a capitalised class's `query()`
 * that sends no SQL. The class must be imported or declared in the file, and the file must import
 * objection unless `query()` takes no argument or the chain uses a method only Objection's builder
 * has (`findById`, `upsertGraph`, `patch`).
 */

const reads = new Set([
  'findOne',
  'findById',
  'findByIds',
  'first',
  'where',
  'andWhere',
  'whereIn',
  'resultSize',
  'count',
  'select',
]);
const inserts = new Set(['insert', 'insertAndFetch', 'insertGraph', 'insertGraphAndFetch']);
const upsertGraphs = new Set(['upsertGraph', 'upsertGraphAndFetch']);
const updates = new Set([
  'patch',
  'update',
  'patchAndFetchById',
  'updateAndFetchById',
  'patchAndFetch',
  'increment',
  'decrement',
]);
const deletes = new Set(['delete', 'deleteById']);
/** Builder methods knex does not have: with one of them, the chain is Objection's by its shape. */
const ownMethods = new Set([
  'findOne',
  'findById',
  'findByIds',
  'insertAndFetch',
  'insertGraph',
  'insertGraphAndFetch',
  'upsertGraph',
  'upsertGraphAndFetch',
  'patch',
  'patchAndFetchById',
  'updateAndFetchById',
  'patchAndFetch',
  'deleteById',
  'resultSize',
]);

/** `Refund` in `Refund.query()`: imported, or a class declared in this file. */
function modelClass(root: TSESTree.Node, file: AdapterFile): string | undefined {
  const node = unwrapExpression(root);
  if (node.type !== 'Identifier' || !/^[A-Z]/.test(node.name)) return undefined;
  if (file.imports.bindings.has(node.name)) return node.name;
  const definition = variableOf(node, file.scopeOf(node))?.defs[0];
  return definition?.type === 'ClassName' ? node.name : undefined;
}

/**
 * A row written through itself: `order.$query().patch({ paidAt })`, `order.$query(trx).update(…)`.
 * Only Objection's models have `$query`, so no import is asked for.
 */
function instanceChain(chain: Chain, end: TSESTree.CallExpression, file: AdapterFile): DataOperation | undefined {
  const row = unwrapExpression(chain.root);
  const update = link(chain, ...updates);
  if (row.type !== 'Identifier' || /^[A-Z]/.test(row.name) || !update) return undefined;
  return {
    library: 'objection',
    kind: 'update',
    targets: [],
    node: end,
    row,
    label: `${row.name}.$query().${update.name}()`,
    fields: fieldsOf(update.call.arguments[0], file.scopeOf),
    arbitrated: false,
  };
}

/** `patch(row)`, `patchAndFetchById(id, row)`: the values an update sets, and the id it names where it names one. */
function updated(update: ChainLink, chain: Chain, file: AdapterFile): Pick<DataOperation, 'fields' | 'filters'> {
  const [first, second] = update.call.arguments;
  const named = /ById$/.test(update.name);
  const byId = named ? first : link(chain, 'findById')?.call.arguments[0];
  const values = named ? second : first;
  return {
    fields: fieldsOf(values, file.scopeOf),
    filters:
      byId && byId.type !== 'SpreadElement'
        ? [{ name: 'id', values: [byId], functions: [] }]
        : whereFilters(chain, file.scopeOf),
  };
}

function objectionChain(chain: Chain, end: TSESTree.CallExpression, file: AdapterFile): DataOperation | undefined {
  const [start, ...rest] = chain.links;
  if (rest.length === 0) return undefined;
  if (start?.name === '$query') return instanceChain(chain, end, file);
  if (start?.name !== 'query') return undefined;
  // `query(trx)` takes a transaction; a string would be SQL, another library's `query`.
  const [argument] = start.call.arguments;
  if (
    argument &&
    ((argument.type === 'Literal' && typeof argument.value === 'string') || argument.type === 'TemplateLiteral')
  )
    return undefined;
  const model = modelClass(chain.root, file);
  if (!model) return undefined;
  // Without an objection import: `query()` with no argument (TypeORM's static `query` takes SQL),
  // or a method only Objection's builder has.
  const shaped = start.call.arguments.length === 0 || rest.some((step) => ownMethods.has(step.name));
  if (!shaped && !file.libraries.imported(objection, file.imports)) return undefined;
  const base = {
    library: 'objection' as const,
    targets: [normaliseTarget(model)],
    node: end,
    fields: [],
    arbitrated: false,
  };
  const insert = link(chain, ...inserts);
  if (insert) {
    const conflict = link(chain, 'onConflict');
    const settled = Boolean(conflict && link(chain, 'ignore', 'merge'));
    const conflictTarget = conflict?.call.arguments.flatMap((each) =>
      each.type === 'Literal' && typeof each.value === 'string' ? [each.value] : [],
    );
    return {
      ...base,
      kind: 'insert',
      label: `the Objection ${insert.name} into ${model}`,
      fields: fieldsOf(insert.call.arguments[0], file.scopeOf),
      ...(conflictTarget && conflictTarget.length > 0 ? { conflictTarget } : {}),
      arbitrated: settled,
      skipsDuplicates: settled && Boolean(link(chain, 'ignore')),
    };
  }
  const graph = link(chain, ...upsertGraphs);
  if (graph)
    return {
      ...base,
      kind: 'upsert',
      label: `the Objection ${graph.name} of ${model}`,
      fields: fieldsOf(graph.call.arguments[0], file.scopeOf),
    };
  const update = link(chain, ...updates);
  if (update)
    return {
      ...base,
      kind: 'update',
      label: `the Objection ${update.name} of ${model}`,
      ...updated(update, chain, file),
    };
  const removal = link(chain, ...deletes);
  if (removal) return { ...base, kind: 'delete', label: `the Objection ${removal.name} of ${model}` };
  const read = rest.find((step) => reads.has(step.name));
  if (read)
    return {
      ...base,
      kind: 'read',
      label: `an Objection ${read.name} on ${model}`,
      filters: whereFilters(chain, file.scopeOf),
    };
  return undefined;
}

export const objection: DataAdapter = {
  kind: 'data',
  name: 'objection',
  label: 'Objection',
  modules: ['objection'],
  methods: new Set([...chainEnds, ...reads, ...inserts, ...upsertGraphs, ...updates, ...deletes]),
  recognise: atChainEnd(objectionChain),
  remedy:
    '.insert(…).onConflict(…).ignore() and check what it returns, or insert and treat the unique violation as the duplicate',
  increments: { methods: ['increment', 'decrement'] },
  uniqueViolations: ['UniqueViolationError'],
};
