import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

describe('drizzle adapter', () => {
  it.each([
    ['insert(table).values(row)', `await db.insert(refunds).values({ refundId, amount });`, [{ kind: 'insert', library: 'drizzle', targets: ['refund'], fields: ['refundId', 'amount'], arbitrated: false, skipsDuplicates: false, fix: 'on-conflict-do-nothing-call' }]],
    ['onConflictDoNothing on a target', `await db.insert(schema.inbox).values({ messageId }).onConflictDoNothing({ target: inbox.messageId });`, [{ kind: 'insert', library: 'drizzle', targets: ['inbox'], fields: ['messageId'], conflictTarget: ['messageId'], arbitrated: true, skipsDuplicates: true }]],
    ['select().from(table) is a read', `await db.select().from(refunds).where(eq(refunds.id, id));`, [{ kind: 'read', library: 'drizzle', targets: ['refund'], fields: [], arbitrated: false, skipsDuplicates: false }]],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
