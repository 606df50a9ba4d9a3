import type { BrokerAdapter } from '../analysis/index.js';

/** AWS Lambda event sources: SQS, SNS and Kinesis records handed to `exports.handler`, and EventBridge events. */
export const awsLambda: BrokerAdapter = {
  kind: 'broker',
  name: 'aws-lambda',
  entry: 'Lambda handler',
  modules: ['aws-lambda', '@types/aws-lambda'],
  shapes: {
    // `Records`, capitalised, is AWS's own: a `handler(event)` that reads it is a Lambda's.
    event: { otherMembers: 'opaque', members: { Records: { listOf: 'aws-lambda:record', confirms: true } } },
    record: {
      inherits: 'common:delivery',
      members: {
        messageId: { identity: 'the SQS message id' },
        receiptHandle: { identity: 'the SQS receipt handle' },
        eventID: { identity: 'the stream event id' },
        body: { shape: 'body' },
        attributes: { shape: 'aws-lambda:attributes' },
        messageAttributes: { shape: 'headers' },
        kinesis: { shape: 'aws-lambda:kinesis' },
        Sns: { shape: 'aws-lambda:sns' },
        dynamodb: { shape: 'payload' },
        eventSourceARN: { kind: 'unknown' },
      },
    },
    attributes: {
      otherMembers: 'unknown',
      members: {
        approximateReceiveCount: { identity: 'the SQS receive count' },
        sentTimestamp: { identity: 'the SQS sent timestamp' },
        approximateFirstReceiveTimestamp: { identity: 'the SQS first receive time' },
        sequenceNumber: { identity: 'the SQS sequence number' },
        messageDeduplicationId: { kind: 'business' },
        messageGroupId: { kind: 'scope' },
      },
    },
    kinesis: {
      otherMembers: 'unknown',
      members: {
        sequenceNumber: { identity: 'the Kinesis sequence number' },
        data: { shape: 'body' },
        partitionKey: { kind: 'unknown' },
      },
    },
    sns: {
      otherMembers: 'unknown',
      members: {
        MessageId: { identity: 'the SNS message id' },
        Timestamp: { identity: 'the SNS timestamp' },
        Message: { shape: 'body' },
        MessageAttributes: { shape: 'headers' },
      },
    },
    // An EventBridge event: its id is EventBridge's, its detail the producer's content.
    eventbridge: {
      otherMembers: 'unknown',
      members: {
        id: { identity: 'the EventBridge event id' },
        detail: { shape: 'payload' },
        'detail-type': { kind: 'unknown' },
        source: { kind: 'unknown' },
        time: { kind: 'unknown' },
        account: { kind: 'unknown' },
        region: { kind: 'unknown' },
        resources: { kind: 'unknown' },
      },
    },
  },
  handlers: [
    { handlerType: 'EventBridgeHandler', shape: 'aws-lambda:eventbridge' },
    { handlerType: 'SQSHandler', shape: 'aws-lambda:event' },
    { handlerType: 'KinesisStreamHandler', shape: 'aws-lambda:event' },
    { handlerType: 'SNSHandler', shape: 'aws-lambda:event' },
  ],
  types: [
    { type: 'SQSRecord', shape: 'aws-lambda:record' },
    { type: 'SQSEvent', shape: 'aws-lambda:event' },
    { type: 'KinesisStreamEvent', shape: 'aws-lambda:event' },
    { type: 'SNSEvent', shape: 'aws-lambda:event' },
    { type: 'EventBridgeEvent', shape: 'aws-lambda:eventbridge' },
  ],
  nameWords: ['lambda'],
  // The `event` of a function called `handler` is a Lambda event.
  namedHandlers: [{ functionName: 'handler', parameterName: 'event', shape: 'aws-lambda:event' }],
};
