import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('nestjs adapter', () => {
  it.each([
    [
      '@EventPattern with @Payload and a Kafka context',
      `class C { @EventPattern('refunds') async on(@Payload() data: any, @Ctx() context: KafkaContext) { probe(data.refundId); probe(context.getMessage().offset); probe(context.getPartition()); } }`,
      [['business'], ['delivery:the Kafka offset'], ['delivery:the Kafka partition']],
    ],
    [
      'a RabbitMQ context',
      `class C { @MessagePattern('x') async on(data, @Ctx() context: RmqContext) { probe(context.getMessage().properties.messageId); } }`,
      [['delivery:the AMQP message id']],
    ],
    [
      'positions without decorators: payload, then context',
      `class C { @EventPattern('x') async on(data, context) { probe(data.saleId); probe(context.getMessage().id); } }`,
      [['business'], ["delivery:the message's delivery id"]],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
