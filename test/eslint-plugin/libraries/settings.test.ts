import { describe, expect, it } from 'vitest';

import { operationsIn, originsIn } from '../support/analyse.js';

/** `settings.idempotency`: a team's wrappers become adapters. The rules' tests show the findings they lead to. */
describe('settings adapters', () => {
  it('a declared consumer registration makes its handler a delivery handler', () => {
    const settings = {
      consumers: [{ call: 'bus.subscribe', handler: 1, delivery: ['deliveryId', 'headers.attempt'] }],
    };
    const code = `bus.subscribe('refunds', async (d) => { probe(d.deliveryId); probe(d.headers.attempt); probe(d.refundId); });
      this.bus.subscribe('refunds', async (d) => { probe(d.deliveryId); });
      other.subscribe('refunds', async (d) => { probe(d.deliveryId); });`;
    expect(originsIn(code, settings)).toEqual([
      ["delivery:the delivery's deliveryId"],
      ["delivery:the delivery's headers.attempt"],
      ['business'],
      ["delivery:the delivery's deliveryId"],
      ['delivery:named deliveryId'],
    ]);
  });

  it('a declared SQL wrapper sends SQL from where it says', () => {
    const settings = { sql: [{ call: 'db.run', sql: 1, params: 2 }] };
    const code = `await db.run(ctx, 'INSERT INTO refunds (refund_id) VALUES ($1)', [id]);`;
    expect(operationsIn(code, settings)).toEqual([
      {
        kind: 'insert',
        library: 'settings',
        targets: ['refund'],
        fields: ['refund_id'],
        arbitrated: false,
        skipsDuplicates: false,
        fix: 'on-conflict-do-nothing',
      },
    ]);
    expect(operationsIn(code)).toEqual([]);
  });

  it('a declared claim helper is a claim on its key', () => {
    const settings = { claims: [{ call: 'inbox.claim', key: 1, table: 'processed_messages' }] };
    expect(operationsIn(`await inbox.claim(tx, message.id);`, settings)).toEqual([
      {
        kind: 'upsert',
        library: 'settings',
        targets: ['processed_message'],
        fields: ['key'],
        conflictTarget: ['key'],
        arbitrated: true,
        skipsDuplicates: true,
        claim: 'claimed',
      },
    ]);
  });

  it.each([
    [
      { consumers: [{ call: 'bus.subscribe' }] },
      "settings.idempotency.consumers[0] should have required property 'handler'",
    ],
    [
      { consumers: [{ call: 'bus subscribe', handler: 1 }] },
      'settings.idempotency.consumers[0].call must be a dotted name such as "bus.subscribe"',
    ],
    [{ sql: [{ call: 'db.run', sql: -1 }] }, 'settings.idempotency.sql[0].sql should be >= 0'],
    [{ claim: [] }, 'settings.idempotency has an unknown property "claim"'],
    ['inbox.claim', 'settings.idempotency must be an object'],
  ])('a malformed setting stops the lint, naming it: %j', (settings, message) => {
    expect(() => operationsIn('f();', settings as never)).toThrow(message);
  });

  it('says what to fix without a stack trace, which the eslint command would print', () => {
    let thrown: unknown;
    try {
      operationsIn('f();', { claim: [] });
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).stack).toBe(
      'SettingsError: eslint-plugin-idempotency: settings.idempotency has an unknown property "claim".',
    );
  });
});
