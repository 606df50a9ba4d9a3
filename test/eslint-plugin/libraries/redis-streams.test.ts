import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('redis-streams adapter', () => {
  it.each([
    [
      'ioredis XREADGROUP, destructured by position',
      `const reply = await redis.xreadgroup('GROUP', 'g', 'c', 'COUNT', 10, 'STREAMS', 'refunds', '>'); for (const [stream, entries] of reply ?? []) { for (const [id, fields] of entries) { probe(id); probe(stream); probe(fields); } }`,
      [['delivery:the stream entry id'], ['unknown'], ['unknown']],
    ],
    [
      'entries read by index',
      `const reply = await redis.xreadgroup('GROUP', 'g', 'c', 'STREAMS', 's', '>'); const entry = reply[0][1][0]; probe(entry[0]); probe(JSON.parse(entry[1][1]).refundId);`,
      [['delivery:the stream entry id'], ['business']],
    ],
    [
      "an entry's fields are the payload",
      `const entries = await redis.xrange('refunds', '-', '+'); for (const [, fields] of entries) { const [, json] = fields; probe(JSON.parse(json).cents); }`,
      [['amount']],
    ],
    [
      'XAUTOCLAIM: the claimed entries',
      `const [next, entries] = await redis.xautoclaim('s', 'g', 'c', 60000, '0-0'); for (const [id] of entries) probe(id); probe(next);`,
      [['delivery:the stream entry id'], ['unknown']],
    ],
    [
      'node-redis xReadGroup: objects',
      `const streams = await client.xReadGroup('g', 'c', { key: 's', id: '>' }); for (const { name, messages } of streams ?? []) { for (const m of messages) { probe(m.id); probe(m.message.orderId); probe(name); } }`,
      [['delivery:the stream entry id'], ['business'], ['unknown']],
    ],
    [
      'near miss: another pair destructured by position keeps its own meaning',
      `const [id, fields] = await db.lookup('refunds'); probe(id);`,
      [['unknown']],
    ],
    [
      'near miss: the second position of an entry is not its id',
      `const entries = await redis.xrange('s', '-', '+'); const [first] = entries; const [, fields] = first; probe(fields);`,
      [['unknown']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
