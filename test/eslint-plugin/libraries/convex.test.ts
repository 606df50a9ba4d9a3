import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

const server = `import { mutation, query, action } from './_generated/server'; import { v } from 'convex/values';`;

const operation = (kind: string, targets: string[], fields: string[] = [], filters?: string[]) => ({
  kind,
  library: 'convex',
  targets,
  fields,
  ...(filters ? { filters } : {}),
  arbitrated: false,
  skipsDuplicates: false,
  // Every operation on ctx.db runs in a query or a mutation: one serialisable transaction.
  serialisable: true,
});

describe('convex adapter', () => {
  it.each([
    [
      'a query by index is a read of the fields the index range matches',
      `${server} export const get = query({ handler: async (ctx, args) => ctx.db.query('events').withIndex('by_event', (q) => q.eq('eventId', args.eventId)).unique() });`,
      [operation('read', ['event'], [], ['eventId'])],
    ],
    [
      'a filter on a field is a read of it; first() and collect() read too',
      `${server} export const f = query({ handler: async (ctx, { id }) => { await ctx.db.query('events').filter((q) => q.eq(q.field('eventId'), id)).first(); await ctx.db.query('events').collect(); } });`,
      [operation('read', ['event'], [], ['eventId']), operation('read', ['event'])],
    ],
    [
      'insert names the table and the fields it writes',
      `${server} export const m = mutation({ handler: async (ctx, args) => { await ctx.db.insert('payments', { eventId: args.eventId, amount: args.amount }); } });`,
      [operation('insert', ['payment'], ['eventId', 'amount'])],
    ],
    [
      'patch and delete of a document found by a query are of its table',
      `${server} export const m = mutation({ handler: async (ctx, args) => { const existing = await ctx.db.query('users').withIndex('by_token', (q) => q.eq('token', args.token)).unique(); await ctx.db.patch(existing._id, { name: args.name }); await ctx.db.delete(existing._id); } });`,
      [operation('read', ['user'], [], ['token']), operation('update', ['user']), operation('delete', ['user'])],
    ],
    [
      'replace and get by an id whose table the code does not show',
      `${server} export const m = mutation({ handler: async (ctx, args) => { await ctx.db.get(args.id); await ctx.db.replace(args.id, { name: 'x' }); } });`,
      [operation('update', [])],
    ],
    [
      'a helper given the context, as Convex projects write them',
      `import type { MutationCtx } from './_generated/server'; export async function ensure(ctx: MutationCtx, eventId: string) { const seen = await ctx.db.query('events').withIndex('by_event', (q) => q.eq('eventId', eventId)).first(); if (!seen) await ctx.db.insert('events', { eventId }); }`,
      [operation('read', ['event'], [], ['eventId']), operation('insert', ['event'], ['eventId'])],
    ],
    [
      'near miss: a db.insert in a file that does not import Convex is not Convex',
      `export async function save(ctx, row) { await ctx.db.insert('events', row); }`,
      [],
    ],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
