import type { BrokerAdapter } from '../analysis/index.js';

/**
 * NATS and JetStream (nats, @nats-io/*): `nc.subscribe(subject, { callback })` and
 * `for await (const m of sub)`; JetStream's `consumer.consume({ callback })` and
 * `for await (const m of messages)`. A JetStream message's stream sequence and its delivery info
 * identify the delivery; `data` is the body, `json()` the payload, `headers` the producer's.
 */
const modules = ['nats', 'nats.ws', '@nats-io/transport-node', '@nats-io/nats-core', '@nats-io/jetstream'];

export const nats: BrokerAdapter = {
  kind: 'broker',
  name: 'nats',
  modules,
  shapes: {
    message: {
      otherMembers: 'unknown',
      members: {
        seq: { identity: 'the JetStream stream sequence' },
        redelivered: { identity: 'the JetStream redelivered flag' },
        info: { shape: 'nats:info' },
        data: { shape: 'body' },
        headers: { shape: 'headers' },
        subject: { kind: 'unknown' },
        reply: { kind: 'unknown' },
        sid: { kind: 'unknown' },
      },
      methods: { json: { shape: 'payload' }, string: { shape: 'body' } },
    },
    info: {
      otherMembers: 'unknown',
      members: {
        streamSequence: { identity: 'the JetStream stream sequence' },
        deliverySequence: { identity: 'the JetStream delivery sequence' },
        redeliveryCount: { identity: 'the JetStream redelivery count' },
        redelivered: { identity: 'the JetStream redelivered flag' },
        timestampNanos: { identity: 'the JetStream timestamp' },
        stream: { kind: 'unknown' },
        consumer: { kind: 'unknown' },
        pending: { kind: 'unknown' },
      },
    },
    // A subscription, or JetStream's consumed messages: iterated with `for await`.
    messages: { otherMembers: 'opaque', elements: { shape: 'nats:message' } },
  },
  handlers: [
    // Core NATS calls back with (err, msg); JetStream's consume with (msg).
    { property: 'callback', inCall: 'subscribe', parameter: 1, shape: 'nats:message', evidence: { imports: true } },
    { property: 'callback', inCall: 'consume', shape: 'nats:message', evidence: { imports: true } },
  ],
  types: [
    { type: 'Msg', from: modules, shape: 'nats:message' },
    { type: 'JsMsg', from: modules, shape: 'nats:message' },
  ],
  // `subscribe` and `consume` are common names: only in files that import NATS.
  results: [
    { call: 'subscribe', shape: 'nats:messages', evidence: { imports: true } },
    { call: 'consume', shape: 'nats:messages', evidence: { imports: true } },
  ],
  acknowledges: ['ack', 'nak', 'term', 'ackAck', 'working'],
  nameWords: ['nats', 'jetstream'],
};
