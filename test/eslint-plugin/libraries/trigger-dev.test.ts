import { describe, expect, it } from 'vitest';

import { entryPointsIn, originsIn } from '../support/analyse.js';

const v3 = `import { task, schemaTask, schedules } from '@trigger.dev/sdk/v3';`;
const v4 = `import { task, schedules } from '@trigger.dev/sdk';`;

describe('trigger-dev adapter', () => {
  it.each([
    [
      'task: the run and the attempt are made for this execution, the payload is content',
      `${v3} export const refund = task({ id: 'refund', run: async (payload, { ctx }) => { probe(ctx.run.id); probe(ctx.attempt.id); probe(ctx.attempt.number); probe(payload.refundId); } });`,
      [
        ['delivery:the trigger.dev run id'],
        ['delivery:the trigger.dev attempt id'],
        ['delivery:the trigger.dev attempt number'],
        ['business'],
      ],
    ],
    [
      "the run's idempotency key is the caller's choice",
      `${v4} export const t = task({ id: 't', run: async (payload: { orderId: string }, { ctx }) => { probe(ctx.run.idempotencyKey); } });`,
      [['business']],
    ],
    [
      'schemaTask, with the context kept whole',
      `${v3} export const t = schemaTask({ id: 't', schema, run: async (payload, options) => { probe(options.ctx.run.id); probe(payload.cents); } });`,
      [['delivery:the trigger.dev run id'], ['amount']],
    ],
    [
      "a scheduled task: the tick's due time and the schedule id",
      `${v4} export const sweep = schedules.task({ id: 'sweep', cron: '0 * * * *', run: async (payload, { ctx }) => { probe(payload.timestamp); probe(payload.scheduleId); probe(ctx.attempt.id); } });`,
      [['time'], ['business'], ['delivery:the trigger.dev attempt id']],
    ],
    [
      'version 2: defineJob, the event id and run id in the third parameter',
      `import { TriggerClient, eventTrigger } from '@trigger.dev/sdk'; client.defineJob({ id: 'j', trigger: eventTrigger({ name: 'x' }), run: async (payload, io, ctx) => { probe(ctx.event.id); probe(ctx.run.id); probe(payload.invoiceId); } });`,
      [['delivery:the trigger.dev event id'], ['delivery:the trigger.dev run id'], ['business']],
    ],
    [
      'a run function declared apart and given by its name',
      `${v4} async function run(payload, { ctx }) { probe(ctx.attempt.number); probe(payload.orderId); } export const t = task({ id: 't', run });`,
      [['delivery:the trigger.dev attempt number'], ['business']],
    ],
    [
      "near miss: another library's task({ run }), in a file that does not import the SDK, is judged by names only",
      `export const t = task({ id: 't', run: async (payload, { ctx }) => { probe(ctx.run.id); } });`,
      [['business']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });

  it.each([
    [
      'task and schemaTask are jobs, a scheduled task is a cron',
      `${v3} export const a = task({ id: 'a', run: async (payload) => {} });
export const b = schemaTask({ id: 'b', schema, run: async () => {} });
export const c = schedules.task({ id: 'c', cron: '0 * * * *', run: async () => {} });`,
      [
        'run: trigger.dev task (job, trigger-dev)',
        'run: trigger.dev task (job, trigger-dev)',
        'run: trigger.dev scheduled task (cron, trigger-dev)',
      ],
    ],
    [
      'a version 2 job',
      `import { TriggerClient } from '@trigger.dev/sdk'; client.defineJob({ id: 'j', trigger, run: async (payload, io, ctx) => {} });`,
      ['run: trigger.dev task (job, trigger-dev)'],
    ],
    [
      'near miss: without the SDK, neither is an entry point',
      `export const a = task({ id: 'a', run: async (payload) => {} }); client.defineJob({ id: 'j', run: async () => {} });`,
      [],
    ],
  ])('entry points: %s', (_name, code, expected) => {
    expect(entryPointsIn(code)).toEqual(expected);
  });
});
