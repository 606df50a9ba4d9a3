import type { TSESTree } from '@typescript-eslint/utils';

import {
  fieldsOf,
  keyName,
  link,
  literalArgument,
  memberPath,
  normaliseTarget,
  type AdapterFile,
  type Chain,
  type DataAdapter,
  type DataOperation,
  type Field,
} from '../analysis/index.js';
import { atChainEnd } from './shared/query-chains.js';

/**
 * supabase-js (PostgREST): `supabase.from('orders').select('id').eq('order_id', id).maybeSingle()`,
 * `.insert(row)`, `.upsert(row, { onConflict: 'a,b', ignoreDuplicates: true })`, `.update()`,
 * `.delete()`. Its chains start like knex's `from`, so a chain is Supabase's only with evidence:
 * the file imports a Supabase package, the client is named for it, or the chain uses a filter
 * that only PostgREST has.
 */

const modules = [/^@supabase\//];
/** A project module named for the Supabase client it makes: `@/lib/supabase/admin`, `../utils/supabase.server`. */
const clientModule = /^[.@~#$].*[/]supabase([/.-]|$)/i;

/** PostgREST filters and finishers that knex does not have. */
const ownMethods = new Set([
  'eq',
  'neq',
  'is',
  'in',
  'match',
  'ilike',
  'maybeSingle',
  'single',
  'throwOnError',
  'csv',
  'contains',
  'containedBy',
  'filter',
  'not',
  'or',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'order',
  'range',
  'returns',
  'abortSignal',
]);

/** Filters whose first argument names a column the read matches on. */
const columnFilters = new Set(['eq', 'is', 'in', 'match', 'ilike', 'like', 'contains']);

function isSupabase(chain: Chain, file: AdapterFile): boolean {
  if (chain.links.some((candidate) => ownMethods.has(candidate.name))) return true;
  // `.upsert(row, { onConflict, ignoreDuplicates })`: knex's upsert takes no options.
  if (
    chain.links.some(
      (candidate) => candidate.name === 'upsert' && candidate.call.arguments[1]?.type === 'ObjectExpression',
    )
  )
    return true;
  if (/supabase/i.test(memberPath(chain.root)?.join('.') ?? '')) return true;
  // The package, or the project's own module that makes the client (`@/lib/supabase/admin`).
  for (const source of file.imports.sources)
    if (modules.some((pattern) => pattern.test(source)) || clientModule.test(source)) return true;
  return false;
}

/** The columns `.eq('order_id', id)` and `.match({ order_id: id })` match on, with the values they match. */
function filtersOf(chain: Chain): Field[] {
  const columns: Field[] = [];
  for (const { name, call } of chain.links) {
    if (!columnFilters.has(name)) continue;
    const [argument, value] = call.arguments;
    // `metadata->>OrderId` filters on a path inside the column `metadata`.
    const column = literalArgument(call)?.split('->')[0]?.trim();
    if (column)
      columns.push({ name: column, values: value && value.type !== 'SpreadElement' ? [value] : [], functions: [] });
    if (name === 'match' && argument?.type === 'ObjectExpression') {
      for (const property of argument.properties) {
        if (property.type !== 'Property') continue;
        const key = keyName(property);
        if (key) columns.push({ name: key, values: [property.value], functions: [] });
      }
    }
  }
  return columns;
}

/** `{ onConflict: 'a,b', ignoreDuplicates: true }`, the options of an upsert. */
function upsertOptions(call: TSESTree.CallExpression): { target?: string[]; ignores: boolean } {
  const options = call.arguments[1];
  if (options?.type !== 'ObjectExpression') return { ignores: false };
  let target: string[] | undefined;
  let ignores = false;
  for (const property of options.properties) {
    if (property.type !== 'Property') continue;
    const key = keyName(property);
    if (key === 'onConflict' && property.value.type === 'Literal' && typeof property.value.value === 'string') {
      target = property.value.value
        .split(',')
        .map((column) => column.trim())
        .filter(Boolean);
    }
    if (key === 'ignoreDuplicates' && property.value.type === 'Literal' && property.value.value === true)
      ignores = true;
  }
  return { target, ignores };
}

function supabaseChain(chain: Chain, end: TSESTree.CallExpression, file: AdapterFile): DataOperation | undefined {
  const from = chain.links.find((candidate) => candidate.name === 'from');
  const table = from && literalArgument(from.call);
  if (!table || !isSupabase(chain, file)) return undefined;
  const base = {
    library: 'supabase' as const,
    targets: [normaliseTarget(table)],
    node: end,
    fields: [],
    arbitrated: false,
  };
  const insert = link(chain, 'insert');
  if (insert)
    return {
      ...base,
      kind: 'insert',
      label: `the Supabase insert into ${table}`,
      fields: fieldsOf(insert.call.arguments[0], file.scopeOf),
    };
  const upsert = link(chain, 'upsert');
  if (upsert) {
    const { target, ignores } = upsertOptions(upsert.call);
    return {
      ...base,
      kind: ignores ? 'insert' : 'upsert',
      label: `the Supabase upsert into ${table}`,
      fields: fieldsOf(upsert.call.arguments[0], file.scopeOf),
      conflictTarget: target,
      // onConflict: 'a,b' becomes ON CONFLICT (a, b), which needs a unique key on exactly those columns.
      ...(target && target.length > 0 ? { arbiter: 'exact' as const } : {}),
      arbitrated: true,
      skipsDuplicates: ignores,
    };
  }
  const update = link(chain, 'update');
  if (update)
    return {
      ...base,
      kind: 'update',
      label: `the Supabase update of ${table}`,
      fields: fieldsOf(update.call.arguments[0], file.scopeOf),
      filters: filtersOf(chain),
    };
  if (link(chain, 'delete')) return { ...base, kind: 'delete', label: `the Supabase delete from ${table}` };
  if (link(chain, 'select'))
    return { ...base, kind: 'read', label: `a Supabase select on ${table}`, filters: filtersOf(chain) };
  return undefined;
}

export const supabase: DataAdapter = {
  kind: 'data',
  name: 'supabase',
  label: 'Supabase',
  modules,
  methods: new Set([...ownMethods, 'select', 'insert', 'upsert', 'update', 'delete', 'from', 'limit']),
  recognise: atChainEnd(supabaseChain),
  remedy:
    "upsert(row, { onConflict: '<unique columns>', ignoreDuplicates: true }).select() and check the returned rows, or insert and treat error 23505 as the duplicate",
  uniqueViolations: ['23505'],
};
