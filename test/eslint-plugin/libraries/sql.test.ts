import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

const insert = {
  kind: 'insert',
  library: 'sql',
  arbitrated: false,
  skipsDuplicates: false,
  fix: 'on-conflict-do-nothing',
} as const;

describe('sql adapter', () => {
  it.each([
    [
      'an INSERT sent by pg',
      `await pool.query('INSERT INTO refunds (refund_id, amount) VALUES ($1, $2)', [id, cents]);`,
      [{ ...insert, targets: ['refund'], fields: ['refund_id', 'amount'] }],
    ],
    [
      'ON CONFLICT DO NOTHING settles duplicates by writing nothing',
      `await pool.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT (message_id) DO NOTHING', [id]);`,
      [
        {
          kind: 'upsert',
          library: 'sql',
          targets: ['inbox'],
          fields: ['message_id'],
          conflictTarget: ['message_id'],
          arbitrated: true,
          skipsDuplicates: true,
          fix: 'on-conflict-do-nothing',
        },
      ],
    ],
    [
      'a postgres.js tagged template',
      'await sql`INSERT INTO ledger (entry_id) VALUES (${entry.id})`;',
      [{ ...insert, targets: ['ledger'], fields: ['entry_id'] }],
    ],
    [
      'mysql-style placeholders from a name',
      `const text = 'INSERT INTO payouts (payout_id) VALUES (?)'; await conn.execute(text, [id]);`,
      [{ ...insert, targets: ['payout'], fields: ['payout_id'] }],
    ],
    [
      'INSERT … WHERE NOT EXISTS settles duplicates',
      `await db.query('INSERT INTO claims (id) SELECT $1 WHERE NOT EXISTS (SELECT 1 FROM claims WHERE id = $1)', [id]);`,
      [
        {
          kind: 'insert',
          library: 'sql',
          targets: ['claim'],
          fields: ['id'],
          arbitrated: true,
          skipsDuplicates: true,
          fix: 'on-conflict-do-nothing',
        },
      ],
    ],
    [
      'an advisory lock serialises',
      `await client.query('SELECT pg_advisory_xact_lock($1)', [key]);`,
      [{ kind: 'serialisation', library: 'sql', targets: [], fields: [], arbitrated: false, skipsDuplicates: false }],
    ],
    ['text that is not SQL is not an operation', `await client.query('hello world');`, []],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });

  it('a SELECT is a read of its tables', () => {
    const [read] = operationsIn(`await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);`);
    expect(read).toMatchObject({ kind: 'read', library: 'sql', targets: ['inbox'] });
  });
});
