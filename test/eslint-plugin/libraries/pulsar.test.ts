import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

const imports = `import Pulsar from 'pulsar-client';`;

describe('pulsar adapter', () => {
  it.each([
    [
      'receive(): the message id and redelivery count identify the delivery',
      `${imports} const msg = await consumer.receive(); probe(msg.getMessageId().toString()); probe(msg.getRedeliveryCount());`,
      [['delivery:the Pulsar message id'], ['delivery:the Pulsar redelivery count']],
    ],
    [
      'a consumer subscribed in the file',
      `${imports} const consumer = await client.subscribe({ topic: 't', subscription: 's' }); const m = await consumer.receive(); probe(m.getMessageId());`,
      [['delivery:the Pulsar message id']],
    ],
    [
      'the parsed data is the payload',
      `${imports} const msg = await consumer.receive(); probe(JSON.parse(msg.getData().toString()).refundId);`,
      [['business']],
    ],
    [
      "properties are the producer's, judged by names",
      `${imports} const msg = await consumer.receive(); probe(msg.getProperties().orderId);`,
      [['business']],
    ],
    [
      "the partition key is the producer's",
      `${imports} const msg = await consumer.receive(); probe(msg.getPartitionKey());`,
      [['unknown']],
    ],
    [
      "a subscribe listener's message, and its consumer",
      `${imports} await client.subscribe({ topic: 't', subscription: 's', listener: (msg, c) => { probe(msg.getMessageId()); c.acknowledge(msg); } });`,
      [['delivery:the Pulsar message id']],
    ],
    [
      'batchReceive(): each message',
      `${imports} const batch = await consumer.batchReceive(); for (const m of batch) probe(m.getRedeliveryCount());`,
      [['delivery:the Pulsar redelivery count']],
    ],
    [
      'a typed message parameter',
      `import type { Message } from 'pulsar-client'; function handle(m: Message) { probe(m.getMessageId()); }`,
      [['delivery:the Pulsar message id']],
    ],
    [
      'near miss: receive() in a file without Pulsar is not a message',
      `const msg = await socket.receive(); probe(msg.getMessageId());`,
      [['unknown']],
    ],
    [
      'near miss: a listener outside subscribe is not a handler',
      `${imports} emitter.configure({ listener: (evt) => { probe(evt.getRedeliveryCount()); } });`,
      [['unknown']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
