import type { BrokerAdapter } from '../analysis/index.js';

/**
 * trigger.dev tasks. Version 3 and 4: `task({ id, run: async (payload, { ctx }) => … })`,
 * `schemaTask(…)`, and `schedules.task({ id, cron, run })`, whose runs are a schedule's.
 * Version 2: `client.defineJob({ id, trigger, run: async (payload, io, ctx) => … })`.
 * The run and its attempts are made for this execution: a key from their ids is new whenever the
 * task is triggered again, and the attempt's on every retry. The payload is the caller's content;
 * the run's own idempotency key is the one the caller chose.
 */
export const triggerDev: BrokerAdapter = {
  kind: 'broker',
  name: 'trigger-dev',
  entry: 'trigger.dev task',
  entryKind: 'job',
  oneRunAtATime: true,
  modules: ['@trigger.dev/sdk', /^@trigger\.dev\/sdk\//],
  shapes: {
    payload: { otherMembers: 'payload' },
    // A scheduled task's payload: when this tick was due, and which schedule it belongs to.
    schedule: {
      otherMembers: 'unknown',
      entry: { label: 'trigger.dev scheduled task', kind: 'cron' },
      members: {
        timestamp: { kind: 'time' },
        lastTimestamp: { kind: 'time' },
        scheduleId: { kind: 'business' },
        externalId: { kind: 'scope' },
        timezone: { kind: 'unknown' },
        upcoming: { kind: 'unknown' },
      },
    },
    // The second argument of `run`: `{ ctx, signal, init }`.
    options: { otherMembers: 'opaque', members: { ctx: { shape: 'trigger-dev:context' } } },
    context: {
      otherMembers: 'opaque',
      members: {
        run: { shape: 'trigger-dev:run' },
        attempt: { shape: 'trigger-dev:attempt' },
        batch: { shape: 'trigger-dev:batch' },
      },
    },
    run: {
      otherMembers: 'unknown',
      members: {
        id: { identity: 'the trigger.dev run id' },
        createdAt: { identity: 'the time the run was created' },
        startedAt: { identity: 'the time the run started' },
        idempotencyKey: { kind: 'business' },
      },
    },
    attempt: {
      otherMembers: 'unknown',
      members: {
        id: { identity: 'the trigger.dev attempt id' },
        number: { identity: 'the trigger.dev attempt number' },
        startedAt: { identity: 'the time the attempt started' },
      },
    },
    batch: { otherMembers: 'unknown', members: { id: { identity: 'the trigger.dev batch id' } } },
    // Version 2: `run(payload, io, ctx)`; the event that triggered the job has its own id.
    'v2-context': {
      otherMembers: 'opaque',
      members: { run: { shape: 'trigger-dev:v2-run' }, event: { shape: 'trigger-dev:v2-event' } },
    },
    'v2-run': {
      otherMembers: 'unknown',
      members: {
        id: { identity: 'the trigger.dev run id' },
        startedAt: { identity: 'the time the run started' },
        isRetry: { identity: 'whether the run is a retry' },
      },
    },
    'v2-event': {
      otherMembers: 'unknown',
      members: {
        id: { identity: 'the trigger.dev event id' },
        timestamp: { identity: 'the trigger.dev event time' },
        name: { kind: 'unknown' },
      },
    },
    io: { otherMembers: 'opaque' },
  },
  // `run` of the object handed to `task`: in a file that imports the SDK (another library's
  // `task({ run })` is not this one). A schedule's task is listed first, so that its payload is a tick's.
  handlers: [
    { property: 'run', inCall: 'task', shape: 'trigger-dev:schedule', evidence: { receiver: /^schedules$/ } },
    {
      property: 'run',
      inCall: 'task',
      parameter: 1,
      shape: 'trigger-dev:options',
      evidence: { receiver: /^schedules$/ },
    },
    { property: 'run', inCall: 'task', shape: 'trigger-dev:payload', evidence: { imports: true } },
    { property: 'run', inCall: 'task', parameter: 1, shape: 'trigger-dev:options', evidence: { imports: true } },
    { property: 'run', inCall: 'schemaTask', shape: 'trigger-dev:payload', evidence: { imports: true } },
    { property: 'run', inCall: 'schemaTask', parameter: 1, shape: 'trigger-dev:options', evidence: { imports: true } },
    { property: 'run', inCall: 'defineJob', shape: 'trigger-dev:payload', evidence: { imports: true } },
    { property: 'run', inCall: 'defineJob', parameter: 1, shape: 'trigger-dev:io', evidence: { imports: true } },
    {
      property: 'run',
      inCall: 'defineJob',
      parameter: 2,
      shape: 'trigger-dev:v2-context',
      evidence: { imports: true },
    },
  ],
};
