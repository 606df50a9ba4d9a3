import type { BrokerAdapter } from '../analysis/index.js';

/**
 * The idempotency utility of AWS Lambda Powertools (@aws-lambda-powertools/idempotency):
 * `makeIdempotent`, `makeHandlerIdempotent` and `@idempotent` take a
 * `new IdempotencyConfig({ eventKeyJmesPath })`, and the key is whatever that path names in the
 * event (a whole Lambda event, an SQS record, an API Gateway request). A path to the record's
 * message id or receipt handle keys the idempotency record by the delivery; a path into the
 * content (`powertools_json(body).orderId`, `detail.paymentId`) keys it by the operation.
 * `makeIdempotent(fn)` keys by what `fn` is given: where the module calls the result itself with
 * a value of its own (a parsed message), the path names a member of that value.
 * Without a path the whole event is hashed; that is not judged here.
 */
export const powertools: BrokerAdapter = {
  kind: 'broker',
  name: 'powertools',
  entry: 'Lambda handler',
  modules: ['@aws-lambda-powertools/idempotency', /^@aws-lambda-powertools\/idempotency\//],
  shapes: {
    // The event a path is read against: any of the Lambda events, or one record of them.
    event: {
      inherits: 'aws-lambda:record',
      members: {
        Records: { listOf: 'aws-lambda:record' },
        id: { identity: 'the event id' },
        detail: { shape: 'payload' },
        headers: { shape: 'headers' },
        multiValueHeaders: { shape: 'headers' },
        queryStringParameters: { shape: 'payload' },
        pathParameters: { shape: 'payload' },
        requestContext: { shape: 'powertools:request-context' },
      },
    },
    'request-context': {
      otherMembers: 'unknown',
      members: {
        requestId: { identity: 'the API Gateway request id' },
        requestTimeEpoch: { identity: 'the request time' },
      },
    },
  },
  keyPaths: [
    {
      construct: 'IdempotencyConfig',
      option: 'eventKeyJmesPath',
      root: 'powertools:event',
      parsing: ['powertools_json'],
      label: 'the idempotency key',
      wrappers: ['makeIdempotent'],
    },
  ],
  nameWords: ['powertools'],
};
