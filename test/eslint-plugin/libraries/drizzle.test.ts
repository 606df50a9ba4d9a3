import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

describe('drizzle adapter', () => {
  it.each([
    [
      'insert(table).values(row)',
      `await db.insert(refunds).values({ refundId, amount });`,
      [
        {
          kind: 'insert',
          library: 'drizzle',
          targets: ['refund'],
          fields: ['refundId', 'amount'],
          arbitrated: false,
          skipsDuplicates: false,
          fix: 'on-conflict-do-nothing-call',
        },
      ],
    ],
    [
      'onConflictDoNothing on a target',
      `await db.insert(schema.inbox).values({ messageId }).onConflictDoNothing({ target: inbox.messageId });`,
      [
        {
          kind: 'insert',
          library: 'drizzle',
          targets: ['inbox'],
          fields: ['messageId'],
          conflictTarget: ['messageId'],
          arbitrated: true,
          skipsDuplicates: true,
        },
      ],
    ],
    [
      'update(table).set(fields).where(condition) is an update of the fields it sets, on the rows it names',
      `await db.update(orders).set({ paidAt: new Date() }).where(eq(orders.id, id));`,
      [
        {
          kind: 'update',
          library: 'drizzle',
          targets: ['order'],
          fields: ['paidAt'],
          filters: ['id'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    ['near miss: a hash updated, with no set()', `createHash('sha256').update(payload).digest('hex');`, []],
    [
      'select().from(table) is a read, matching the columns of its eq conditions',
      `await db.select().from(refunds).where(and(eq(refunds.id, id), eq(refunds.accountId, account)));`,
      [
        {
          kind: 'read',
          library: 'drizzle',
          targets: ['refund'],
          fields: [],
          filters: ['id', 'accountId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'a condition other than eq and and shows no columns',
      `await db.select().from(refunds).where(or(eq(refunds.id, id), isNull(refunds.id)));`,
      [
        {
          kind: 'read',
          library: 'drizzle',
          targets: ['refund'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'the relational query API is a read',
      `await db.query.refunds.findFirst({ where: eq(refunds.refundId, id) });`,
      [
        {
          kind: 'read',
          library: 'drizzle',
          targets: ['refund'],
          fields: [],
          filters: ['refundId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'a where callback matches the columns of the condition it returns',
      `await db.query.members.findFirst({ where: (t, { and, eq }) => and(eq(t.orgId, org), eq(t.userId, user)) });`,
      [
        {
          kind: 'read',
          library: 'drizzle',
          targets: ['member'],
          fields: [],
          filters: ['orgId', 'userId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'a where callback with a body of more than its return shows no columns',
      `await db.query.members.findFirst({ where: (t, { eq }) => { log(t); return eq(t.orgId, org); } });`,
      [
        {
          kind: 'read',
          library: 'drizzle',
          targets: ['member'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'an imported table goes by the name its module exports',
      `import { refunds as refundTable } from './schema';\nawait db.insert(refundTable).values({ refundId });`,
      [
        {
          kind: 'insert',
          library: 'drizzle',
          targets: ['refund'],
          fields: ['refundId'],
          arbitrated: false,
          skipsDuplicates: false,
          fix: 'on-conflict-do-nothing-call',
        },
      ],
    ],
    [
      'isNull in a where names the column as empty, beside the equalities',
      `await db.select().from(bookings).where(and(eq(bookings.status, 'paid'), isNull(bookings.transferId)));`,
      [
        {
          kind: 'read',
          library: 'drizzle',
          targets: ['booking'],
          fields: [],
          filters: ['status', 'transferId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
