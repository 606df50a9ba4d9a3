import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('runtime values', () => {
  it.each([
    [
      'the clock and random numbers are minted',
      `probe(Date.now()); probe(Math.random()); probe(crypto.randomUUID()); probe(new Date());`,
      [['minted:the current time'], ['minted:a random number'], ['minted:a random UUID'], ['minted:the current time']],
    ],
    [
      'a date given a value is that value',
      `async function f(sentAt) { probe(new Date(sentAt).toISOString()); }`,
      [['time']],
    ],
    [
      'a day of the clock is a period, the same for every retry that day',
      `probe(new Date().toISOString().slice(0, 10)); probe(Math.floor(Date.now() / 86400000));`,
      [['time'], ['time', 'constant']],
    ],
    [
      'the host name and the pid name the worker',
      `import os from 'os'; probe(os.hostname()); probe(process.pid); probe(process.env.HOSTNAME);`,
      [["worker:the worker's host name"], ["worker:the worker's process id"], ['worker:the worker identity']],
    ],
    ['other configuration is a constant', `probe(process.env.QUEUE_URL);`, [['constant']]],
    [
      'a hash keeps what it hashes',
      `async function f(refund) { probe(createHash('sha256').update(refund.refundId).digest('hex')); }`,
      [['constant', 'business', 'constant']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
