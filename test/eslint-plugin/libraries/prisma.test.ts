import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

describe('prisma adapter', () => {
  it.each([
    [
      'findUnique is a read of its model',
      `await prisma.refund.findUnique({ where: { id } });`,
      [
        {
          kind: 'read',
          library: 'prisma',
          targets: ['refund'],
          fields: [],
          filters: ['id'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'create is an insert of its data',
      `await tx.refund.create({ data: { refundId, cents } });`,
      [
        {
          kind: 'insert',
          library: 'prisma',
          targets: ['refund'],
          fields: ['refundId', 'cents'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      "a delegate handed over as a parameter typed PrismaClient['user']",
      `import type { PrismaClient } from '@prisma/client';
async function addCredits(users: PrismaClient['user'], id: string) { await users.update({ where: { id }, data: { credits: { increment: 5 } } }); }`,
      [
        {
          kind: 'update',
          library: 'prisma',
          targets: ['user'],
          fields: ['credits'],
          filters: ['id'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'near miss: a parameter of another type with the same methods',
      `async function addCredits(users: UserStore, id: string) { await users.update({ where: { id }, data: { credits: { increment: 5 } } }); }`,
      [],
    ],
    [
      'createMany with skipDuplicates settles duplicates',
      `await prisma.inbox.createMany({ data: rows, skipDuplicates: true });`,
      [{ kind: 'insert', library: 'prisma', targets: ['inbox'], fields: [], arbitrated: true, skipsDuplicates: true }],
    ],
    [
      'upsert on a compound unique key',
      `await prisma.entry.upsert({ where: { invoiceId_accountId: { invoiceId, accountId } }, create: { invoiceId, accountId }, update: {} });`,
      [
        {
          kind: 'upsert',
          library: 'prisma',
          targets: ['entry'],
          fields: ['invoiceId', 'accountId', 'invoiceId', 'accountId'],
          conflictTarget: ['invoiceId', 'accountId'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      "a repository of the team's own is not a Prisma model, even with a data option",
      `await this.tenantRepository.create({ identifier, data: command.data });`,
      [
        {
          kind: 'insert',
          library: 'typeorm',
          targets: ['tenant'],
          fields: ['identifier', 'data'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    ['$transaction is not a model call', `await prisma.$transaction.findFirst({ where: {} });`, []],
    [
      'a home-made data layer that names its table is not Prisma',
      `await db.store.findFirst({ table: 'refunds', where: {} });`,
      [],
    ],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
