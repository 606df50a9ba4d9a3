import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

/** Where a value comes from, through the language itself: no broker, only variables, calls, templates and the runtime. */

describe('the origin of a value', () => {
  it.each([
    ['the clock is new on every attempt', 'probe(Date.now());', [['minted:the current time']]],
    ["today's date is the same for every retry today", 'probe(new Date().toISOString().slice(0, 10));', [['time']]],
    ['a constant', "const prefix = 'refund'; probe(prefix);", [['constant']]],
    [
      'destructuring keeps each member',
      'const { refundId, amountCents } = JSON.parse(body); probe(refundId); probe(amountCents);',
      [['business'], ['amount']],
    ],
    [
      "a setting's value is no amount, an order's value is",
      'const { settingsValue, orderValue } = JSON.parse(body); probe(settingsValue); probe(orderValue);',
      [['unknown'], ['amount']],
    ],
    [
      "a token's value is a text of its own, no amount; a cart's value is one",
      'const { tokenValue, cartValue } = JSON.parse(body); probe(tokenValue); probe(cartValue);',
      [['unknown'], ['amount']],
    ],
    [
      'a template joins its parts',
      'const refund = JSON.parse(body); probe(`r-${refund.refundId}-${Date.now()}`);',
      [['constant', 'business', 'minted:the current time']],
    ],
    [
      'a hash keeps what it is given',
      "import { createHash } from 'node:crypto'; const refund = JSON.parse(body); probe(createHash('sha256').update(refund.refundId).digest('hex'));",
      [['constant', 'business', 'constant']],
    ],
    [
      'a derivation of an object literal takes its values',
      "import { createHash } from 'node:crypto'; const { userId, amount } = JSON.parse(body); probe(createHash('sha256').update(JSON.stringify({ userId, amount })).digest('hex'));",
      [['constant', 'scope', 'amount', 'constant']],
    ],
    [
      'a value made of more parts than can be judged is unknown, so that nothing rests on it',
      `const { refundId } = JSON.parse(body); probe(\`${'-${refundId}'.repeat(1_001)}\`);`,
      [['unknown']],
    ],
    [
      'a parameter of a local function takes its arguments',
      'const key = (id) => `k:${id}`; const refund = JSON.parse(body); probe(key(refund.refundId));',
      [['constant', 'business']],
    ],
    [
      "a value named for an amount that has members is a record: its address is no amount, its amount is, and an amount's value is one",
      'const rows = await fetchAll(); rows.map((userBalance) => { probe(userBalance.erc20Address); probe(userBalance.amount); }); const { amount } = JSON.parse(body); probe(amount.value);',
      [['unknown'], ['amount'], ['amount']],
    ],
    [
      'a member of an enum or a table of constants is a constant, whatever its name says',
      'probe(CacheKeys.TOTAL_VOLUME_UPDATE_TIME); const order = JSON.parse(body); probe(order.totalAmount);',
      [['constant'], ['amount']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
