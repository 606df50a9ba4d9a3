import type { BrokerAdapter } from '../analysis/index.js';

/** Google Cloud Pub/Sub: `subscription.on('message', handler)`. */
export const googlePubsub: BrokerAdapter = {
  kind: 'broker',
  name: 'google-pubsub',
  entry: 'Pub/Sub subscriber',
  modules: ['@google-cloud/pubsub'],
  shapes: {
    message: {
      inherits: 'common:delivery',
      members: {
        id: { identity: 'the Pub/Sub message id' },
        ackId: { identity: 'the Pub/Sub ack id' },
        deliveryAttempt: { identity: 'the delivery attempt' },
        publishTime: { identity: 'the publish time' },
        data: { shape: 'body' },
        attributes: { shape: 'headers' },
        orderingKey: { kind: 'unknown' },
      },
    },
  },
  handlers: [
    { call: 'on', argument: 1, event: 'message', shape: 'google-pubsub:message', evidence: { imports: true } },
  ],
  types: [
    { type: 'Message', from: ['@google-cloud/pubsub'], shape: 'google-pubsub:message' },
    { type: 'JobWithMetadata', from: ['@google-cloud/pubsub'], shape: 'google-pubsub:message' },
  ],
  acknowledges: ['ack', 'nack'],
  nameWords: ['pubsub'],
};
