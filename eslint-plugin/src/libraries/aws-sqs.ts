import type { BrokerAdapter } from '../analysis/index.js';

/**
 * Amazon SQS: messages received with the SDK (`ReceiveMessageCommand`, v2 `receiveMessage`), by
 * sqs-consumer's `handleMessage`, or by @ssut/nestjs-sqs handlers; and the AWS messaging commands
 * that send (SQS, SNS, EventBridge, Kinesis).
 */
export const awsSqs: BrokerAdapter = {
  kind: 'broker',
  name: 'aws-sqs',
  entry: 'SQS consumer',
  modules: ['@aws-sdk/client-sqs', 'sqs-consumer', '@ssut/nestjs-sqs', 'aws-sdk'],
  shapes: {
    message: {
      inherits: 'common:delivery',
      members: {
        MessageId: { identity: 'the SQS message id' },
        ReceiptHandle: { identity: 'the SQS receipt handle' },
        Body: { shape: 'body' },
        Attributes: { shape: 'aws-sqs:attributes' },
        MessageAttributes: { shape: 'headers' },
        MD5OfBody: { kind: 'unknown' },
      },
    },
    attributes: {
      otherMembers: 'unknown',
      members: {
        ApproximateReceiveCount: { identity: 'the SQS receive count' },
        SentTimestamp: { identity: 'the SQS sent timestamp' },
        ApproximateFirstReceiveTimestamp: { identity: 'the SQS first receive time' },
        SequenceNumber: { identity: 'the SQS sequence number' },
        // Set by the producer to name the operation: the right kind of key.
        MessageDeduplicationId: { kind: 'business' },
        MessageGroupId: { kind: 'scope' },
      },
    },
    receive: {
      otherMembers: 'opaque',
      members: { Messages: { listOf: 'aws-sqs:message' } },
      // AWS SDK v2: sqs.receiveMessage(params).promise()
      methods: { promise: { shape: 'aws-sqs:receive' } },
    },
  },
  handlers: [
    { property: 'handleMessage', shape: 'aws-sqs:message' },
    { property: 'handleMessageBatch', shape: 'aws-sqs:message', list: true },
    { decorators: ['SqsMessageHandler'], byPosition: ['aws-sqs:message'] },
  ],
  types: [{ type: 'Message', from: ['@aws-sdk/client-sqs'], shape: 'aws-sqs:message' }],
  results: [
    { call: 'receiveMessage', shape: 'aws-sqs:receive' },
    { call: 'send', construct: 'ReceiveMessageCommand', shape: 'aws-sqs:receive' },
  ],
  sends: {
    commands: /^(Send|Publish|PutEvents|PutRecords?|SendMessage)\w*Command$/,
    methods: ['sendMessage', 'sendMessageBatch'],
    receiverMethods: [{ method: 'send', receiver: /sns|sqs/i }],
  },
  // A FIFO queue drops a message whose MessageDeduplicationId it saw in the last five minutes.
  producerDedupe: {
    queue: [{ property: 'queueUrl' }],
    sends: [{ queueField: 'QueueUrl', option: 'MessageDeduplicationId' }],
  },
  acknowledges: ['deleteMessage', 'deleteMessageBatch', 'changeMessageVisibility'],
  nameWords: ['sqs', 'sns'],
};
