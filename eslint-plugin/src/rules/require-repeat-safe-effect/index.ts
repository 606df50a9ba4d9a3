import type { TSESTree } from '@typescript-eslint/utils';

import { analysisFor } from '../../lint/file-analysis.js';
import { producerDedupes } from '../../analysis/keys/producer-dedupe.js';
import { createRule } from '../../create-rule.js';
import { entryPointsAtExit } from '../../lint/entry-points.js';
import { readPath } from './path.js';

export const requireRepeatSafeEffect = createRule({
  name: 'require-repeat-safe-effect',
  meta: {
    type: 'problem',
    messages: {
      unguarded:
        'Additive effect with no repeat-safe boundary: this {{entry}} {{does}} with no claim, unique key or idempotency key on the way, so a redelivery {{repeat}}.',
      // A schedule is not redelivered: it runs again (overlapping runs, one run per instance).
      unguardedRun:
        'Additive effect with no repeat-safe boundary: this {{entry}} {{does}} with no claim, unique key or idempotency key on the way, so a second run {{repeat}}.',
    },
    schema: [],
  },
  defaultOptions: [],
  create(context) {
    const analysis = analysisFor(context);
    return entryPointsAtExit(analysis, (found) => {
      const reported = new Set<TSESTree.Node>();
      for (const { fn, entry } of found) {
        if (entry.frameworkDedupes) continue;
        const reading = readPath(fn, analysis);
        const [effect] = reading.effects;
        if (!effect || reading.boundary || reading.unknown || reported.has(effect.node)) continue;
        // Asked last, and only for an effect: it reads the project's files that send to the queue.
        if (producerDedupes(fn, analysis.file)) continue;
        reported.add(effect.node);
        context.report({
          node: effect.node,
          messageId: entry.kind === 'cron' ? 'unguardedRun' : 'unguarded',
          data: { entry: entry.label, does: effect.does, repeat: effect.repeat },
        });
      }
    });
  },
});
