import type { BrokerAdapter } from '../analysis/index.js';

/**
 * fastq, a work queue inside the process: `fastq(worker, concurrency)` and `fastq.promise(…)`
 * run the worker on each task that `push` or `unshift` hands them.
 */
export const fastq: BrokerAdapter = {
  kind: 'broker',
  name: 'fastq',
  entry: 'queue worker',
  entryKind: 'job',
  modules: ['fastq'],
  sends: { instanceMethods: ['push', 'unshift'] },
};
