import type { BrokerAdapter } from '../analysis/index.js';

/**
 * Agenda (and @hokify/agenda): `agenda.define(name, async (job) => …)`, with options before the
 * handler or not. A job is a row Agenda stores; its `_id` names that job, so a key from it is new
 * for each job scheduled, and the run times are this run's.
 */
export const agenda: BrokerAdapter = {
  kind: 'broker',
  name: 'agenda',
  entry: 'Agenda job',
  entryKind: 'job',
  modules: ['agenda', '@hokify/agenda'],
  shapes: {
    job: {
      otherMembers: 'opaque',
      members: { attrs: { shape: 'agenda:attributes' } },
    },
    attributes: {
      otherMembers: 'unknown',
      members: {
        _id: { identity: 'the Agenda job id' },
        lastRunAt: { identity: 'the time this run started' },
        lastFinishedAt: { identity: 'the time the last run finished' },
        nextRunAt: { identity: 'the time the job runs next' },
        failCount: { identity: 'the failure count' },
        lockedAt: { identity: 'the time the job was locked' },
        data: { shape: 'payload' },
        name: { kind: 'unknown' },
      },
    },
  },
  // `define` is a common name: in a file that imports Agenda, or on a receiver named so.
  handlers: [{ call: 'define', argument: 1, shape: 'agenda:job', evidence: { imports: true, receiver: /agenda/i } }],
  types: [{ type: 'Job', from: ['agenda', '@hokify/agenda'], shape: 'agenda:job' }],
};
