import { describe, expect, it } from 'vitest';

import { entryPointsIn } from '../support/analyse.js';

const imports = `import { Injectable } from '@nestjs/common'; import { Cron, CronExpression, Interval, Timeout } from '@nestjs/schedule';`;

describe('nestjs-schedule adapter', () => {
  it.each([
    [
      '@Cron and @Interval methods are crons; @Timeout runs once and is not',
      `${imports}
@Injectable()
export class Billing {
  @Cron(CronExpression.EVERY_HOUR) async invoice() {}
  @Interval('reconcile', 60000) async reconcile() {}
  @Timeout(5000) async warmUp() {}
  async helper() {}
}`,
      [
        'invoice: NestJS scheduled method (cron, nestjs-schedule)',
        'reconcile: NestJS scheduled method (cron, nestjs-schedule)',
      ],
    ],
    [
      "near miss: another library's @Cron, in a file that does not import @nestjs/schedule",
      `import { Cron } from './my-decorators'; export class Billing { @Cron('0 * * * *') async invoice() {} }`,
      [],
    ],
  ])('entry points: %s', (_name, code, expected) => {
    expect(entryPointsIn(code)).toEqual(expected);
  });
});
