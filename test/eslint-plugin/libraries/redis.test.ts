import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

describe('redis adapter', () => {
  it.each([
    ['GET is a read of the key shape', 'await redis.get(`seen:${id}`);', [{ kind: 'read', library: 'redis', targets: ['seen:*'], fields: [], arbitrated: false, skipsDuplicates: false }]],
    ['SET … NX claims the key', "await redis.set(`seen:${id}`, '1', 'EX', 3600, 'NX');", [{ kind: 'upsert', library: 'redis', targets: ['seen:*'], fields: ['key'], conflictTarget: ['key'], arbitrated: true, skipsDuplicates: true }]],
    ['a plain SET stores state, with NX offered as the fix', "await redis.set(`seen:${id}`, '1');", [{ kind: 'insert', library: 'redis', targets: ['seen:*'], fields: ['key'], arbitrated: false, skipsDuplicates: false, fix: 'nx' }]],
    ['node-redis options object', "import { createClient } from 'redis'; await client.set(key, '1', { NX: true });", [{ kind: 'upsert', library: 'redis', targets: ['key'], fields: ['key'], conflictTarget: ['key'], arbitrated: true, skipsDuplicates: true }]],
    ['a cache that is a Map is not Redis', 'await cacheMap.get(key);', []],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
