import type { ValueAdapter } from '../analysis/index.js';

/**
 * lru-cache, quick-lru and node-cache: caches held in the process's memory. What they remember
 * is gone after a restart and unseen by any other process, however long its time to live; the
 * options that give each key one tell a record from a rate limit's memory.
 */
export const memoryCaches: ValueAdapter = {
  kind: 'values',
  name: 'memory-caches',
  modules: ['lru-cache', 'quick-lru', 'node-cache'],
  collections: [
    // lru-cache exports LRUCache (version 7 and later) and, before that, a default export often named LRU.
    {
      construct: 'LRUCache',
      from: ['lru-cache'],
      lookups: ['has', 'get', 'peek'],
      records: ['set'],
      label: 'an LRU cache',
      expiresBy: ['ttl', 'maxAge'],
    },
    {
      construct: 'LRU',
      from: ['lru-cache'],
      lookups: ['has', 'get', 'peek'],
      records: ['set'],
      label: 'an LRU cache',
      expiresBy: ['ttl', 'maxAge'],
    },
    {
      construct: 'QuickLRU',
      from: ['quick-lru'],
      lookups: ['has', 'get', 'peek'],
      records: ['set'],
      label: 'an LRU cache',
      expiresBy: ['maxAge'],
    },
    {
      construct: 'NodeCache',
      from: ['node-cache'],
      lookups: ['has', 'get'],
      records: ['set'],
      label: 'a node-cache',
      expiresBy: ['stdTTL'],
    },
  ],
};
