import type { BrokerAdapter } from '../analysis/index.js';

/**
 * cron: `new CronJob(expression, onTick)`, `CronJob.from({ cronTime, onTick })`. Every instance of
 * the service fires the job, and a slow tick overlaps the next. `onTick` is given the job's
 * `onComplete` callback, nothing to key by.
 */
export const cron: BrokerAdapter = {
  kind: 'broker',
  name: 'cron',
  entry: 'cron job',
  entryKind: 'cron',
  modules: ['cron'],
  shapes: { 'on-complete': { otherMembers: 'opaque' } },
  handlers: [
    // Argument 2 is `onComplete`, run when the job is stopped.
    { construct: 'CronJob', argument: 1, exactly: true, shape: 'cron:on-complete', evidence: { imports: true } },
    { property: 'onTick', inCall: 'from', shape: 'cron:on-complete', evidence: { imports: true } },
    { property: 'onTick', inCall: 'CronJob', shape: 'cron:on-complete', evidence: { imports: true } },
  ],
};
