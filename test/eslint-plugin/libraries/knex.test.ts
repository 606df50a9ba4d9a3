import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

describe('knex adapter', () => {
  it.each([
    [
      'a query on a table is a read',
      `await knex('refunds').where({ id }).first();`,
      [
        {
          kind: 'read',
          library: 'knex',
          targets: ['refund'],
          fields: [],
          filters: ['id'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'an insert with its fields',
      `await knex('refunds').insert({ refund_id: id, amount });`,
      [
        {
          kind: 'insert',
          library: 'knex',
          targets: ['refund'],
          fields: ['refund_id', 'amount'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'onConflict().ignore() settles duplicates',
      `await this.knex('inbox').insert({ message_id: id }).onConflict('message_id').ignore();`,
      [
        {
          kind: 'insert',
          library: 'knex',
          targets: ['inbox'],
          fields: ['message_id'],
          conflictTarget: ['message_id'],
          arbitrated: true,
          skipsDuplicates: true,
        },
      ],
    ],
    [
      'knex.table(…) and trx(…) name tables too',
      `await trx('ledger').insert({ entry_id: e }); await knex.table('jobs').del();`,
      [
        {
          kind: 'insert',
          library: 'knex',
          targets: ['ledger'],
          fields: ['entry_id'],
          arbitrated: false,
          skipsDuplicates: false,
        },
        { kind: 'delete', library: 'knex', targets: ['job'], fields: [], arbitrated: false, skipsDuplicates: false },
      ],
    ],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
