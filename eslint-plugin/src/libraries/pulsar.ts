import type { BrokerAdapter } from '../analysis/index.js';

/**
 * Apache Pulsar (pulsar-client): `consumer.receive()` and `batchReceive()`, and the `listener` of
 * `client.subscribe({ … })`. A Pulsar message is read through methods: its message id and
 * redelivery count identify the delivery, its data is the body, its properties the producer's.
 */
export const pulsar: BrokerAdapter = {
  kind: 'broker',
  name: 'pulsar',
  modules: ['pulsar-client'],
  shapes: {
    message: {
      otherMembers: 'opaque',
      methods: {
        getMessageId: { identity: 'the Pulsar message id' },
        getRedeliveryCount: { identity: 'the Pulsar redelivery count' },
        getPublishTimestamp: { identity: 'the Pulsar publish time' },
        getData: { shape: 'body' },
        getProperties: { shape: 'headers' },
        // Set by the producer, shared by every message about the same entity.
        getPartitionKey: { kind: 'unknown' },
        getOrderingKey: { kind: 'unknown' },
        getEventTimestamp: { kind: 'unknown' },
        getTopicName: { kind: 'unknown' },
      },
    },
    consumer: {
      otherMembers: 'opaque',
      methods: { receive: { shape: 'pulsar:message' }, batchReceive: { listOf: 'pulsar:message' } },
    },
    batch: { otherMembers: 'opaque', elements: { shape: 'pulsar:message' } },
  },
  handlers: [
    // client.subscribe({ topic, subscription, listener: (msg, consumer) => … })
    { property: 'listener', inCall: 'subscribe', shape: 'pulsar:message', evidence: { imports: true } },
    { property: 'listener', inCall: 'subscribe', parameter: 1, shape: 'pulsar:consumer', evidence: { imports: true } },
  ],
  types: [
    { type: 'Message', from: ['pulsar-client'], shape: 'pulsar:message' },
    { type: 'Consumer', from: ['pulsar-client'], shape: 'pulsar:consumer' },
  ],
  // `receive` is a common name: only in files that import the client.
  results: [
    { call: 'subscribe', shape: 'pulsar:consumer', evidence: { imports: true } },
    { call: 'receive', shape: 'pulsar:message', evidence: { imports: true } },
    { call: 'batchReceive', shape: 'pulsar:batch', evidence: { imports: true } },
  ],
  acknowledges: ['acknowledge', 'acknowledgeId', 'acknowledgeCumulative', 'negativeAcknowledge'],
  nameWords: ['pulsar'],
};
