import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

describe('mongoose adapter', () => {
  it.each([
    [
      'exists is a read',
      `import mongoose from 'mongoose'; await Refund.exists({ refundId });`,
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
    [
      'new Model(…).save() inserts',
      `import mongoose from 'mongoose'; await new Refund({ refundId }).save();`,
      [
        {
          kind: 'insert',
          library: 'mongoose',
          targets: ['refund'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'updateOne with upsert is an upsert on its filter',
      `import mongoose from 'mongoose'; await Inbox.updateOne({ messageId }, { $setOnInsert: { seenAt } }, { upsert: true });`,
      [
        {
          kind: 'upsert',
          library: 'mongoose',
          targets: ['inbox'],
          fields: ['messageId', 'seenAt'],
          conflictTarget: ['messageId'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'a model in a file that also imports the driver (for ObjectId) is still Mongoose',
      `import mongoose from 'mongoose'; import { ObjectId } from 'mongodb'; await Refund.findOne({ _id: new ObjectId(id) });`,
      [
        {
          kind: 'read',
          library: 'mongoose',
          targets: ['refund'],
          fields: [],
          filters: ['_id'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'updateOne without upsert updates the rows its filter picks',
      `import mongoose from 'mongoose'; await Product.updateOne({ _id: productId }, { $inc: { stock: quantity } });`,
      [
        {
          kind: 'update',
          library: 'mongoose',
          targets: ['product'],
          // What `$inc` adds to is read from the adapter's increments, not set fields.
          fields: [],
          filters: ['_id'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'findByIdAndUpdate updates the row its id names',
      `import mongoose from 'mongoose'; await Order.findByIdAndUpdate(orderId, { $set: { status: 'paid' } });`,
      [
        {
          kind: 'update',
          library: 'mongoose',
          targets: ['order'],
          fields: ['status'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'an update without a filter object is not taken for a model call',
      `import mongoose from 'mongoose'; await Order.updateOne(query);`,
      [],
    ],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
