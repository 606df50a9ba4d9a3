import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('pg-boss adapter', () => {
  it.each([
    [
      'boss.work with one job',
      `await boss.work('send', async (job) => { probe(job.id); probe(job.data.invoiceId); });`,
      [['delivery:the pg-boss job id'], ['business']],
    ],
    [
      'pg-boss 10 hands an array of jobs',
      `import PgBoss from 'pg-boss'; await queue.work('send', async ([job]) => { probe(job.retryCount); });`,
      [['delivery:the retry count']],
    ],
    [
      'work on something that is not pg-boss: its item is judged by name',
      `await pool.work('x', async (item) => { probe(item.attempt); });`,
      [['delivery:named attempt']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
