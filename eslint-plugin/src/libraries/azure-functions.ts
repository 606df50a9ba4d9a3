import type { BrokerAdapter, HandlerPattern } from '../analysis/index.js';

/**
 * Azure Functions, the Node.js programming model of version 4 (@azure/functions): a trigger is
 * registered on `app` with an options object whose `handler` takes what triggered it and an
 * `InvocationContext`, `app.storageQueue(name, { queueName, handler: async (item, context) => … })`.
 * A queue item, a Service Bus or Event Hubs message, an Event Grid event and the documents of a
 * Cosmos DB change feed are handed over already decoded: the content. A queue delivery is tried up
 * to five times, a Service Bus one until its delivery count runs out, and a change feed or an event
 * hub is read again from the last checkpoint after a restart. The context's `triggerMetadata`
 * carries what the service assigned to this delivery (the queue message id, its dequeue count, the
 * Service Bus message id and sequence number), and its `invocationId` is new on every run. A timer
 * fires on every instance that misses its lease and again when a run is past due: a schedule.
 */

/** The triggers whose handler is given a delivery: the content first, the invocation's context second. */
const triggers = ['storageQueue', 'serviceBusQueue', 'serviceBusTopic', 'eventHub', 'eventGrid', 'cosmosDB'];

const handlers: HandlerPattern[] = triggers.flatMap((trigger): HandlerPattern[] => [
  { property: 'handler', inCall: trigger, shape: 'azure-functions:item', evidence: { imports: true } },
  {
    property: 'handler',
    inCall: trigger,
    parameter: 1,
    shape: 'azure-functions:context',
    evidence: { imports: true },
  },
]);

export const azureFunctions: BrokerAdapter = {
  kind: 'broker',
  name: 'azure-functions',
  entry: 'Azure Functions trigger',
  modules: ['@azure/functions'],
  shapes: {
    // The item, message, event or documents the trigger hands over, decoded.
    item: { otherMembers: 'payload' },
    context: {
      otherMembers: 'opaque',
      members: {
        invocationId: { identity: 'the Azure Functions invocation id' },
        triggerMetadata: { shape: 'azure-functions:trigger-metadata' },
      },
    },
    'trigger-metadata': {
      otherMembers: 'unknown',
      members: {
        id: { identity: 'the queue message id' },
        dequeueCount: { identity: 'the queue dequeue count' },
        popReceipt: { identity: 'the queue pop receipt' },
        insertionTime: { identity: 'the queue insertion time' },
        nextVisibleTime: { identity: 'the queue next visible time' },
        messageId: { identity: 'the Service Bus message id' },
        deliveryCount: { identity: 'the Service Bus delivery count' },
        sequenceNumber: { identity: 'the sequence number' },
        lockToken: { identity: 'the Service Bus lock token' },
        enqueuedTimeUtc: { identity: 'the enqueue time' },
        offset: { identity: 'the Event Hubs offset' },
        partitionContext: { kind: 'scope' },
      },
    },
    timer: {
      otherMembers: 'unknown',
      entry: { label: 'Azure Functions timer', kind: 'cron' },
      members: { isPastDue: { kind: 'unknown' }, scheduleStatus: { kind: 'unknown' } },
    },
  },
  handlers: [
    ...handlers,
    { property: 'handler', inCall: 'timer', shape: 'azure-functions:timer', evidence: { imports: true } },
  ],
};
