import type { BrokerAdapter } from '../analysis/index.js';

/**
 * Azure Service Bus (@azure/service-bus): `receiver.subscribe({ processMessage, processError })`
 * and `receiver.receiveMessages(n)`. A received message's id, sequence number, delivery count,
 * lock token and enqueue time identify the delivery; its `body` is already the content.
 */
export const azureServiceBus: BrokerAdapter = {
  kind: 'broker',
  name: 'azure-service-bus',
  entry: 'Service Bus receiver',
  modules: ['@azure/service-bus'],
  shapes: {
    message: {
      otherMembers: 'unknown',
      members: {
        messageId: { identity: 'the Service Bus message id' },
        sequenceNumber: { identity: 'the Service Bus sequence number' },
        enqueuedSequenceNumber: { identity: 'the Service Bus sequence number' },
        deliveryCount: { identity: 'the Service Bus delivery count' },
        lockToken: { identity: 'the Service Bus lock token' },
        enqueuedTimeUtc: { identity: 'the Service Bus enqueue time' },
        lockedUntilUtc: { identity: 'the Service Bus lock expiry' },
        // The SDK decodes the body: it is the content, not raw bytes.
        body: { shape: 'payload' },
        applicationProperties: { shape: 'headers' },
        sessionId: { kind: 'scope' },
        partitionKey: { kind: 'scope' },
        correlationId: { kind: 'unknown' },
        subject: { kind: 'unknown' },
        contentType: { kind: 'unknown' },
      },
    },
    received: { otherMembers: 'opaque', elements: { shape: 'azure-service-bus:message' } },
  },
  handlers: [
    // The receiver is often injected: an import of the SDK or a receiver's name is evidence enough.
    {
      property: 'processMessage',
      inCall: 'subscribe',
      shape: 'azure-service-bus:message',
      evidence: { imports: true, receiver: /receiver/i },
    },
  ],
  types: [{ type: 'ServiceBusReceivedMessage', from: ['@azure/service-bus'], shape: 'azure-service-bus:message' }],
  results: [
    {
      call: 'receiveMessages',
      shape: 'azure-service-bus:received',
      evidence: { imports: true, receiver: /receiver/i },
    },
    {
      call: 'receiveDeferredMessages',
      shape: 'azure-service-bus:received',
      evidence: { imports: true, receiver: /receiver/i },
    },
    { call: 'peekMessages', shape: 'azure-service-bus:received', evidence: { imports: true, receiver: /receiver/i } },
  ],
  sends: { methods: ['sendMessages', 'scheduleMessages'] },
  acknowledges: ['completeMessage', 'abandonMessage', 'deadLetterMessage', 'deferMessage', 'renewMessageLock'],
};
