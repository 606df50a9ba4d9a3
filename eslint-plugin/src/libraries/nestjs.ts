import type { BrokerAdapter } from '../analysis/index.js';

/** NestJS microservices: `@EventPattern`/`@MessagePattern` handlers, with `@Payload()` and `@Ctx()` parameters. */
export const nestjs: BrokerAdapter = {
  kind: 'broker',
  name: 'nestjs',
  entry: 'NestJS message handler',
  modules: ['@nestjs/microservices'],
  shapes: {
    context: {
      otherMembers: 'opaque',
      methods: { getMessage: { shape: 'common:delivery' }, getPattern: { kind: 'unknown' } },
    },
    'kafka-context': {
      otherMembers: 'opaque',
      methods: {
        getMessage: { shape: 'kafkajs:message' },
        getPartition: { identity: 'the Kafka partition' },
        getTopic: { identity: 'the Kafka topic' },
        getPattern: { kind: 'unknown' },
      },
    },
    'rmq-context': {
      otherMembers: 'opaque',
      methods: {
        getMessage: { shape: 'amqplib:message' },
        getPattern: { kind: 'unknown' },
        getChannelRef: { kind: 'unknown' },
      },
    },
  },
  handlers: [
    {
      decorators: ['EventPattern', 'MessagePattern'],
      byParameterDecorator: { Payload: 'payload', Ctx: 'nestjs:context' },
      byPosition: ['payload', 'nestjs:context'],
    },
  ],
  types: [
    { type: 'KafkaContext', shape: 'nestjs:kafka-context' },
    { type: 'RmqContext', shape: 'nestjs:rmq-context' },
  ],
};
