import type { TSESTree } from '@typescript-eslint/utils';

import { checkedWrites } from '../../lint/checked-writes.js';
import { analysisFor, operationListeners } from '../../lint/file-analysis.js';
import { originAt } from '../../analysis/keys/key-facts.js';
import { createRule } from '../../create-rule.js';
import type { DataOperation, SafeEdit } from '../../analysis/contract/operation.js';
import { columnName } from '../../analysis/schema/model.js';
import { catchUniqueViolation, violationLabel } from '../../lint/unique-violation-fix.js';
import { keyRefusesRepeat, repeatMatters } from '../../lint/stakes.js';

const defaultRemedy = 'an upsert, or insert and treat the unique violation as the duplicate';

/** The suggestion message for each safe edit an adapter can make. */
const editMessages = {
  'on-conflict-do-nothing': 'addOnConflict',
  nx: 'addNx',
  'on-conflict-do-nothing-call': 'addOnConflictDoNothing',
} as const satisfies Record<SafeEdit, string>;

export const noCheckThenInsert = createRule({
  name: 'no-check-then-insert',
  meta: {
    type: 'problem',
    hasSuggestions: true,
    messages: {
      checkThenInsert:
        'Write decided by a check in app code: {{write}} follows {{read}} on line {{line}}, so two workers can both write; let a unique key decide: {{remedy}}.',
      addOnConflict:
        'Part of the fix: add ON CONFLICT DO NOTHING, then make the code skip the work when the row count is 0',
      addNx: 'Part of the fix: add NX, then make the code skip the work when Redis replies null',
      addOnConflictDoNothing:
        'Part of the fix: add .onConflictDoNothing(), then make the code skip the work when no row comes back',
      catchUniqueViolation: 'Part of the fix: add {{key}}, then take its unique violation ({{code}}) as the duplicate',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const analysis = analysisFor(context);
    const table = analysis.file.libraries;
    return {
      ...operationListeners(analysis),
      'Program:exit'() {
        // Two writes of one helper, decided by one check, are one finding at the helper's call.
        const reported = new Set<TSESTree.Node>();
        for (const checked of checkedWrites(analysis)) {
          const { write, read } = checked;
          // Work before the write, a claim whose verdict is ignored, or a done-flag set after the
          // work, is the claim recorded too late (no-claim-after-effect); a cache fill is no claim
          // at all; a unique key settles it, on this insert or on another one in its transaction
          // (a primary key saved by, only when nothing at stake runs after the save); a
          // schema that names the table but could not be read may declare one; a try-lock after the
          // check lets one worker through, and so does an insert a unique key refuses on a
          // repeat, between the check and the write. Outside a
          // delivery's handler, a duplicate is worth a finding only when it moves money or grants
          // access.
          if (
            checked.gatedOnly ||
            checked.flag !== undefined ||
            checked.settles !== 'unsettled' ||
            checked.workBefore.length > 0 ||
            checked.storesState ||
            keyRefusesRepeat(checked, analysis) ||
            checked.keyInTransaction() ||
            checked.keysUnknown() ||
            checked.lockedAfterCheck() ||
            checked.refusedBetween ||
            !repeatMatters(checked, analysis) ||
            reported.has(checked.at)
          )
            continue;
          reported.add(checked.at);
          context.report({
            node: checked.at,
            messageId: 'checkThenInsert',
            data: {
              write: write.label,
              read: read.label,
              line: String(read.node.loc.start.line),
              remedy: table.dataAdapter(write.library)?.remedy ?? defaultRemedy,
              origin: originAt(read.node),
              originNote: 'the check is here',
            },
            // A fix edits the write; reported at a helper's call, it would change another place than the one shown.
            suggest:
              checked.at !== write.node
                ? []
                : write.fix
                  ? [{ messageId: editMessages[write.fix.edit], fix: write.fix.apply }]
                  : uniqueKeySuggestion(write, read),
          });
        }
      },
    };

    /** Where the library can say how: catch the violation of a unique key on the checked fields, and name that key. */
    function uniqueKeySuggestion(write: DataOperation, read: DataOperation) {
      const adapter = table.dataAdapter(write.library);
      const uniqueKey = adapter?.uniqueKey;
      const target = write.targets[0];
      if (!uniqueKey || !target) return [];
      // A repair that imports the library's error class only where the file uses that library: a
      // repository call in a file that imports none is the library's by a guess.
      if (uniqueKey.violation.errorClass && !table.imported(adapter, analysis.file.imports)) return [];
      const written = new Set(write.fields.map((field) => columnName(field.name)));
      const fields = (read.filters ?? []).map((filter) => filter.name).filter((name) => written.has(columnName(name)));
      if (fields.length === 0) return [];
      const key = uniqueKey.declare(write, fields, analysis.schema().declaration(target)?.name);
      const fix = catchUniqueViolation(
        write.node,
        uniqueKey.violation,
        key,
        context.sourceCode,
        /\.[cm]?tsx?$/.test(context.filename),
      );
      return fix
        ? [
            {
              messageId: 'catchUniqueViolation' as const,
              data: { key, code: violationLabel(uniqueKey.violation) },
              fix,
            },
          ]
        : [];
    }
  },
});
