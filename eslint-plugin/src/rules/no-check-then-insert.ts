import type { TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, guardsFedBy, handlesUniqueViolation, inSerializableTransaction, isDecidedBy } from '../analysis/decisions.js';
import { analysisFor } from '../analysis/file-analysis.js';
import type { DataOperation } from '../analysis/operations/index.js';
import { capitalised } from '../analysis/key-facts.js';
import { variableOf } from '../analysis/scope.js';
import type { ScopeOf } from '../analysis/static-text.js';
import { createRule } from '../create-rule.js';

const remedies: Record<string, string> = {
  SQL: 'INSERT … ON CONFLICT DO NOTHING and check the row count',
  Prisma: 'an upsert, or create and treat error P2002 as the duplicate',
  Redis: 'SET … NX and check its reply',
  knex: '.onConflict(…).ignore() and check the returned rows',
  Drizzle: '.onConflictDoNothing() and check the returned rows',
  Kysely: '.onConflict((oc) => oc.doNothing()) and check the result',
};
const defaultRemedy = 'an upsert, or insert and treat the unique violation as the duplicate';

function sameFunction(a: TSESTree.Node, b: TSESTree.Node): boolean {
  return enclosingFunction(a) === enclosingFunction(b);
}

/** An advisory lock, LOCK TABLE, SERIALIZABLE, or a lock on another row taken first serialises the workers. */
function serialised(write: DataOperation, operations: readonly DataOperation[]): boolean {
  return operations.some(
    (other) =>
      other.node.range[0] < write.node.range[0] &&
      sameFunction(other.node, write.node) &&
      (other.kind === 'serialisation' ||
        (other.kind === 'read' && other.locksRows === true && !other.targets.some((target) => write.targets.includes(target)))),
  );
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
    docs: {
      description: 'Disallow checking for a row in application code and then inserting it without letting the database settle duplicates',
    },
    hasSuggestions: true,
    messages: {
      checkThenInsert:
        '{{write}} runs after {{read}} (line {{line}}) checked in application code whether it already exists: two workers can both see nothing and both write. Let a unique key decide instead: {{remedy}}.',
      addOnConflict: 'Add ON CONFLICT DO NOTHING to the INSERT (then treat a row count of 0 as the duplicate).',
      addNx: 'Add NX so that Redis sets the key only if it is absent (then treat a null reply as the duplicate).',
      addOnConflictDoNothing: 'Add .onConflictDoNothing() (then treat an empty result as the duplicate).',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const analysis = analysisFor(context);
    const tracer = analysis.tracer;
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
        for (const write of operations) {
          if (write.kind !== 'insert' || write.arbitrated) continue;
          const read = reads.find((candidate) => {
            if (candidate.mayTouch && !write.targets.some(candidate.mayTouch)) return false;
            if (!candidate.targets.some((target) => write.targets.includes(target))) return false;
            let guards = guardsOf.get(candidate);
            if (!guards) {
              guards = guardsFedBy(candidate.node, tracer);
              guardsOf.set(candidate, guards);
            }
            return isDecidedBy(guards, write.node, tracer);
          });
          if (!read) continue;
          if (handlesUniqueViolation(write.node, text) || inSerializableTransaction(write.node, text) || serialised(write, operations)) continue;
          if (writesWhatWasRead(write, read, tracer.scopeOf)) continue;
          const fix = write.fix;
          context.report({
            node: write.node,
            messageId: 'checkThenInsert',
            data: {
              write: capitalised(write.label),
              read: read.label,
              line: String(read.node.loc.start.line),
              remedy: remedies[write.library] ?? defaultRemedy,
            },
            suggest: fix ? [{ messageId: fix.message, fix: fix.apply }] : [],
          });
        }
      },
    };
  },
});
