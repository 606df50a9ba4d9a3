import { describe, expect, it } from 'vitest';

import { probesIn } from '../support/analyse.js';
import { collectionOf } from '../../../eslint-plugin/src/analysis/work/collections.js';

/** What each `probe(…)` argument is as a collection of the process's memory: its label, or `none`. */
function collectionsIn(code: string): string[] {
  return probesIn(code, (probe, analysis) => {
    const collection = probe.arguments[0] && collectionOf(probe.arguments[0], analysis.file);
    return collection ? `${collection.name}: ${collection.spec.label}` : 'none';
  });
}

describe('memory-caches adapter and the runtime collections', () => {
  it.each([
    [
      'lru-cache: LRUCache, and a default import by any name',
      `import { LRUCache } from 'lru-cache'; import LRU from 'lru-cache'; const a = new LRUCache({ max: 10 }); const b = new LRU(100); probe(a); probe(b);`,
      ['a: an LRU cache', 'b: an LRU cache'],
    ],
    [
      'quick-lru and node-cache',
      `import QuickLRU from 'quick-lru'; import NodeCache from 'node-cache'; const a = new QuickLRU({ maxSize: 10 }); const b = new NodeCache(); probe(a); probe(b);`,
      ['a: an LRU cache', 'b: a node-cache'],
    ],
    [
      'a class named like a cache but not imported from one is not one',
      `const a = new LRUCache(); const b = new NodeCache(); probe(a); probe(b);`,
      ['none', 'none'],
    ],
    [
      'the built-in Set and Map, empty arrays and objects',
      `const a = new Set<string>(); const b = new Map(); const c: string[] = []; const d = {} as Record<string, number>; probe(a); probe(b); probe(c); probe(d);`,
      ['a: a Set', 'b: a Map', 'c: an array', 'd: an object'],
    ],
    [
      'a WeakMap, a WeakSet and a list with elements are not kept ids',
      `const a = new WeakMap(); const b = new WeakSet(); const c = ['admin']; probe(a); probe(b); probe(c);`,
      ['none', 'none', 'none'],
    ],
    [
      'a Set imported from another library is not the built-in one',
      `import { Set } from 'immutable'; const a = new Set(); probe(a);`,
      ['none'],
    ],
    ['a Set made inside a function lives for one call', `function f() { const a = new Set(); probe(a); }`, ['none']],
    [
      'class fields, declared or assigned in the constructor',
      `class W { private readonly seen = new Set(); constructor() { this.done = new Map(); } f() { probe(this.seen); probe(this.done); } }`,
      ['seen: a Set', 'done: a Map'],
    ],
  ])('%s', (_name, code, expected) => {
    expect(collectionsIn(code)).toEqual(expected);
  });
});
