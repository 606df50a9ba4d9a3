import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

describe('kysely adapter', () => {
  it.each([
    [
      'insertInto with values',
      `await db.insertInto('refunds').values({ refund_id: id }).execute();`,
      [
        {
          kind: 'insert',
          library: 'kysely',
          targets: ['refund'],
          fields: ['refund_id'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'onConflict settles duplicates',
      `await db.insertInto('inbox').values({ message_id: id }).onConflict((oc) => oc.doNothing()).execute();`,
      [
        {
          kind: 'insert',
          library: 'kysely',
          targets: ['inbox'],
          fields: ['message_id'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'selectFrom is a read',
      `await db.selectFrom('inbox').selectAll().where('message_id', '=', id).executeTakeFirst();`,
      [{ kind: 'read', library: 'kysely', targets: ['inbox'], fields: [], arbitrated: false, skipsDuplicates: false }],
    ],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
