import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

describe('typeorm adapter', () => {
  it.each([
    [
      'a repository read',
      `await this.refunds.findOneBy({ refundId });`,
      [
        {
          kind: 'read',
          library: 'typeorm',
          targets: ['refund'],
          fields: [],
          filters: ['refundId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'an entity manager insert names its entity first',
      `await manager.insert(Refund, { refundId, amount });`,
      [
        {
          kind: 'insert',
          library: 'typeorm',
          targets: ['refund'],
          fields: ['refundId', 'amount'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'upsert with conflict paths',
      `await refundRepository.upsert({ refundId }, ['refundId']);`,
      [
        {
          kind: 'upsert',
          library: 'typeorm',
          targets: ['refund'],
          fields: ['refundId'],
          conflictTarget: ['refundId'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      "the query builder's insert … orIgnore()",
      `await ds.createQueryBuilder().insert().into(Inbox).values({ messageId }).orIgnore().execute();`,
      [
        {
          kind: 'insert',
          library: 'typeorm',
          targets: ['inbox'],
          fields: ['messageId'],
          arbitrated: true,
          skipsDuplicates: true,
        },
      ],
    ],
    [
      "a wrapper's getRepository(ctx, Entity), held in a variable, saving a new entity",
      `import { Entity } from 'typeorm'; const repo = this.connection.getRepository(ctx, StockLevel); await repo.save(new StockLevel({ variantId, locationId }));`,
      [
        {
          kind: 'insert',
          library: 'typeorm',
          targets: ['stock_level'],
          fields: ['variantId', 'locationId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'saving a relation of an entity a checked find returned is an update',
      `import { Entity } from 'typeorm'; const found = await assertFound(this.findOne(ctx, id)); await this.users.save(found.user);`,
      [
        {
          kind: 'update',
          library: 'typeorm',
          targets: ['user'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'near miss: saving an object a plain helper made is an insert',
      `import { Entity } from 'typeorm'; const user = makeUser(email); await this.users.save(user);`,
      [
        {
          kind: 'insert',
          library: 'typeorm',
          targets: ['user'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'saving again what a save returned is an update',
      `import { Entity } from 'typeorm'; const saved = await this.refunds.save({ refundId }); await this.refunds.save(saved);`,
      [
        {
          kind: 'insert',
          library: 'typeorm',
          targets: ['refund'],
          fields: ['refundId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
        {
          kind: 'update',
          library: 'typeorm',
          targets: ['refund'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    ['a provider API is not a repository', `await stripe.refunds.create({ payment_intent: id });`, []],
    [
      "an entity manager's create makes the entity in memory: no row yet",
      `const user = manager.create(User, data);`,
      [],
    ],
    [
      "a repository's create in a file that imports TypeORM makes the entity in memory",
      `import { Repository } from 'typeorm';
const refund = this.refundRepository.create({ refundId });`,
      [],
    ],
    [
      "a repository's create whose result a save then stores makes the entity in memory: the save is the insert",
      `const subscription = this.subscriptionRepository.create(input);
await this.subscriptionRepository.save(subscription);`,
      [
        {
          kind: 'insert',
          library: 'typeorm',
          targets: ['subscription'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
