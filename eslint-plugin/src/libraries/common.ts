import type { BrokerAdapter } from '../analysis/index.js';

/**
 * What holds across brokers, for code that does not say which one it uses: a parameter named
 * `message` or `job` is a delivery, and a delivery's `messageId`, `offset` or `receiptHandle`
 * identify it. Each broker's own adapter inherits these members.
 */
export const common: BrokerAdapter = {
  kind: 'broker',
  name: 'common',
  modules: [],
  shapes: {
    delivery: {
      members: {
        id: { identity: "the message's delivery id" },
        messageId: { identity: 'the message id' },
        MessageId: { identity: 'the message id' },
        offset: { identity: 'the message offset' },
        partition: { identity: 'the partition' },
        deliveryTag: { identity: 'the delivery tag' },
        receiptHandle: { identity: 'the receipt handle' },
        ReceiptHandle: { identity: 'the receipt handle' },
        attemptsMade: { identity: 'the attempt count' },
        properties: { shape: 'amqplib:properties' },
        fields: { shape: 'amqplib:fields' },
        value: { shape: 'body' },
        content: { shape: 'body' },
        body: { shape: 'body' },
        Body: { shape: 'body' },
        data: { shape: 'payload' },
        payload: { shape: 'payload' },
        headers: { shape: 'headers' },
        attributes: { shape: 'headers' },
      },
    },
  },
  sends: {
    // A serialised object is a message body on its way out, not an effect's options.
    methods: ['stringify', 'produce', 'enqueue'],
    receiverMethods: [{ method: 'send', receiver: /queue|channel|publisher|bus/i }],
  },
  deliveryNames: {
    one: /^(message|msg|rawMessage|kafkaMessage|sqsMessage|amqpMessage|delivery|envelope|job)$/,
    many: /^(jobs|messages)$/,
    shape: 'common:delivery',
  },
};
