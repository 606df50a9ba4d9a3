import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('id generators', () => {
  it.each([
    [
      'uuid v4, ulid, nanoid, cuid and ObjectId are new on every call',
      `probe(v4()); probe(ulid()); probe(nanoid()); probe(createId()); probe(new ObjectId());`,
      [
        ['minted:a random UUID'],
        ['minted:a new ULID'],
        ['minted:a new nanoid'],
        ['minted:a new cuid'],
        ['minted:a new ObjectId'],
      ],
    ],
    [
      'a name-based UUID is derived from its name',
      `async function f(refund) { probe(v5(refund.refundId, NAMESPACE)); }`,
      [['business', 'unknown']],
    ],
    [
      'an ObjectId made from a hex string is that string',
      `async function f(body) { probe(new ObjectId(body.orderId)); }`,
      [['business']],
    ],
    [
      'a generator nanoid makes for an alphabet mints on each call, whatever its name',
      `import { customAlphabet } from 'nanoid'; const guid = customAlphabet('0123456789abcdef', 5); probe(guid());`,
      [['minted:a new nanoid']],
    ],
    [
      'the near miss: a function another call returned is not known to mint',
      `const guid = memoize(lookup); async function f() { const priceHash = guid(); probe(priceHash); }`,
      [['amount']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
