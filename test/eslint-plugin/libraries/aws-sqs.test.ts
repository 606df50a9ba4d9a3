import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('aws-sqs adapter', () => {
  it.each([
    [
      'a received message id and receipt handle',
      `const out = await client.send(new ReceiveMessageCommand({ QueueUrl })); for (const m of out.Messages) { probe(m.MessageId); probe(m.ReceiptHandle); }`,
      [['delivery:the SQS message id'], ['delivery:the SQS receipt handle']],
    ],
    [
      'SDK v2 receiveMessage(…).promise()',
      `const out = await sqs.receiveMessage(params).promise(); for (const m of out.Messages) probe(m.MessageId);`,
      [['delivery:the SQS message id']],
    ],
    [
      "a FIFO deduplication id is the producer's name for the operation",
      `const out = await sqs.receiveMessage(params).promise(); for (const m of out.Messages) probe(m.Attributes.MessageDeduplicationId);`,
      [['business']],
    ],
    [
      'sqs-consumer handleMessage',
      `Consumer.create({ queueUrl, handleMessage: async (message) => { probe(message.Attributes.ApproximateReceiveCount); } });`,
      [['delivery:the SQS receive count']],
    ],
    [
      'a batch handler gets a list of messages',
      `Consumer.create({ queueUrl, handleMessageBatch: async (messages) => { for (const m of messages) probe(m.MessageId); } });`,
      [['delivery:the SQS message id']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
