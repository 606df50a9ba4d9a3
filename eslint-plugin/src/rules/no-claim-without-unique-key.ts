import type { TSESTree } from '@typescript-eslint/utils';

import { analysisFor } from '../lint/file-analysis.js';
import { duplicateMatters } from '../lint/stakes.js';
import type { FileContext } from '../analysis/context/file-context.js';
import type { OriginTracer } from '../analysis/origin/origin.js';
import type { DataOperation } from '../analysis/operations/index.js';
import { columnName, type SchemaModel, type UniqueKey } from '../analysis/schema/model.js';
import { createRule } from '../create-rule.js';
import { duplicateCatches } from '../analysis/control/caught.js';
import { soundsLikeClaimStore } from '../analysis/naming/stores.js';
import { answerUnread } from '../analysis/syntax/nodes.js';

/**
 * How a write expects a unique key to settle its duplicate. `any`: ON CONFLICT DO NOTHING with no
 * target, or a plain insert whose caller treats the unique violation as the duplicate: any key the
 * row fills. `exact`: ON CONFLICT (cols), which needs a key on exactly those columns. `within`: an
 * upsert by filter, atomic only under a key among the fields it matches on.
 */
type Expectation = { how: 'any' | 'exact' | 'within'; caught: boolean };

/** SQL functions that make a new value for every row: a key they fill never meets another row's. */
const mintingFunctions = /uuid|random|nextval|ulid|cuid|nanoid/i;

/** Keys this many columns long or longer are not spelled out in a message. */
const columnsInMessage = 3;

/**
 * A plain insert whose unique violation is caught as the duplicate, provided the insert is the only
 * write each catch guards: a catch around several writes may be meant for another one.
 */
function caughtAsDuplicate(write: DataOperation, writes: readonly DataOperation[], file: FileContext): boolean {
  const alone = (guarded: TSESTree.Node) =>
    !writes.some(
      (other) =>
        other !== write &&
        other.kind !== 'read' &&
        other.kind !== 'serialisation' &&
        other.node.range[0] >= guarded.range[0] &&
        other.node.range[1] <= guarded.range[1],
    );
  const regions = duplicateCatches(write.node, file);
  return regions.length > 0 && regions.every(alone);
}

function expectation(
  write: DataOperation,
  writes: readonly DataOperation[],
  file: FileContext,
): Expectation | undefined {
  if (write.kind !== 'insert' && write.kind !== 'upsert') return undefined;
  if (write.arbiter === 'exact')
    return write.conflictTarget && write.conflictTarget.length > 0 ? { how: 'exact', caught: false } : undefined;
  if (write.arbiter === 'any') return write.skipsDuplicates ? { how: 'any', caught: false } : undefined;
  if (write.arbiter === 'within') return { how: 'within', caught: false };
  if (write.kind === 'insert' && !write.arbitrated && caughtAsDuplicate(write, writes, file))
    return { how: 'any', caught: true };
  return undefined;
}

/** Does the write fill `column` with a value another row may have (not one made fresh for this row)? */
function fillsWithOldValue(write: DataOperation, column: string, tracer: OriginTracer): boolean {
  return write.fields.some((field) => {
    if (columnName(field.name) !== column) return false;
    if (field.functions.some((name) => mintingFunctions.test(name))) return false;
    return (
      field.values.length === 0 ||
      field.values.some((value) => tracer.scalars(value).some((fact) => fact.kind !== 'minted'))
    );
  });
}

function sameColumns(key: UniqueKey, columns: readonly string[]): boolean {
  const wanted = new Set(columns.map(columnName));
  return key.columns.length === wanted.size && key.columns.every((column) => wanted.has(column));
}

/** The columns a write should be keyed on, for the message: its target, its filter, or what it inserts. */
function suggestedColumns(write: DataOperation, how: Expectation['how'], tracer: OriginTracer): string[] {
  if (how === 'exact' || how === 'within') return write.conflictTarget ?? [];
  return write.fields
    .filter((field) => fillsWithOldValue(write, columnName(field.name), tracer))
    .map((field) => field.name);
}

function where(schema: SchemaModel, target: string): string {
  const files = schema.declaration(target)?.files ?? [];
  return files.length > 0 && files.every((file) => file.endsWith('.sql')) ? 'in a new migration' : 'in its schema';
}

export const noClaimWithoutUniqueKey = createRule({
  name: 'no-claim-without-unique-key',
  meta: {
    type: 'problem',
    messages: {
      noKey:
        'Claim with no unique key to settle it: {{table}} has none, so {{write}} inserts the duplicate; add a unique index on {{index}} {{where}}.',
      noKeyOnColumns:
        'Claim with no unique key to settle it: {{table}} has none on {{columns}}, so {{write}} inserts the duplicate; add a unique index on {{index}} {{where}}.',
      caughtNoKey:
        'Caught duplicate with no unique key: {{write}} relies on a unique violation, but {{table}} has no unique key on {{columns}}; add a unique index on {{index}} {{where}}.',
      noMatchingKey:
        'ON CONFLICT names no unique key: {{table}} has none on exactly ({{columns}}), so {{write}} fails at run time; add a unique index on {{index}} {{where}}.',
      upsertNoKey:
        'Upsert with no unique index: {{table}} has none on {{columns}}, so two concurrent runs of {{write}} can both insert; add a unique index on {{index}} {{where}}.',
      upsertEmptyFilter:
        'Upsert matching on no field: no unique index settles {{write}}, so two concurrent runs can both insert.',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const analysis = analysisFor(context);
    const file = analysis.file;
    const operations: DataOperation[] = [];
    const collect = (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression) => {
      operations.push(...analysis.operationsAt(node));
    };
    return {
      CallExpression: collect,
      TaggedTemplateExpression: collect,
      'Program:exit'() {
        const writes = operations.filter(
          (operation) => operation.kind !== 'read' && operation.kind !== 'serialisation',
        );
        for (const write of writes) {
          const expected = expectation(write, writes, file);
          if (!expected || write.targets.length !== 1) continue;
          const target = write.targets[0];
          // Only a table whose keys the schema settles: unknown, or known in part, means silence.
          const schema = analysis.schema();
          if (!schema.keysSettled(target)) continue;
          const keys = schema.uniqueKeys(target);
          const tracer = analysis.tracer;
          const table = schema.declaration(target)?.name ?? target;
          const columns = suggestedColumns(write, expected.how, tracer);
          const spelled = columns.length > 0 && columns.length <= columnsInMessage;
          const data = {
            table,
            write: write.label,
            columns: spelled ? columns.join(', ') : 'the inserted columns',
            index: spelled ? `${table}(${columns.join(', ')})` : `the columns of ${table} that identify a row`,
            where: where(schema, target),
          };
          if (expected.how === 'exact') {
            if (keys.some((key) => sameColumns(key, write.conflictTarget!))) continue;
            context.report({ node: write.node, messageId: 'noMatchingKey', data });
            continue;
          }
          if (expected.how === 'within') {
            const matched = new Set((write.conflictTarget ?? []).map(columnName));
            if (keys.some((key) => key.columns.length > 0 && key.columns.every((column) => matched.has(column))))
              continue;
            // An upsert is how code writes a document whatever is there: only where a second copy
            // costs something is its missing key a finding.
            if (!duplicateMatters(write, analysis)) continue;
            context.report({
              node: write.node,
              messageId: matched.size === 0 ? 'upsertEmptyFilter' : 'upsertNoKey',
              data,
            });
            continue;
          }
          // ON CONFLICT DO NOTHING whose answer nobody reads decides nothing: it claims only a
          // table kept for claims, or where a second row costs something. An audit log written
          // so outside a delivery gets a row per event, as it would with a key.
          if (
            !expected.caught &&
            answerUnread(write) &&
            !soundsLikeClaimStore(target) &&
            !duplicateMatters(write, analysis)
          )
            continue;
          // A key among the columns this write fills with a value another row may have can
          // conflict; a key on columns it leaves to their defaults, or fills with fresh ids, cannot.
          if (keys.length > 0) {
            if (!write.fieldsComplete) continue;
            if (keys.some((key) => key.columns.some((column) => fillsWithOldValue(write, column, tracer)))) continue;
            if (columns.length === 0) continue;
          }
          const messageId = expected.caught ? 'caughtNoKey' : keys.length === 0 ? 'noKey' : 'noKeyOnColumns';
          context.report({ node: write.node, messageId, data });
        }
      },
    };
  },
});
