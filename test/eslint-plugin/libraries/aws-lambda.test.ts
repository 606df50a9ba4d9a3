import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('aws-lambda adapter', () => {
  it.each([
    ['an SQSHandler\'s records', `export const handler: SQSHandler = async (event) => { for (const record of event.Records) probe(record.messageId); };`, [['delivery:the SQS message id']]],
    ['the event of a function called handler', `exports.handler = async function handler(event) { for (const r of event.Records) probe(r.receiptHandle); };`, [['delivery:the SQS receipt handle']]],
    ['a Kinesis record\'s sequence number', `export async function handler(event: KinesisStreamEvent) { for (const r of event.Records) probe(r.kinesis.sequenceNumber); }`, [['delivery:the Kinesis sequence number']]],
    ['an SNS record\'s message id', `export async function handler(event: SNSEvent) { for (const r of event.Records) probe(r.Sns.MessageId); }`, [['delivery:the SNS message id']]],
    ['a parsed record body is the payload', `export async function handler(event: SQSEvent) { for (const r of event.Records) probe(JSON.parse(r.body).orderId); }`, [['business']]],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
