import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

const lock = {
  kind: 'serialisation',
  library: 'redis-locks',
  targets: [],
  fields: [],
  arbitrated: false,
  skipsDuplicates: false,
};

describe('redis-locks adapter', () => {
  it.each([
    [
      "redis-semaphore's Mutex, acquired",
      `import { Mutex } from 'redis-semaphore'; const mutex = new Mutex(redis, 'sweep'); await mutex.acquire();`,
      [lock],
    ],
    [
      'a RedlockMutex, tried',
      `import { RedlockMutex } from 'redis-semaphore'; const mutex = new RedlockMutex([a, b, c], 'sweep'); await mutex.tryAcquire();`,
      [lock],
    ],
    [
      "Redlock's acquire, and the work its using() runs",
      `import Redlock from 'redlock'; const redlock = new Redlock([redis]); await redlock.acquire(['a'], 5000); await redlock.using(['b'], 5000, async () => {});`,
      [lock, lock],
    ],
    [
      'Redlock v4, required, and a lock taken by a class field declared with its type',
      `const Redlock = require('redlock'); const redlock = new Redlock([redis]); await redlock.lock('a', 5000);
       import type { default as Lock } from '@sesamecare-oss/redlock';
       class Sweep { constructor(private locks: Lock) {} async run() { await this.locks.acquire(['a'], 5000); } }`,
      [lock, lock],
    ],
    [
      'the near miss: a semaphore of several permits is no lock',
      `import { Semaphore } from 'redis-semaphore'; const permits = new Semaphore(redis, 'sweep', 3); await permits.acquire();`,
      [],
    ],
    [
      "the near miss: a Mutex kept in the process's memory serialises one process only",
      `import { Mutex } from 'async-mutex'; const mutex = new Mutex(); await mutex.acquire();`,
      [],
    ],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code).filter((operation) => operation.library === 'redis-locks')).toEqual(expected);
  });
});
