import type { BrokerAdapter } from '../analysis/index.js';

/**
 * graphile-worker tasks: `async (payload, helpers: JobHelpers) => …`, listed in `run({ taskList })`. The job is locked while it runs and retried with a back-off only
 * after a try failed, so one job never runs beside itself.
 */
export const graphileWorker: BrokerAdapter = {
  kind: 'broker',
  name: 'graphile-worker',
  entry: 'graphile-worker task',
  entryKind: 'job',
  oneRunAtATime: true,
  modules: ['graphile-worker'],
  shapes: {
    helpers: {
      otherMembers: 'opaque',
      members: { job: { shape: 'graphile-worker:job' } },
    },
    job: {
      otherMembers: 'unknown',
      members: {
        id: { identity: 'the graphile-worker job id' },
        attempts: { identity: 'the attempt count' },
        created_at: { identity: 'the time the job was created' },
        run_at: { identity: 'the time the job was due' },
        payload: { shape: 'payload' },
        key: { kind: 'business' },
        task_identifier: { kind: 'unknown' },
        queue_name: { kind: 'unknown' },
      },
    },
  },
  types: [{ type: 'JobHelpers', from: ['graphile-worker'], shape: 'graphile-worker:helpers' }],
  sends: { methods: ['addJob', 'quickAddJob'] },
};
