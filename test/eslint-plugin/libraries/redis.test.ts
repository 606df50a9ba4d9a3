import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

const claim = (targets: string[], field = 'key') => ({
  kind: 'upsert',
  library: 'redis',
  targets,
  fields: [field],
  conflictTarget: [field],
  arbitrated: true,
  skipsDuplicates: true,
});
const read = (targets: string[]) => ({
  kind: 'read',
  library: 'redis',
  targets,
  fields: [],
  arbitrated: false,
  skipsDuplicates: false,
});
const store = (targets: string[], fix = true) => ({
  kind: 'insert',
  library: 'redis',
  targets,
  fields: ['key'],
  arbitrated: false,
  skipsDuplicates: false,
  ...(fix ? { fix: 'nx' } : {}),
});

const adds = (targets: string[], added: string) => ({
  kind: 'update',
  library: 'redis',
  targets,
  fields: [],
  adds: [added],
  arbitrated: false,
  skipsDuplicates: false,
});

describe('redis adapter', () => {
  it.each([
    ['GET is a read of the key shape', 'await redis.get(`seen:${id}`);', [read(['seen:*'])]],
    ['SET … NX claims the key', "await redis.set(`seen:${id}`, '1', 'EX', 3600, 'NX');", [claim(['seen:*'])]],
    [
      'a plain SET stores state, with NX offered as the fix',
      "await redis.set(`seen:${id}`, '1');",
      [store(['seen:*'])],
    ],
    [
      'node-redis options object',
      "import { createClient } from 'redis'; await client.set(key, '1', { NX: true });",
      [claim(['key'])],
    ],
    ['a cache that is a Map is not Redis', 'await cacheMap.get(key);', []],
    ['a key held in a constant', "const SEEN = 'seen'; await redis.get(SEEN);", [read(['seen'])]],

    // Recognised by the command's shape, whatever the client is called.
    [
      'an injected client: SET with EX and NX words',
      "await this.store.set(key, '1', 'EX', 60, 'NX');",
      [claim(['key'])],
    ],
    [
      'an injected client: SET with an options object',
      'await this.store.set(key, "1", { NX: true, EX: 60 });',
      [claim(['key'])],
    ],
    [
      'an injected client: Upstash lower-case options',
      'await this.kvStore.set(key, "1", { nx: true, ex: 60 });',
      [claim(['key'])],
    ],
    [
      'an injected client: SET with a TTL but no NX stores state',
      "await this.store.set(key, '1', 'EX', 60);",
      [store(['key'])],
    ],
    ["setnx is Redis's alone", "await this.store.setnx(key, '1');", [claim(['key'])]],
    ['hsetnx claims a field of a hash', "await this.store.hsetnx('inbox', id, '1');", [claim(['inbox'], 'field')]],
    [
      'a sibling command proves the receiver: GET on the client that SET … EX elsewhere',
      "async function a() { await this.store.get(key); } async function b() { await this.store.set(key, '1', 'EX', 60); }",
      [read(['key']), store(['key'])],
    ],
    [
      'a client made by new Redis() from ioredis',
      "import Redis from 'ioredis'; const store = new Redis(); await store.get(key);",
      [read(['key'])],
    ],
    [
      'a client declared with a type from a Redis module',
      "import type { RedisClientType } from 'redis'; class Inbox { constructor(private readonly store: RedisClientType) {} async seen(k) { return this.store.get(k); } }",
      [read(['k'])],
    ],

    // Near misses: an injected store without Redis evidence.
    [
      'near miss: an injected store with get and set only is not taken for Redis',
      'async function a() { if (await this.store.get(k)) return; await this.store.set(k, v); }',
      [],
    ],
    [
      'near miss: a sibling on another receiver proves nothing here',
      "await this.locks.set(k, '1', 'NX'); await this.store.get(k);",
      [claim(['k'])],
    ],
    ['near miss: a Map named store', 'const store = new Map(); store.get(k); store.set(k, v);', []],
    [
      "near miss: a Map named like a store in a file that imports ioredis (a rate limiter's fallback)",
      "import Redis from 'ioredis'; const inMemoryStore = new Map(); inMemoryStore.get(k); inMemoryStore.set(k, v);",
      [],
    ],
    [
      "near miss: an object key is another library's get",
      "await this.store.get({ TableName: 'inbox', Key: { pk } }); await this.store.setnx(k, '1');",
      [claim(['k'])],
    ],

    // Sets and sorted sets: the member is what is claimed.
    [
      'SADD claims the member in the set',
      "await redis.sadd('processed', messageId);",
      [claim(['processed'], 'member')],
    ],
    ['SISMEMBER reads the set', "await redis.sismember('processed', messageId);", [read(['processed'])]],
    [
      'node-redis sAdd and sIsMember',
      "await client.sIsMember('processed', id); await client.sAdd('processed', id);",
      [read(['processed']), claim(['processed'], 'member')],
    ],
    [
      'ZADD claims the member after its score',
      "await this.store.zadd('seen', Date.now(), id);",
      [claim(['seen'], 'member')],
    ],
    ['ZADD with NX and a score', "await this.store.zadd('seen', 'NX', Date.now(), id);", [claim(['seen'], 'member')]],
    [
      'node-redis zAdd with { score, value }',
      "await client.zAdd('seen', { score: Date.now(), value: id });",
      [claim(['seen'], 'member')],
    ],
    ['ZSCORE reads the sorted set', "await this.store.zscore('seen', id);", [read(['seen'])]],
    [
      'ZADD INCR returns a score, not whether the member was new',
      "await redis.zadd('hits', 'INCR', 1, id);",
      [
        {
          kind: 'insert',
          library: 'redis',
          targets: ['hits'],
          fields: ['member'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'SREM deletes a member',
      "await redis.srem('processing', id);",
      [
        {
          kind: 'delete',
          library: 'redis',
          targets: ['processing'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],

    // Transactions and pipelines.
    ['commands chained on multi()', "await redis.multi().set(k, v, 'NX').expire(k, 60).exec();", [claim(['k'])]],
    [
      'a pipeline held in a constant, on an injected client proven by exec()',
      'const tx = this.store.pipeline(); tx.get(k); tx.set(k, v); await tx.exec();',
      [read(['k']), store(['k'])],
    ],
    [
      'ioredis tuples: one operation per command',
      "await this.store.multi([['get', k], ['set', k, v, 'NX'], ['expire', k, 60]]).exec();",
      [read(['k']), { ...claim(['k']) }],
    ],
    ['near miss: a multi() of something else', 'await builder.multi([1, 2]);', []],

    // Increments: updates that add to what the key or a hash's field holds.
    ['INCRBY adds to the key', 'await redis.incrby(`credits:${userId}`, amount);', [adds(['credits:*'], 'credits:*')]],
    [
      'HINCRBY adds to a field of the hash (node-redis spelling)',
      "await client.hIncrBy(`wallet:${userId}`, 'balance', cents);",
      [adds(['wallet:*'], 'balance')],
    ],
    [
      'INCRBY proves an injected client is Redis; INCR on it is one too',
      "await this.store.incrBy(`usage:${orgId}`, minutes); await this.store.incr('seen');",
      [adds(['usage:*'], 'usage:*'), adds(['seen'], 'seen')],
    ],
    ['queued on a pipeline', 'await redis.pipeline().hincrby(key, field, 1).exec();', [adds(['key'], 'field')]],
    ['near miss: incr of something that is not Redis', 'counter.incr(1);', []],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
