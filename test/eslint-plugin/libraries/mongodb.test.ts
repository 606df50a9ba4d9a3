import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

const driver = `import { MongoClient, type Collection } from 'mongodb';`;
const read = (targets: string[], filters: string[]) => ({
  kind: 'read',
  library: 'mongodb',
  targets,
  fields: [],
  filters,
  arbitrated: false,
  skipsDuplicates: false,
});

describe('mongodb adapter', () => {
  it.each([
    [
      'findOne on collection(…) is a read',
      `${driver} await db.collection('inbox').findOne({ messageId });`,
      [read(['inbox'], ['messageId'])],
    ],
    [
      'collection(…) is evidence enough without an import',
      `await db.collection('inbox').findOne({ messageId });`,
      [read(['inbox'], ['messageId'])],
    ],
    [
      'a collection held in a constant',
      `${driver} const inbox = db.collection('processed_messages'); await inbox.countDocuments({ messageId });`,
      [read(['processed_message'], ['messageId'])],
    ],
    [
      'find(…).toArray() is the read, not the cursor',
      `${driver} await db.collection('inbox').find({ messageId }).limit(1).toArray();`,
      [read(['inbox'], ['messageId'])],
    ],
    ['find() without a filter checks nothing', `${driver} await db.collection('inbox').find().toArray();`, []],
    [
      'insertOne inserts its document',
      `${driver} await db.collection('inbox').insertOne({ _id: messageId, seenAt });`,
      [
        {
          kind: 'insert',
          library: 'mongodb',
          targets: ['inbox'],
          fields: ['_id', 'seenAt'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'insertMany inserts',
      `${driver} await this.events.insertMany([{ eventId, amount }]);`,
      [
        {
          kind: 'insert',
          library: 'mongodb',
          targets: ['event'],
          fields: ['eventId', 'amount'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'updateOne with upsert and $setOnInsert alone: arbitrated, and writes nothing on a duplicate',
      `${driver} await db.collection('inbox').updateOne({ messageId }, { $setOnInsert: { seenAt } }, { upsert: true });`,
      [
        {
          kind: 'upsert',
          library: 'mongodb',
          targets: ['inbox'],
          fields: ['messageId', 'seenAt'],
          conflictTarget: ['messageId'],
          arbitrated: true,
          skipsDuplicates: true,
        },
      ],
    ],
    [
      'findOneAndUpdate with upsert and $set writes either way',
      `${driver} await db.collection('refunds').findOneAndUpdate({ refundId }, { $set: { cents } }, { upsert: true });`,
      [
        {
          kind: 'upsert',
          library: 'mongodb',
          targets: ['refund'],
          fields: ['refundId', 'cents'],
          conflictTarget: ['refundId'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'replaceOne with upsert',
      `${driver} await db.collection('refunds').replaceOne({ refundId }, { refundId, cents }, { upsert: true });`,
      [
        {
          kind: 'upsert',
          library: 'mongodb',
          targets: ['refund'],
          fields: ['refundId', 'refundId', 'cents'],
          conflictTarget: ['refundId'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'updateOne without upsert is an update of the rows its filter matches',
      `${driver} await db.collection('refunds').updateOne({ refundId }, { $set: { cents } });`,
      [
        {
          kind: 'update',
          library: 'mongodb',
          targets: ['refund'],
          fields: [],
          filters: ['refundId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'deleteOne is a delete',
      `${driver} await db.collection('refunds').deleteOne({ refundId });`,
      [
        {
          kind: 'delete',
          library: 'mongodb',
          targets: ['refund'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'a class member typed Collection',
      `${driver} class Inbox { constructor(private readonly seen: Collection<Seen>) {} async has(id) { return this.seen.findOne({ _id: id }); } }`,
      [read(['seen'], ['_id'])],
    ],
    [
      "with Mongoose imported too, a member typed Collection is still the driver's",
      `import mongoose from 'mongoose'; ${driver} class Inbox { seen: Collection<Seen>; async has(id) { return this.seen.findOne({ _id: id }); } }`,
      [read(['seen'], ['_id'])],
    ],
    [
      "near miss: with Mongoose imported, a model is Mongoose's",
      `import mongoose from 'mongoose'; ${driver} await Refund.findOne({ refundId });`,
      [
        {
          kind: 'read',
          library: 'mongoose',
          targets: ['refund'],
          fields: [],
          filters: ['refundId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    ['near miss: the client itself is not a collection', `${driver} await client.findOne({ _id: id });`, []],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });

  it('near miss: without the driver imported, a store-like receiver is left to the repository adapters', () => {
    expect(operationsIn(`await this.inbox.insertOne({ _id: id });`).map((operation) => operation.library)).toEqual([
      'typeorm',
    ]);
  });

  it("a store-like receiver in a file that imports only the driver is the driver's, not a repository's", () => {
    expect(
      operationsIn(`${driver} await this.inbox.insertOne({ _id: id });`).map((operation) => operation.library),
    ).toEqual(['mongodb']);
  });
});
