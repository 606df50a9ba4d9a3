import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { analysisFor } from '../../analysis/file-analysis.js';
import type { LibraryTable } from '../../analysis/library-table.js';
import type { OriginTracer } from '../../analysis/origin.js';
import type { DataOperation } from '../../analysis/operations/index.js';
import { capitalised, listed } from '../../analysis/key-facts.js';
import { columnName, type SchemaModel, type UniqueKey } from '../../analysis/schema/model.js';
import { calleeName, variableOf } from '../../analysis/scope.js';
import type { ScopeOf } from '../../analysis/static-text.js';
import { createRule } from '../../create-rule.js';
import type { SafeEdit } from '../../libraries/types.js';
import { enclosingFunction, guardsFedBy, handlesUniqueViolation, inSerializableTransaction, isDecidedBy, writeSites } from './decisions.js';

const defaultRemedy = 'an upsert, or insert and treat the unique violation as the duplicate';

/** The suggestion message for each safe edit an adapter can make. */
const editMessages = {
  'on-conflict-do-nothing': 'addOnConflict',
  nx: 'addNx',
  'on-conflict-do-nothing-call': 'addOnConflictDoNothing',
} as const satisfies Record<SafeEdit, string>;

/**
 * An advisory lock, LOCK TABLE, SERIALIZABLE, a lock on another row, or a Redis lock (SET … NX on
 * another key) taken before the check serialises the workers. Taken after it, it comes too late.
 */
function serialised(write: DataOperation, read: DataOperation, neighbours: readonly DataOperation[], table: LibraryTable): boolean {
  const elsewhere = (other: DataOperation) => !other.targets.some((target) => write.targets.includes(target));
  // A key-value store's SET … NX on another key is a lock.
  const lock = (other: DataOperation) => table.dataAdapter(other.library)?.keyPolicy === 'whole-key' && other.skipsDuplicates === true;
  return neighbours.some(
    (other) =>
      other.node.range[0] < read.node.range[0] &&
      (other.kind === 'serialisation' || (other.kind === 'read' && other.locksRows === true && elsewhere(other)) || (lock(other) && elsewhere(other))),
  );
}

/** `await db.query('INSERT … ON CONFLICT DO NOTHING')` as a statement of its own: nobody reads what it said. */
function resultIgnored(node: TSESTree.Node): boolean {
  let current = node;
  while (current.parent && (current.parent.type === 'AwaitExpression' || current.parent.type === 'ChainExpression')) current = current.parent;
  return current.parent?.type === 'ExpressionStatement';
}

/**
 * A write the rule looks at: one that does not settle duplicates, or one that settles them by
 * writing nothing while the code ignores its result, so that the earlier check still decides.
 */
function checkDecides(write: DataOperation): 'unsettled' | 'ignored' | undefined {
  if (write.kind !== 'insert' && write.kind !== 'upsert') return undefined;
  if (!write.arbitrated) return 'unsettled';
  return write.skipsDuplicates && resultIgnored(write.node) ? 'ignored' : undefined;
}

/**
 * An ignored claim matters when the check also lets other work through: another write after the
 * check, in the same function (check, then the payment, then the claim). With nothing else, the
 * claim is merely redundant with its check.
 */
function guardsOtherWork(write: DataOperation, read: DataOperation, neighbours: readonly DataOperation[]): boolean {
  return neighbours.some(
    (other) => other !== write && other.kind !== 'read' && other.kind !== 'serialisation' && other.node.range[0] > read.node.range[1],
  );
}

/**
 * A unique key of the written table, declared in the project's schema, whose columns the write
 * fills and the read checked: the second worker's insert then fails on it instead of duplicating.
 */
function coveringKey(write: DataOperation, read: DataOperation, schema: () => SchemaModel): UniqueKey | undefined {
  const target = write.targets[0];
  const checked = read.filters;
  if (!target || !checked || checked.length === 0 || write.fields.length === 0) return undefined;
  const checkedColumns = new Set(checked.map(columnName));
  const both = write.fields.map((field) => field.name).filter((name) => checkedColumns.has(columnName(name)));
  return both.length > 0 ? schema().keyWithin(target, both) : undefined;
}

/** The transaction handle a call runs on: `tx` in `tx.user.create()`, when `tx` is a transaction callback's parameter. */
function transactionOf(operation: DataOperation, scopeOf: ScopeOf): TSESLint.Scope.Variable | undefined {
  const node = operation.node;
  if (node.type !== 'CallExpression') return undefined;
  let root: TSESTree.Node = node.callee;
  while (root.type === 'MemberExpression' || root.type === 'CallExpression') root = root.type === 'MemberExpression' ? root.object : root.callee;
  if (root.type !== 'Identifier') return undefined;
  const variable = variableOf(root, scopeOf(root));
  const definition = variable?.defs[0];
  const fn = definition?.type === 'Parameter' ? definition.node : undefined;
  const call = fn?.parent;
  return call?.type === 'CallExpression' && /transaction|^begin$|^tx$/i.test(calleeName(call.callee) ?? '') ? variable ?? undefined : undefined;
}

/**
 * Does the read look for the row being inserted? Only when the insert writes a column the read
 * matched on, with a value that is not new (a fresh id names a new row, never the one checked).
 * Unknown when either side does not show its columns.
 */
function looksForInsertedRow(write: DataOperation, read: DataOperation, tracer: OriginTracer): boolean {
  if (!read.filters || read.filters.length === 0 || write.fields.length === 0) return true;
  const checked = new Set(read.filters.map(columnName));
  return write.fields.some(
    (field) =>
      checked.has(columnName(field.name)) &&
      (field.values.length === 0 || field.values.some((value) => tracer.scalars(value).some((fact) => fact.kind !== 'minted'))),
  );
}

/**
 * Writes between the check and the protected insert, outside its transaction: they run before
 * the insert fails, and nothing rolls them back, so they run twice.
 */
function effectsEitherWay(write: DataOperation, read: DataOperation, neighbours: readonly DataOperation[], scopeOf: ScopeOf): DataOperation[] {
  const transaction = transactionOf(write, scopeOf);
  return neighbours.filter(
    (other) =>
      other !== write &&
      other.kind !== 'read' &&
      other.kind !== 'serialisation' &&
      other.node.range[0] > read.node.range[1] &&
      other.node.range[1] < write.node.range[0] &&
      !(transaction && transactionOf(other, scopeOf) === transaction),
  );
}

/**
 * A key-value write that stores a computed value (a cache fill: GET missed, compute, SET) keeps
 * state; only a marker (a constant, the time) records that something was done.
 */
function storesState(write: DataOperation, tracer: OriginTracer, table: LibraryTable): boolean {
  if (table.dataAdapter(write.library)?.keyPolicy !== 'whole-key' || !write.stored || write.stored.length === 0) return false;
  return write.stored.some((value) => tracer.scalars(value).some((fact) => fact.kind !== 'constant' && fact.kind !== 'time' && fact.kind !== 'minted'));
}

/** The operations of each function (undefined: the module's top level), collected once per file. */
function byFunction(operations: readonly DataOperation[]): Map<TSESTree.Node | undefined, DataOperation[]> {
  const groups = new Map<TSESTree.Node | undefined, DataOperation[]>();
  for (const operation of operations) {
    const owner = enclosingFunction(operation.node);
    const group = groups.get(owner);
    if (group) group.push(operation);
    else groups.set(owner, [operation]);
  }
  return groups;
}

/** `save(found)` after `const found = await repo.findOne(…)` updates the row that was read. */
function writesWhatWasRead(write: DataOperation, read: DataOperation, scopeOf: ScopeOf): boolean {
  if (write.node.type !== 'CallExpression') return false;
  return write.node.arguments.some((argument) => {
    if (argument.type !== 'Identifier') return false;
    const definition = variableOf(argument, scopeOf(argument))?.defs[0];
    return definition?.type === 'Variable' && definition.node.init !== null && definition.node.init.range[0] <= read.node.range[0] && read.node.range[1] <= definition.node.init.range[1];
  });
}

export const noCheckThenInsert = createRule({
  name: 'no-check-then-insert',
  meta: {
    type: 'problem',
    hasSuggestions: true,
    messages: {
      checkThenInsert:
        '{{write}} runs after {{read}} (line {{line}}) checked in application code whether it already exists: two workers can both see nothing and both write. Let a unique key decide instead: {{remedy}}.',
      protectedButEffects:
        '{{write}} is protected by {{key}}, so a second worker\'s insert fails; but {{effects}} runs after the check at line {{line}} and before that insert, whether it wins or not, so it runs twice. Move it after the insert, or into the insert\'s transaction.',
      resultIgnored:
        '{{write}} settles duplicates, but its result is ignored, so {{read}} (line {{line}}) still decides in application code: two workers can both pass that check and both go on. Make the write the check: act only when it reports that it wrote.',
      addOnConflict: 'Part of the fix: add ON CONFLICT DO NOTHING, then make the code skip the work when the row count is 0',
      addNx: 'Part of the fix: add NX, then make the code skip the work when Redis replies null',
      addOnConflictDoNothing: 'Part of the fix: add .onConflictDoNothing(), then make the code skip the work when no row comes back',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const analysis = analysisFor(context);
    const file = analysis.file;
    const table = file.libraries;
    const operations: DataOperation[] = [];
    const collect = (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression) => {
      operations.push(...analysis.operationsAt(node));
    };
    return {
      CallExpression: collect,
      TaggedTemplateExpression: collect,
      'Program:exit'() {
        const reads = operations.filter((operation) => operation.kind === 'read');
        if (reads.length === 0) return;
        const text = (node: TSESTree.Node) => context.sourceCode.getText(node);
        const guardsOf = new Map<DataOperation, ReturnType<typeof guardsFedBy>>();
        const groups = byFunction(operations);
        // The reads that may touch a table, found once per table rather than once per write.
        const readsOf = new Map<string, DataOperation[]>();
        const readsMayTouching = (target: string) => {
          let found = readsOf.get(target);
          if (!found) {
            found = reads.filter((read) => !read.mayTouch || read.mayTouch(target));
            readsOf.set(target, found);
          }
          return found;
        };
        for (const write of operations) {
          const decided = checkDecides(write);
          if (!decided) continue;
          const sites = writeSites(write.node, file);
          // Cheapest first: a glance at the text, then whether the read decides anything here,
          // and only then its tables (which may mean parsing its SQL).
          const candidates = write.targets.length === 1 ? readsMayTouching(write.targets[0]!) : [...new Set(write.targets.flatMap(readsMayTouching))];
          const read = candidates.find((candidate) => {
            let guards = guardsOf.get(candidate);
            if (!guards) {
              guards = guardsFedBy(candidate.node, file);
              guardsOf.set(candidate, guards);
            }
            return guards.length > 0 && isDecidedBy(guards, sites) && candidate.targets.some((target) => write.targets.includes(target));
          });
          if (!read) continue;
          const neighbours = groups.get(enclosingFunction(write.node)) ?? [];
          if (handlesUniqueViolation(write.node, file, table.uniqueViolation) || inSerializableTransaction(write.node, text) || serialised(write, read, neighbours, table)) continue;
          if (writesWhatWasRead(write, read, file.scopeOf) || (decided === 'unsettled' && storesState(write, analysis.tracer, table))) continue;
          if (!looksForInsertedRow(write, read, analysis.tracer)) continue;
          if (decided === 'ignored' && !guardsOtherWork(write, read, neighbours)) continue;
          const key = decided === 'unsettled' ? coveringKey(write, read, () => analysis.schema()) : undefined;
          if (key) {
            const effects = effectsEitherWay(write, read, neighbours, file.scopeOf);
            if (effects.length > 0) {
              context.report({
                node: write.node,
                messageId: 'protectedButEffects',
                data: { write: capitalised(write.label), key: key.written, effects: listed(effects.map((effect) => effect.label)), line: String(read.node.loc.start.line) },
              });
            }
            continue;
          }
          const fix = decided === 'unsettled' ? write.fix : undefined;
          context.report({
            node: write.node,
            messageId: decided === 'unsettled' ? 'checkThenInsert' : 'resultIgnored',
            data: {
              write: capitalised(write.label),
              read: read.label,
              line: String(read.node.loc.start.line),
              remedy: table.dataAdapter(write.library)?.remedy ?? defaultRemedy,
            },
            suggest: fix ? [{ messageId: editMessages[fix.edit], fix: fix.apply }] : [],
          });
        }
      },
    };
  },
});
