import { describe, expect, it } from 'vitest';

import { entryPointsIn, originsIn } from '../support/analyse.js';

const imports = `import cron from 'node-cron';`;

describe('node-cron adapter', () => {
  it('the time a run fired is new on every run', () => {
    expect(
      originsIn(`${imports} cron.schedule('*/5 * * * *', async (context) => { probe(context.triggeredAt); });`),
    ).toEqual([['delivery:the time the schedule fired']]);
  });

  it.each([
    [
      'schedule and createTask run crons, with or without a parameter',
      `${imports} cron.schedule('0 * * * *', async () => {});
cron.createTask('0 0 * * *', async (now) => {});
export async function sweep() {}
cron.schedule('0 1 * * *', sweep);`,
      [
        'line 1: node-cron schedule (cron, node-cron)',
        'line 2: node-cron schedule (cron, node-cron)',
        'sweep: node-cron schedule (cron, node-cron)',
      ],
    ],
    [
      "near miss: another library's schedule, in a file that does not import node-cron",
      `scheduler.schedule('0 * * * *', async () => {});`,
      [],
    ],
    ['near miss: the expression is not the function', `${imports} cron.validate('0 * * * *'); [1].map(() => 1);`, []],
  ])('entry points: %s', (_name, code, expected) => {
    expect(entryPointsIn(code)).toEqual(expected);
  });
});
