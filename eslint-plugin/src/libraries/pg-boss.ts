import type { BrokerAdapter } from '../analysis/index.js';

/** pg-boss: `boss.work(name, handler)`; version 10 hands the handler an array of jobs. */
export const pgBoss: BrokerAdapter = {
  kind: 'broker',
  name: 'pg-boss',
  entry: 'pg-boss worker',
  entryKind: 'job',
  modules: ['pg-boss'],
  shapes: {
    job: {
      inherits: 'common:delivery',
      members: {
        id: { identity: 'the pg-boss job id' },
        retryCount: { identity: 'the retry count' },
        data: { shape: 'payload' },
        name: { kind: 'unknown' },
      },
    },
  },
  handlers: [
    {
      call: 'work',
      argument: 1,
      shape: 'pg-boss:job',
      listWhenPlural: true,
      evidence: { imports: true, receiver: /boss/i },
    },
  ],
  types: [
    { type: 'Message', from: ['pg-boss'], shape: 'pg-boss:job' },
    { type: 'JobWithMetadata', from: ['pg-boss'], shape: 'pg-boss:job' },
  ],
  sends: { receiverMethods: [{ method: 'send', receiver: /boss/i }] },
};
