import type { BrokerAdapter } from '../analysis/index.js';

/**
 * Redis Streams as a broker: entries read with XREADGROUP, XREAD, XRANGE, XCLAIM and XAUTOCLAIM.
 * An entry's id is its place in the stream, the same when another consumer claims it, and so
 * delivery identity; its fields are the producer's content. ioredis answers with nested arrays
 * (`[[stream, [[id, fields]]]]`), node-redis with objects (`[{ name, messages: [{ id, message }] }]`).
 */
export const redisStreams: BrokerAdapter = {
  kind: 'broker',
  name: 'redis-streams',
  entry: 'Redis stream consumer',
  // The stream commands are Redis's own names, whatever the client; the client modules belong to
  // the redis adapter.
  modules: [],
  shapes: {
    // ioredis: [[stream, entries], …]
    reply: { otherMembers: 'opaque', elements: { shape: 'redis-streams:stream' } },
    stream: { otherMembers: 'opaque', positions: [{ kind: 'unknown' }, { listOf: 'redis-streams:entry' }] },
    entries: { otherMembers: 'opaque', elements: { shape: 'redis-streams:entry' } },
    entry: { otherMembers: 'opaque', positions: [{ identity: 'the stream entry id' }, { shape: 'payload' }] },
    // XAUTOCLAIM: [next start id, entries, deleted ids]
    autoclaim: {
      otherMembers: 'opaque',
      positions: [{ kind: 'unknown' }, { listOf: 'redis-streams:entry' }, { kind: 'unknown' }],
    },
    // node-redis: [{ name, messages: [{ id, message }] }]
    'object-reply': { otherMembers: 'opaque', elements: { shape: 'redis-streams:object-stream' } },
    'object-stream': {
      otherMembers: 'opaque',
      members: { name: { kind: 'unknown' }, messages: { listOf: 'redis-streams:object-entry' } },
    },
    'object-entries': { otherMembers: 'opaque', elements: { shape: 'redis-streams:object-entry' } },
    'object-entry': {
      otherMembers: 'opaque',
      members: { id: { identity: 'the stream entry id' }, message: { shape: 'payload' } },
    },
    'object-autoclaim': {
      otherMembers: 'opaque',
      members: { nextId: { kind: 'unknown' }, messages: { listOf: 'redis-streams:object-entry' } },
    },
  },
  results: [
    { call: 'xreadgroup', shape: 'redis-streams:reply' },
    { call: 'xread', shape: 'redis-streams:reply' },
    { call: 'xrange', shape: 'redis-streams:entries' },
    { call: 'xrevrange', shape: 'redis-streams:entries' },
    { call: 'xclaim', shape: 'redis-streams:entries' },
    { call: 'xautoclaim', shape: 'redis-streams:autoclaim' },
    { call: 'xReadGroup', shape: 'redis-streams:object-reply' },
    { call: 'xRead', shape: 'redis-streams:object-reply' },
    { call: 'xRange', shape: 'redis-streams:object-entries' },
    { call: 'xRevRange', shape: 'redis-streams:object-entries' },
    { call: 'xClaim', shape: 'redis-streams:object-entries' },
    { call: 'xAutoClaim', shape: 'redis-streams:object-autoclaim' },
  ],
  sends: { methods: ['xadd', 'xAdd'] },
  acknowledges: ['xack', 'xAck'],
};
