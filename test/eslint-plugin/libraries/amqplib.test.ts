import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('amqplib adapter', () => {
  it.each([
    [
      'consume: the AMQP message id and delivery tag identify the delivery',
      `channel.consume('q', async (msg) => { probe(msg.properties.messageId); probe(msg.fields.deliveryTag); });`,
      [['delivery:the AMQP message id'], ['delivery:the AMQP delivery tag']],
    ],
    [
      'consume: producer headers are judged by their names',
      `channel.consume('q', async (msg) => { probe(msg.properties.headers.refundId); });`,
      [['business']],
    ],
    [
      'the routing key says nothing certain',
      `channel.consume('q', async (msg) => { probe(msg.fields.routingKey); });`,
      [['unknown']],
    ],
    [
      'a typed ConsumeMessage',
      `import type { ConsumeMessage } from 'amqplib'; function on(m: ConsumeMessage) { probe(m.fields.redelivered); }`,
      [['delivery:the redelivered flag']],
    ],
    [
      'Message counts only when imported from amqplib',
      `import type { Message } from './mail'; function on(m: Message) { probe(m.properties); }`,
      [['unknown']],
    ],
    [
      '@RabbitSubscribe: the payload first, the raw message second',
      `class C { @RabbitSubscribe({ queue: 'q' }) async on(body: unknown, amqpMsg: unknown) { probe(body.saleId); probe(amqpMsg.properties.correlationId); } }`,
      [['business'], ['delivery:the AMQP correlation id']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
