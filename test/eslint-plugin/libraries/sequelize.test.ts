import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

describe('sequelize adapter', () => {
  it.each([
    [
      'a model read in a file that imports Sequelize',
      `import { Model } from 'sequelize'; await Refund.findByPk(id);`,
      [
        {
          kind: 'read',
          library: 'sequelize',
          targets: ['refund'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'bulkCreate with ignoreDuplicates settles duplicates',
      `import { Model } from 'sequelize'; await Inbox.bulkCreate([{ messageId }], { ignoreDuplicates: true });`,
      [
        {
          kind: 'insert',
          library: 'sequelize',
          targets: ['inbox'],
          fields: ['messageId'],
          arbitrated: true,
          skipsDuplicates: true,
        },
      ],
    ],
    [
      'findOrCreate is an upsert on its where',
      `import { Model } from 'sequelize'; await Refund.findOrCreate({ where: { refundId } });`,
      [
        {
          kind: 'upsert',
          library: 'sequelize',
          targets: ['refund'],
          fields: ['refundId'],
          conflictTarget: ['refundId'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      "a model held by the project's registry of models",
      `import { Model } from 'sequelize'; await db.Refund.create({ refundId }); await models.Refund.findOne({ where: { refundId } });`,
      [
        {
          kind: 'insert',
          library: 'sequelize',
          targets: ['refund'],
          fields: ['refundId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
        {
          kind: 'read',
          library: 'sequelize',
          targets: ['refund'],
          fields: [],
          filters: ['refundId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'near miss of a registry: a capitalised member of an SDK client is no model',
      `import { Model } from 'sequelize'; await stripe.Refund.create({ amount });`,
      [],
    ],
    [
      'update takes its values first and its filter in where',
      `import { Model } from 'sequelize'; await Order.update({ status: 'paid' }, { where: { id: orderId } });`,
      [
        {
          kind: 'update',
          library: 'sequelize',
          targets: ['order'],
          fields: ['status'],
          filters: ['id'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
