import { checkedWrites } from '../lint/checked-writes.js';
import { analysisFor, operationListeners } from '../lint/file-analysis.js';
import { capitalised, listed, originAt } from '../analysis/keys/key-facts.js';
import { createRule } from '../create-rule.js';

export const noClaimAfterEffect = createRule({
  name: 'no-claim-after-effect',
  meta: {
    type: 'problem',
    messages: {
      recordAfterWork:
        '{{write}} records what the check at line {{line}} asked only after {{work}} ran, so a crash or a second worker in between repeats it.',
      protectedButWorkBefore:
        '{{write}} is protected by {{key}}, but {{work}} runs after the check at line {{line}} and before it, whether it wins or not.',
      resultIgnored:
        '{{write}} settles duplicates, but nobody reads its result, so the check at line {{line}} still decides.',
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
          const data = { write: capitalised(write.label), line: String(read.node.loc.start.line), work: listed(workBefore.map((work) => work.label)), origin: originAt(read.node), originNote: 'the check is here' };
          if (workBefore.length > 0 && !checked.storesState) {
            const key = checked.settles === 'unsettled' ? checked.coveringKey() : undefined;
            context.report({ node: checked.at, messageId: key ? 'protectedButWorkBefore' : 'recordAfterWork', data: { ...data, key: key?.written ?? '' } });
          } else if (checked.settles === 'ignored' && checked.guardsOtherWork) {
            context.report({ node: checked.at, messageId: 'resultIgnored', data });
          }
        }
      },
    };
  },
});
