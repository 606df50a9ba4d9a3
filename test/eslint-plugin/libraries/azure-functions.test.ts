import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

const app = `import { app } from '@azure/functions';`;

describe('azure-functions adapter', () => {
  it.each([
    [
      "a storage queue trigger: the context's queue message id and dequeue count identify the delivery",
      `${app} app.storageQueue('refunds', { queueName: 'refunds', connection: 'Storage', handler: async (item, context) => { probe(context.triggerMetadata.id); probe(context.triggerMetadata.dequeueCount); } });`,
      [['delivery:the queue message id'], ['delivery:the queue dequeue count']],
    ],
    [
      'the invocation id is new on every run',
      `${app} app.serviceBusQueue('orders', { queueName: 'orders', connection: 'Bus', handler: async (message, context) => { probe(context.invocationId); } });`,
      [['delivery:the Azure Functions invocation id']],
    ],
    [
      "a Service Bus trigger's message id",
      `${app} app.serviceBusTopic('events', { topicName: 't', subscriptionName: 's', connection: 'Bus', handler: async (message, context) => { probe(context.triggerMetadata.messageId); } });`,
      [['delivery:the Service Bus message id']],
    ],
    [
      'the item is the content, decoded',
      `${app} app.storageQueue('refunds', { queueName: 'refunds', connection: 'Storage', handler: async (item) => { probe(item.refundId); } });`,
      [['business']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });

  it("near miss: another module's app.storageQueue hands no delivery: its context's id is judged by its name only", () => {
    const [facts] = originsIn(
      `import { app } from './my-app'; app.storageQueue('refunds', { handler: async (item, context) => { probe(context.triggerMetadata.id); } });`,
    );
    expect(facts).not.toContain('delivery:the queue message id');
    expect(facts).toHaveLength(1);
  });
});
