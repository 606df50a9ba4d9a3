import type { TSESTree } from '@typescript-eslint/utils';

import { enclosingFunction, guardsFedBy, handlesUniqueViolation, inSerializableTransaction, isDecidedBy, writeSites } from '../analysis/decisions.js';
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

/**
 * An advisory lock, LOCK TABLE, SERIALIZABLE, a lock on another row, or a Redis lock (SET … NX on
 * another key) taken before the check serialises the workers. Taken after it, it comes too late.
 */
function serialised(write: DataOperation, read: DataOperation, neighbours: readonly DataOperation[]): boolean {
  const elsewhere = (other: DataOperation) => !other.targets.some((target) => write.targets.includes(target));
  return neighbours.some(
    (other) =>
      other.node.range[0] < read.node.range[0] &&
      (other.kind === 'serialisation' ||
        (other.kind === 'read' && other.locksRows === true && elsewhere(other)) ||
        (other.library === 'Redis' && other.skipsDuplicates === true && elsewhere(other))),
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
    docs: {
      description: 'Disallow checking for a row in application code and then inserting it without letting the database settle duplicates',
    },
    hasSuggestions: true,
    messages: {
      checkThenInsert:
        '{{write}} runs after {{read}} (line {{line}}) checked in application code whether it already exists: two workers can both see nothing and both write. Let a unique key decide instead: {{remedy}}.',
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
          const sites = writeSites(write.node, tracer);
          // Cheapest first: a glance at the text, then whether the read decides anything here,
          // and only then its tables (which may mean parsing its SQL).
          const candidates = write.targets.length === 1 ? readsMayTouching(write.targets[0]!) : [...new Set(write.targets.flatMap(readsMayTouching))];
          const read = candidates.find((candidate) => {
            let guards = guardsOf.get(candidate);
            if (!guards) {
              guards = guardsFedBy(candidate.node, tracer);
              guardsOf.set(candidate, guards);
            }
            return guards.length > 0 && isDecidedBy(guards, sites) && candidate.targets.some((target) => write.targets.includes(target));
          });
          if (!read) continue;
          const neighbours = groups.get(enclosingFunction(write.node)) ?? [];
          if (handlesUniqueViolation(write.node, text) || inSerializableTransaction(write.node, text) || serialised(write, read, neighbours)) continue;
          if (writesWhatWasRead(write, read, tracer.scopeOf)) continue;
          if (decided === 'ignored' && !guardsOtherWork(write, read, neighbours)) continue;
          const fix = decided === 'unsettled' ? write.fix : undefined;
          context.report({
            node: write.node,
            messageId: decided === 'unsettled' ? 'checkThenInsert' : 'resultIgnored',
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
