import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('bullmq adapter', () => {
  it.each([
    [
      'new Worker: the job id and attempts identify the delivery',
      `new Worker('payouts', async (job) => { probe(job.id); probe(job.attemptsMade); });`,
      [['delivery:the job id'], ['delivery:the attempt count']],
    ],
    [
      'the job data is the payload',
      `new Worker('payouts', async (job) => { probe(job.data.payoutId); });`,
      [['business']],
    ],
    [
      'queue.process in a file that imports Bull',
      `import Queue from 'bull'; queue.process(async (task) => { probe(task.opts.jobId); });`,
      [['delivery:the job id']],
    ],
    [
      'process with no Bull import and no job-like parameter is not a handler: its token is judged by name',
      `emitter.process(async (task) => { probe(task.token); });`,
      [['business']],
    ],
    [
      "a @Processor class's process method",
      `@Processor('q') class P extends WorkerHost { async process(work) { probe(work.token); } }`,
      [['delivery:the worker lock token']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
