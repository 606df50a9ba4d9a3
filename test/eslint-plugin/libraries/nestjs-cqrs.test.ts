import { noClaimAfterEffect } from '../../../eslint-plugin/src/rules/no-claim-after-effect.js';
import { ruleTester } from '../rule-tester.js';

/** A RabbitMQ consumer that checks its inbox, hands the event to a bus, keeps the answer, then records the event. */
const consumer = (bus: string, message: string) => `
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { ConsumeMessage } from 'amqplib';
export class ExerciseConsumer {
  constructor(private readonly prisma: any, private readonly ${bus}: ${bus === 'commandBus' ? 'CommandBus' : 'QueryBus'}) {}
  async handleMessage(msg: ConsumeMessage) {
    const { eventId, payload } = JSON.parse(msg.content.toString());
    const existing = await this.prisma.processedEvent.findUnique({ where: { eventId } });
    if (existing) return;
    const result = await this.${bus}.execute(new ${message}(payload.userId, payload.exerciseId));
    if (result.isFail) console.warn('failed');
    await this.prisma.processedEvent.create({ data: { eventId } });
  }
}
`;

ruleTester.run('no-claim-after-effect', noClaimAfterEffect, {
  valid: [
    {
      name: 'near miss: a query on the query bus only asks',
      code: consumer('queryBus', 'GetProgressQuery'),
    },
  ],
  invalid: [
    {
      name: 'a command dispatched on the command bus is work, its answer kept or not',
      code: consumer('commandBus', 'RecordAttemptCommand'),
      errors: [
        {
          messageId: 'recordAfterWork',
          data: { write: 'this.prisma.processedEvent.create()', line: 8, work: 'this.commandBus.execute()' },
          line: 12,
        },
      ],
    },
  ],
});
