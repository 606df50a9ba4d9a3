import type { BrokerAdapter } from '../analysis/index.js';

/**
 * better-queue, a job queue inside the process: `new Queue(worker)` runs the worker on each task
 * that `push` hands it, so a push is the work itself, done later.
 */
export const betterQueue: BrokerAdapter = {
  kind: 'broker',
  name: 'better-queue',
  entry: 'queue worker',
  entryKind: 'job',
  modules: ['better-queue'],
  sends: { instanceMethods: ['push'] },
};
