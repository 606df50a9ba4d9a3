import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

const model = `import { Model } from 'objection'; class Inbox extends Model { static tableName = 'inbox'; }`;
const op = (kind: string, targets: string[], fields: string[] = [], extra: Record<string, unknown> = {}) => ({
  kind,
  library: 'objection',
  targets,
  fields,
  arbitrated: false,
  skipsDuplicates: false,
  ...extra,
});

describe('objection adapter', () => {
  it.each([
    [
      'query().findOne(where) is a read of the model',
      `${model} await Inbox.query().findOne({ messageId });`,
      [op('read', ['inbox'], [], { filters: ['messageId'] })],
    ],
    ['query(trx).findById(id)', `${model} await Inbox.query(trx).findById(id);`, [op('read', ['inbox'])]],
    [
      'query().where(…).first()',
      `${model} await Inbox.query().where({ messageId }).first();`,
      [op('read', ['inbox'], [], { filters: ['messageId'] })],
    ],
    [
      'query().insert(row) inserts',
      `${model} await Inbox.query().insert({ messageId, seenAt });`,
      [op('insert', ['inbox'], ['messageId', 'seenAt'])],
    ],
    [
      'insert(…).onConflict(col).ignore() skips duplicates',
      `${model} await Inbox.query().insert({ messageId }).onConflict('messageId').ignore();`,
      [
        op('insert', ['inbox'], ['messageId'], {
          conflictTarget: ['messageId'],
          arbitrated: true,
          skipsDuplicates: true,
        }),
      ],
    ],
    [
      'insert(…).onConflict(col).merge() settles them by updating',
      `${model} await Inbox.query().insert({ messageId }).onConflict('messageId').merge();`,
      [op('insert', ['inbox'], ['messageId'], { conflictTarget: ['messageId'], arbitrated: true })],
    ],
    [
      'upsertGraph reads and then writes in application code: not arbitrated',
      `${model} await Inbox.query().upsertGraph({ id, messageId });`,
      [op('upsert', ['inbox'], ['id', 'messageId'])],
    ],
    [
      'patch is an update of the rows its where names, setting what it is handed',
      `${model} await Inbox.query().patch({ seenAt }).where({ messageId });`,
      [op('update', ['inbox'], ['seenAt'], { filters: ['messageId'] })],
    ],
    [
      'patchAndFetchById names the row by its id',
      `${model} await Inbox.query().patchAndFetchById(inbox.id, { seenAt: new Date() });`,
      [op('update', ['inbox'], ['seenAt'], { filters: ['id'] })],
    ],
    [
      'a row patched through itself: an update of that row, in a table the read it came from names',
      `${model} const inbox = await Inbox.query().findById(id); await inbox.$query().patch({ seenAt });`,
      [op('read', ['inbox']), op('update', [], ['seenAt'])],
    ],
    ['a capitalised $query root is a class, not a row', `${model} await Inbox.$query().patch({ seenAt });`, []],
    ['deleteById is a delete', `${model} await Inbox.query().deleteById(id);`, [op('delete', ['inbox'])]],
    [
      'an imported model, a method only Objection has: no objection import needed',
      `import { Refund } from '../models/refund'; await Refund.query().findById(id);`,
      [op('read', ['refund'])],
    ],
    [
      'an imported model, query() with no argument: no objection import needed',
      `import { Refund } from '../models/refund'; await Refund.query().insert({ refundId });`,
      [op('insert', ['refund'], ['refundId'])],
    ],
    [
      'near miss: an imported class, query(arg) and methods knex also has, no objection import',
      `import { Refund } from '../models/refund'; await Refund.query(input).where({ id }).first();`,
      [],
    ],
    [
      'near miss: a query() that sends SQL is read as SQL, not as a model query',
      `${model} await Inbox.query('SELECT 1').first();`,
      [{ kind: 'read', library: 'sql', targets: [], fields: [], arbitrated: false, skipsDuplicates: false }],
    ],
    ['near miss: a capitalised name that is neither imported nor declared', `await Inbox.query().findById(id);`, []],
    [
      "knex chains stay knex's",
      `${model} await knex('inbox').where({ message_id: id }).first();`,
      [
        {
          kind: 'read',
          library: 'knex',
          targets: ['inbox'],
          fields: [],
          filters: ['message_id'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
