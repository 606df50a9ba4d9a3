import { describe, expect, it } from 'vitest';

import { entryPointsIn, originsIn } from '../support/analyse.js';

const imports = `import Agenda from 'agenda';`;

describe('agenda adapter', () => {
  it.each([
    [
      "define: the job's id and run time are this job's, its data the content",
      `${imports} agenda.define('send invoice', async (job) => { probe(job.attrs._id); probe(job.attrs.lastRunAt); probe(job.attrs.data.invoiceId); });`,
      [['delivery:the Agenda job id'], ['delivery:the time this run started'], ['business']],
    ],
    [
      'define with options before the handler',
      `${imports} agenda.define('charge', { concurrency: 1 }, async (job) => { probe(job.attrs.data.cents); probe(job.attrs.failCount); });`,
      [['amount'], ['delivery:the failure count']],
    ],
    [
      "a parameter typed with Agenda's Job",
      `import { Job } from '@hokify/agenda'; export async function invoice(job: Job) { probe(job.attrs._id); }`,
      [['delivery:the Agenda job id']],
    ],
    [
      "near miss: another library's define, in a file that does not import Agenda, is judged by names only",
      `container.define('x', async (job) => { probe(job.attrs._id); });`,
      [['business']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });

  it.each([
    [
      'define registers a job',
      `${imports} agenda.define('x', async (job) => {});`,
      ['line 1: Agenda job (job, agenda)'],
    ],
    [
      'an agenda receiver without the import',
      `agenda.define('x', async (job) => {});`,
      ['line 1: Agenda job (job, agenda)'],
    ],
    ['near miss: not an Agenda receiver, no import', `container.define('x', async (job) => {});`, []],
  ])('entry points: %s', (_name, code, expected) => {
    expect(entryPointsIn(code)).toEqual(expected);
  });
});
