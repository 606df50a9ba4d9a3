import type { BrokerAdapter } from '../analysis/index.js';

/** kafkajs: `consumer.run({ eachMessage, eachBatch })`. */
export const kafkajs: BrokerAdapter = {
  kind: 'broker',
  name: 'kafkajs',
  modules: ['kafkajs'],
  shapes: {
    message: {
      inherits: 'common:delivery',
      members: {
        offset: { identity: 'the Kafka offset' },
        partition: { identity: 'the Kafka partition' },
        topic: { identity: 'the Kafka topic' },
        timestamp: { identity: 'the Kafka record timestamp' },
        value: { shape: 'body' },
        headers: { shape: 'headers' },
        // A Kafka key is chosen by the producer, usually an entity id shared by many operations.
        key: { kind: 'unknown' },
      },
    },
    'each-message': {
      otherMembers: 'opaque',
      members: {
        message: { shape: 'kafkajs:message' },
        topic: { identity: 'the Kafka topic' },
        partition: { identity: 'the Kafka partition' },
      },
    },
    'each-batch': { otherMembers: 'opaque', members: { batch: { shape: 'kafkajs:batch' } } },
    batch: {
      otherMembers: 'opaque',
      members: {
        messages: { listOf: 'kafkajs:message' },
        topic: { identity: 'the Kafka topic' },
        partition: { identity: 'the Kafka partition' },
        firstOffset: { identity: 'a Kafka offset' },
        lastOffset: { identity: 'a Kafka offset' },
        highWatermark: { identity: 'a Kafka offset' },
      },
    },
  },
  handlers: [
    { property: 'eachMessage', shape: 'kafkajs:each-message' },
    { property: 'eachBatch', shape: 'kafkajs:each-batch' },
  ],
  types: [
    { type: 'KafkaMessage', shape: 'kafkajs:message' },
    { type: 'EachMessagePayload', shape: 'kafkajs:each-message' },
    { type: 'EachBatchPayload', shape: 'kafkajs:each-batch' },
    { type: 'Batch', shape: 'kafkajs:batch' },
  ],
  sends: { receiverMethods: [{ method: 'send', receiver: /producer/i }] },
  acknowledges: ['commitOffsets', 'resolveOffset'],
  nameWords: ['kafka'],
};
