import { describe, expect, it } from 'vitest';

import { keyPathFacts } from '../../../eslint-plugin/src/analysis/keys/key-paths.js';
import { defaultLibraryTable } from '../../../eslint-plugin/src/libraries/index.js';
import { powertools } from '../../../eslint-plugin/src/libraries/powertools.js';

const pattern = powertools.keyPaths![0];

/** What the key an `eventKeyJmesPath` names is built from, as `kind` or `kind:what`. */
function pathFacts(path: string): string[] {
  return keyPathFacts(defaultLibraryTable, pattern, path).map((fact) =>
    fact.what ? `${fact.kind}:${fact.what}` : fact.kind,
  );
}

describe('powertools adapter', () => {
  it.each([
    ["an SQS record's message id", 'messageId', ['delivery:the SQS message id']],
    ['the first record of a whole SQS event', 'Records[0].messageId', ['delivery:the SQS message id']],
    ['a receipt handle', 'receiptHandle', ['delivery:the SQS receipt handle']],
    ['an EventBridge event id', 'id', ['delivery:the event id']],
    ['the API Gateway request id', 'requestContext.requestId', ['delivery:the API Gateway request id']],
    ['a request id header, judged by its name', 'headers."X-Request-Id"', ['delivery:named X-Request-Id']],
    ["a parsed body's business id", 'powertools_json(body).orderId', ['business']],
    ['an EventBridge detail id', 'detail.paymentId', ['business']],
    ["a direct invocation's payload field", 'orderId', ['business']],
    [
      'a multi-select list: each part',
      '[messageId, powertools_json(body).refundId]',
      ['delivery:the SQS message id', 'business'],
    ],
    ['a multi-select hash: each value', '{ order: detail.orderId, user: detail.userId }', ['business', 'scope']],
    ['the raw body is not read as content', 'body', ['unknown']],
    ['near miss: a function the adapter does not know', 'to_string(messageId)', ['unknown']],
    ['near miss: a pipe expression is not followed', 'Records[*].messageId | [0]', ['unknown']],
  ])('%s', (_name, path, expected) => {
    expect(pathFacts(path)).toEqual(expected);
  });
});
