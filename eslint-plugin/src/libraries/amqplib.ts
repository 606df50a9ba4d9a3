import type { BrokerAdapter } from '../analysis/index.js';

/** amqplib (RabbitMQ): `channel.consume(queue, handler)`, and `@RabbitSubscribe` handlers of @golevelup/nestjs-rabbitmq. */
export const amqplib: BrokerAdapter = {
  kind: 'broker',
  name: 'amqplib',
  modules: ['amqplib', 'amqplib/callback_api', '@golevelup/nestjs-rabbitmq'],
  shapes: {
    message: {
      inherits: 'common:delivery',
      members: {
        properties: { shape: 'amqplib:properties' },
        fields: { shape: 'amqplib:fields' },
        content: { shape: 'body' },
      },
    },
    properties: {
      otherMembers: 'unknown',
      members: {
        messageId: { identity: 'the AMQP message id' },
        correlationId: { identity: 'the AMQP correlation id' },
        timestamp: { identity: 'the AMQP timestamp' },
        headers: { shape: 'headers' },
      },
    },
    fields: {
      otherMembers: 'unknown',
      members: {
        deliveryTag: { identity: 'the AMQP delivery tag' },
        consumerTag: { identity: 'the AMQP consumer tag' },
        redelivered: { identity: 'the redelivered flag' },
        exchange: { kind: 'unknown' },
        routingKey: { kind: 'unknown' },
      },
    },
  },
  handlers: [
    { call: 'consume', argument: 1, shape: 'amqplib:message' },
    { decorators: ['RabbitSubscribe', 'RabbitRPC'], byPosition: ['payload', 'amqplib:message'] },
  ],
  types: [
    { type: 'ConsumeMessage', shape: 'amqplib:message' },
    { type: 'Message', from: ['amqplib'], shape: 'amqplib:message' },
  ],
  sends: { methods: ['sendToQueue', 'publish'] },
  acknowledges: ['ack', 'nack', 'reject', 'ackAll', 'nackAll'],
  nameWords: ['amqp', 'rabbit', 'rabbitmq'],
};
