import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

const imports = `import { MessageReceiver } from 'ffc-messaging';`;

describe('ffc-messaging adapter', () => {
  it.each([
    [
      "a receiver's action: Service Bus's message id, delivery count and lock token identify the delivery",
      `${imports} const receiver = new MessageReceiver(config, async (message) => { probe(message.messageId); probe(message.deliveryCount); probe(message.lockToken); });`,
      [
        ['delivery:the Service Bus message id'],
        ['delivery:the Service Bus delivery count'],
        ['delivery:the Service Bus lock token'],
      ],
    ],
    [
      'the body is already the payload',
      `${imports} const receiver = new MessageReceiver(config, async (message) => { probe(message.body.referenceId); probe(message.body.cents); });`,
      [['business'], ['amount']],
    ],
    [
      'an action made before the receiver, handed to it by name',
      `${imports} const action = (message) => handle(message.messageId); function handle(id) { probe(id); } const receiver = new MessageReceiver(config, action);`,
      [['delivery:the Service Bus message id']],
    ],
    [
      "near miss: another library's MessageReceiver, in a file without ffc-messaging, is judged by names only",
      `const receiver = new MessageReceiver(config, async (message) => { probe(message.lockToken); });`,
      [['business']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
