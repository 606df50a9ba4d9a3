import { checkedWrites } from '../lint/checked-writes.js';
import { analysisFor, operationListeners } from '../lint/file-analysis.js';
import { listed, originAt } from '../analysis/keys/key-facts.js';
import { flagMatters, repeatMatters, workBeforeMatters } from '../lint/stakes.js';
import { lateRecords } from '../lint/late-records.js';
import { createRule } from '../create-rule.js';

export const noClaimAfterEffect = createRule({
  name: 'no-claim-after-effect',
  meta: {
    type: 'problem',
    messages: {
      recordAfterWork:
        'Claim recorded after the work: {{write}} records what the check on line {{line}} asked only after {{work}} ran, so a crash or a second worker in between repeats it.',
      protectedButWorkBefore:
        'Work runs before the claim decides: {{work}} runs after the check on line {{line}} and before {{write}} (protected by {{key}}), whether the claim wins or not.',
      flagSetAfterWork:
        "Done-flag set after the work: {{write}} sets '{{flag}}', which the check on line {{line}} tested, only after {{work}} ran, so a crash or a second worker in between repeats it.",
      flagSetWithoutCompare:
        "Done-flag set without a compare-and-set: {{write}} sets '{{flag}}' whatever it holds, so two workers that both passed the check on line {{line}} both run {{work}}; filter the update on the flag and go on only if it changed a row.",
      resultIgnored:
        'Claim result ignored: {{write}} settles duplicates, but nobody reads its result, so the check on line {{line}} still decides.',
      recordOnlyAfterWork:
        'Claim recorded only after the work: {{write}} records the delivery as handled after {{work}} ran, and nothing claims it first, so a redelivery repeats the work.',
      refusedOnlyAfterWork:
        'Claim recorded only after the work: a repeat of {{write}} is refused as a duplicate (its unique violation is caught), but only after {{work}} ran again; claim first, then do the work.',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const analysis = analysisFor(context);
    return {
      ...operationListeners(analysis),
      'Program:exit'() {
        for (const checked of checkedWrites(analysis)) {
          const { write, read, workBefore } = checked;
          const data = {
            write: write.label,
            line: String(read.node.loc.start.line),
            work: listed(workBefore.map((work) => work.label)),
            origin: originAt(read.node),
            originNote: 'the check is here',
          };
          if (checked.flag !== undefined) {
            if (flagMatters(checked, analysis))
              context.report({
                node: checked.lateAt,
                messageId: checked.workAfter ? 'flagSetWithoutCompare' : 'flagSetAfterWork',
                data: {
                  ...data,
                  flag: checked.flag,
                  ...(checked.workAfter ? { work: listed(checked.workAfter.map((work) => work.label)) } : {}),
                },
              });
          } else if (workBefore.length > 0 && !checked.storesState) {
            if (!workBeforeMatters(checked, analysis)) continue;
            const key = checked.settles === 'unsettled' ? checked.coveringKey() : undefined;
            context.report({
              node: checked.lateAt,
              messageId: key ? 'protectedButWorkBefore' : 'recordAfterWork',
              data: { ...data, key: key?.written ?? '' },
            });
          } else if (checked.settles === 'ignored' && checked.guardsOtherWork && repeatMatters(checked, analysis)) {
            context.report({ node: checked.at, messageId: 'resultIgnored', data });
          }
        }
        for (const { write, record, workBefore } of lateRecords(analysis)) {
          context.report({
            node: write.node,
            messageId: record === 'handled' ? 'recordOnlyAfterWork' : 'refusedOnlyAfterWork',
            data: { write: write.label, work: listed(workBefore.map((work) => work.label)) },
          });
        }
      },
    };
  },
});
