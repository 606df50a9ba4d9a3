import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

const imports = `import { ServiceBusClient } from '@azure/service-bus';`;

describe('azure-service-bus adapter', () => {
  it.each([
    [
      'processMessage: message id, sequence number, delivery count, lock token',
      `${imports} receiver.subscribe({ processMessage: async (message) => { probe(message.messageId); probe(message.sequenceNumber.toString()); probe(message.deliveryCount); probe(message.lockToken); }, processError: async () => {} });`,
      [
        ['delivery:the Service Bus message id'],
        ['delivery:the Service Bus sequence number'],
        ['delivery:the Service Bus delivery count'],
        ['delivery:the Service Bus lock token'],
      ],
    ],
    [
      'the body is already the payload',
      `${imports} receiver.subscribe({ processMessage: async (m) => { probe(m.body.refundId); probe(m.body.cents); } });`,
      [['business'], ['amount']],
    ],
    [
      "application properties are the producer's",
      `${imports} receiver.subscribe({ processMessage: async (m) => { probe(m.applicationProperties.orderId); } });`,
      [['business']],
    ],
    [
      'a session id scopes the message',
      `${imports} receiver.subscribe({ processMessage: async (m) => { probe(m.sessionId); } });`,
      [['scope']],
    ],
    [
      'receiveMessages(): each message',
      `${imports} const messages = await receiver.receiveMessages(10); for (const m of messages) probe(m.enqueuedTimeUtc);`,
      [['delivery:the Service Bus enqueue time']],
    ],
    [
      'an injected receiver, without the import',
      `class Worker { start() { this.receiver.subscribe({ processMessage: async (m) => { probe(m.deliveryCount); } }); } }`,
      [['delivery:the Service Bus delivery count']],
    ],
    [
      'a typed received message',
      `import type { ServiceBusReceivedMessage } from '@azure/service-bus'; async function handle(m: ServiceBusReceivedMessage) { probe(m.lockToken); }`,
      [['delivery:the Service Bus lock token']],
    ],
    [
      "near miss: processMessage of another library's subscribe is judged by names only",
      `pipeline.subscribe({ processMessage: async (item) => { probe(item.deliveryCount); probe(item.lockToken); } });`,
      [['delivery:named deliveryCount'], ['business']],
    ],
    [
      'near miss: receiveMessages of something that is not a receiver, in a file without the SDK',
      `const messages = await inbox.receiveMessages(); for (const m of messages) probe(m.lockToken);`,
      [['business']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
