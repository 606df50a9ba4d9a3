import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('common conventions', () => {
  it.each([
    [
      'a parameter named message holds a delivery',
      `async function handle(message) { probe(message.messageId); probe(message.data.refundId); }`,
      [['delivery:the message id'], ['business']],
    ],
    [
      'a list named jobs',
      `async function run(jobs) { for (const j of jobs) probe(j.id); }`,
      [["delivery:the message's delivery id"]],
    ],
    [
      'a transport word in a name marks the delivery',
      `probe(kafkaOffset); probe(sqsReceiptHandle);`,
      [['delivery:named kafkaOffset'], ['delivery:named sqsReceiptHandle']],
    ],
    [
      'an unrelated parameter is not read by name as a delivery',
      `async function handle(order) { probe(order.id); }`,
      [['business']],
    ],
    [
      'a bare value is no amount; an order value and cents are',
      `function f(token, order) { probe(token.value); probe(order.orderValue); probe(order.cents); }`,
      [['unknown'], ['amount'], ['amount']],
    ],
    [
      'a program, like a workspace, scopes an operation',
      `function f(program) { probe(program.id); probe(programId); }`,
      [['scope'], ['scope']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
