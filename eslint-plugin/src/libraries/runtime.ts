import type { ValueAdapter } from '../analysis/index.js';

/**
 * JavaScript's and Node's own values: the clock and random numbers are new on every attempt, the
 * host name and process id name the worker, and conversions or hashes keep what they are given.
 * Its Set, Map, arrays and objects are collections of the process's memory; a module that imports
 * a UI framework runs in a user's page, whose memory is theirs alone.
 */
export const runtime: ValueAdapter = {
  kind: 'values',
  name: 'runtime',
  modules: ['node:crypto', 'crypto', 'node:os', 'os'],
  mintingCalls: { randomUUID: 'a random UUID', randomBytes: 'random bytes' },
  mintingPaths: {
    'Date.now': 'the current time',
    'performance.now': 'the current time',
    'Math.random': 'a random number',
    'process.hrtime': 'the current time',
    'process.hrtime.bigint': 'the current time',
  },
  mintingConstructors: { Date: 'the current time' },
  workerPaths: {
    'os.hostname': "the worker's host name",
    hostname: "the worker's host name",
    'process.pid': "the worker's process id",
    'cluster.worker.id': 'the worker id',
  },
  workerVariables: /^(HOSTNAME|HOST|POD_NAME|POD_IP|NODE_NAME|WORKER_ID|INSTANCE_ID|DYNO)$/,
  deriving:
    /^(String|Number|BigInt|encodeURIComponent|encodeURI|escape|format|from|stringify)$|hash|digest|sha\d*|md5|crc|fnv|murmur|xxh|fingerprint|^(make|build|compose|derive|format|to)\w*key$|^key(For|Of)$|^(floor|round|ceil|trunc)$/i,
  parsing: ['JSON.parse'],
  // A WeakMap or WeakSet is keyed by objects, which never repeat across deliveries: not listed.
  collections: [
    { construct: 'Set', lookups: ['has'], records: ['add'], label: 'a Set' },
    { construct: 'Map', lookups: ['has', 'get'], records: ['set'], label: 'a Map' },
    { literal: 'array', lookups: ['includes'], records: ['push', 'unshift'], label: 'an array' },
    { literal: 'object', lookups: ['[]', 'in'], records: ['[]'], label: 'an object' },
  ],
  requests: [{ call: 'fetch', methodOption: 'method', writing: ['POST', 'PUT', 'PATCH', 'DELETE'] }],
  // UI frameworks and their companions: a module that imports one runs in a page.
  browserModules: [
    'vue',
    'vue-router',
    'vue-i18n',
    'pinia',
    'react',
    'react-dom',
    'react-dom/client',
    'preact',
    'svelte',
    /^svelte\//,
    'solid-js',
    /^@angular\/(core|common|router)$/,
  ],
};
