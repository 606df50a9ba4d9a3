import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('aws-lambda adapter', () => {
  it.each([
    [
      "an SQSHandler's records",
      `export const handler: SQSHandler = async (event) => { for (const record of event.Records) probe(record.messageId); };`,
      [['delivery:the SQS message id']],
    ],
    [
      'the event of a function called handler',
      `exports.handler = async function handler(event) { for (const r of event.Records) probe(r.receiptHandle); };`,
      [['delivery:the SQS receipt handle']],
    ],
    [
      "a Kinesis record's sequence number",
      `export async function handler(event: KinesisStreamEvent) { for (const r of event.Records) probe(r.kinesis.sequenceNumber); }`,
      [['delivery:the Kinesis sequence number']],
    ],
    [
      "an SNS record's message id",
      `export async function handler(event: SNSEvent) { for (const r of event.Records) probe(r.Sns.MessageId); }`,
      [['delivery:the SNS message id']],
    ],
    [
      'a parsed record body is the payload',
      `export async function handler(event: SQSEvent) { for (const r of event.Records) probe(JSON.parse(r.body).orderId); }`,
      [['business']],
    ],
    [
      "an EventBridgeHandler's event id and detail",
      `import type { EventBridgeHandler } from 'aws-lambda'; export const handler: EventBridgeHandler<'RefundRequested', { refundId: string }, void> = async (event) => { probe(event.id); probe(event.detail.refundId); probe(event['detail-type']); };`,
      [['delivery:the EventBridge event id'], ['business'], ['unknown']],
    ],
    [
      'a typed EventBridgeEvent parameter',
      `export async function onEvent(event: EventBridgeEvent<'Paid', Payment>) { probe(event.id); probe(event.detail.paymentId); }`,
      [['delivery:the EventBridge event id'], ['business']],
    ],
    [
      "SNS over SQS: the notification's MessageId in a parsed record body is judged by its name",
      `export async function handler(event: SQSEvent) { for (const r of event.Records) { const note = JSON.parse(r.body); probe(note.MessageId); probe(JSON.parse(note.Message).orderId); } }`,
      [['delivery:named MessageId'], ['business']],
    ],
    [
      "near miss: an untyped handler's event id is not read as a Lambda record's",
      `exports.handler = async function handler(event) { probe(event.id); };`,
      [['unknown']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
