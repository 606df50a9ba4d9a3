import type { BrokerAdapter } from '../analysis/index.js';

/**
 * @nestjs/schedule: methods decorated `@Cron(…)` and `@Interval(…)` run on every instance of the
 * service, and a slow run overlaps the next. `@Timeout` runs once after start-up: no repeat.
 */
export const nestjsSchedule: BrokerAdapter = {
  kind: 'broker',
  name: 'nestjs-schedule',
  entry: 'NestJS scheduled method',
  entryKind: 'cron',
  modules: ['@nestjs/schedule'],
  shapes: { tick: { otherMembers: 'opaque' } },
  handlers: [
    { decorators: ['Cron', 'Interval'], byPosition: [], shape: 'nestjs-schedule:tick', evidence: { imports: true } },
  ],
};
