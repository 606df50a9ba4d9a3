import { describe, expect, it } from 'vitest';

import { entryPointsIn, originsIn } from '../support/analyse.js';

const imports = `import { CronJob } from 'cron';`;

describe('cron adapter', () => {
  it('onTick is given nothing to key by', () => {
    expect(originsIn(`${imports} new CronJob('* * * * *', async (onComplete) => { probe(onComplete.id); });`)).toEqual([
      ['unknown'],
    ]);
  });

  it.each([
    [
      'new CronJob(expression, onTick), CronJob.from({ onTick }) and new CronJob({ onTick })',
      `${imports} new CronJob('0 * * * *', async () => {});
CronJob.from({ cronTime: '0 0 * * *', onTick: async () => {} });
new CronJob({ cronTime: '0 0 * * *', onTick: async function tick() {} });`,
      ['line 1: cron job (cron, cron)', 'onTick: cron job (cron, cron)', 'tick: cron job (cron, cron)'],
    ],
    [
      "near miss: another library's from({ onTick }), in a file that does not import cron",
      `Timer.from({ onTick: async () => {} }); new CronJob('* * * * *', async () => {});`,
      [],
    ],
    [
      'near miss: the onComplete callback runs when the job stops, not on schedule',
      `${imports} new CronJob('* * * * *', null, async () => {});`,
      [],
    ],
  ])('entry points: %s', (_name, code, expected) => {
    expect(entryPointsIn(code)).toEqual(expected);
  });
});
