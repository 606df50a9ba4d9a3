import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('kafkajs adapter', () => {
  it.each([
    [
      'eachMessage: the offset and the topic identify the delivery',
      `consumer.run({ eachMessage: async ({ topic, message }) => { probe(message.offset); probe(topic); } });`,
      [['delivery:the Kafka offset'], ['delivery:the Kafka topic']],
    ],
    [
      'eachMessage: the parsed value is the payload, judged by names',
      `consumer.run({ eachMessage: async ({ message }) => { const refund = JSON.parse(message.value.toString()); probe(refund.refundId); probe(refund.cents); } });`,
      [['business'], ['amount']],
    ],
    [
      'eachBatch: every message of the batch is a delivery',
      `consumer.run({ eachBatch: async ({ batch }) => { for (const m of batch.messages) probe(m.offset); } });`,
      [['delivery:the Kafka offset']],
    ],
    [
      'a typed message parameter, however it is registered',
      `import type { KafkaMessage } from 'kafkajs'; async function handle(m: KafkaMessage) { probe(m.partition); }`,
      [['delivery:the Kafka partition']],
    ],
    [
      "the key is the producer's choice, not a delivery identity",
      `consumer.run({ eachMessage: async ({ message }) => { probe(message.key); } });`,
      [['unknown']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
