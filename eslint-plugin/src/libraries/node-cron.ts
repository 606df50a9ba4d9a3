import type { BrokerAdapter } from '../analysis/index.js';

/**
 * node-cron: `cron.schedule(expression, fn)` and `cron.createTask(expression, fn)`. Every instance
 * of the service fires the schedule, and a slow run overlaps the next: a run repeats by itself.
 * The function is given the time it fired (version 4: a context with it), new on every run.
 */
export const nodeCron: BrokerAdapter = {
  kind: 'broker',
  name: 'node-cron',
  entry: 'node-cron schedule',
  entryKind: 'cron',
  modules: ['node-cron'],
  shapes: {
    tick: {
      otherMembers: 'unknown',
      members: {
        date: { identity: 'the time the schedule fired' },
        dateLocalIso: { identity: 'the time the schedule fired' },
        triggeredAt: { identity: 'the time the schedule fired' },
      },
    },
  },
  // In a file that imports node-cron: `schedule` is a common name.
  handlers: [
    { call: 'schedule', argument: 1, shape: 'node-cron:tick', evidence: { imports: true } },
    { call: 'createTask', argument: 1, shape: 'node-cron:tick', evidence: { imports: true } },
  ],
};
