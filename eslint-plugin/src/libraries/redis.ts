import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../analysis/file-context.js';
import type { DataOperation } from '../analysis/operations/types.js';
import { calleeName, memberPath, unwrapExpression } from '../analysis/scope.js';
import { staticText, type ScopeOf } from '../analysis/static-text.js';
import type { DataAdapter } from './types.js';

/** Redis (ioredis, node-redis, Upstash): `get`/`exists` reads, `set` writes, `SET … NX` claims. */

const redisModules = /^(ioredis|redis|@redis\/client|@upstash\/redis|iovalkey|@valkey\/valkey-glide)$/;
const reads = new Set(['get', 'exists', 'sismember', 'hget', 'hexists', 'getex', 'sIsMember', 'hGet', 'hExists']);
const writes = new Set(['set', 'hset', 'setex', 'psetex', 'hSet', 'setEx', 'pSetEx']);
const claims = new Set(['setnx', 'hsetnx', 'sadd', 'setNX', 'hSetNX', 'sAdd']);

/**
 * A Redis client: named so (`redis`, `valkey`, `kv`), or, in a file that imports a Redis
 * library, a client-like name. A `cache.get`/`cache.set` elsewhere is usually a Map in memory.
 */
function looksLikeRedis(receiver: TSESTree.Node, imports: ReadonlySet<string>): boolean {
  const path = memberPath(receiver)?.join('.') ?? '';
  if (/redis|valkey|upstash|(^|\.)kv$/i.test(path)) return true;
  const importsRedis = [...imports].some((source) => redisModules.test(source));
  return importsRedis && /(client|cache|store|connection|conn|pub|sub)$/i.test(path) && !/map$/i.test(path);
}

/** What a key looks like, so that a read and a write of the same key compare equal: `seen:${…}`. */
function keyShape(node: TSESTree.Node, scopeOf: ScopeOf, sourceText: (node: TSESTree.Node) => string): string {
  const text = staticText(node, scopeOf, () => '*');
  return text ? text.text : sourceText(node);
}

function hasNx(args: TSESTree.CallExpressionArgument[]): boolean {
  return args.some((argument) => {
    const node = unwrapExpression(argument);
    if (node.type === 'Literal') return typeof node.value === 'string' && node.value.toUpperCase() === 'NX';
    if (node.type === 'ObjectExpression') {
      return node.properties.some(
        (property) => property.type === 'Property' && property.key.type === 'Identifier' && /^nx$/i.test(property.key.name),
      );
    }
    return false;
  });
}

function redisOperation(call: TSESTree.CallExpression, file: FileContext): DataOperation | undefined {
  const scopeOf = file.scopeOf;
  const imports = file.imports.sources;
  const callee = unwrapExpression(call.callee);
  const method = calleeName(callee);
  const [key] = call.arguments;
  if (callee.type !== 'MemberExpression' || !method || !key || key.type === 'SpreadElement') return undefined;
  if (!reads.has(method) && !writes.has(method) && !claims.has(method)) return undefined;
  if (!looksLikeRedis(callee.object, imports)) return undefined;
  const shape = keyShape(key, scopeOf, file.text);
  const base = { library: 'redis' as const, targets: [shape], node: call, fields: [{ name: 'key', values: [key], functions: [] }] };
  const label = `the Redis ${method.toUpperCase()} of \`${shape}\``;
  if (reads.has(method)) return { ...base, kind: 'read', label, fields: [], arbitrated: false };
  const nx = claims.has(method) || hasNx(call.arguments.slice(2));
  const objectOptions = [...imports].some((source) => /^(redis|@redis\/client|@upstash\/redis)$/.test(source));
  const last = call.arguments[call.arguments.length - 1]!;
  return {
    ...base,
    kind: nx ? 'upsert' : 'insert',
    label,
    conflictTarget: nx ? ['key'] : undefined,
    arbitrated: nx,
    skipsDuplicates: nx,
    fix:
      nx || method !== 'set' || call.arguments.length < 2
        ? undefined
        : {
            edit: 'nx',
            // node-redis and Upstash take options as an object; ioredis takes the word NX.
            apply: (fixer) => {
              const options = unwrapExpression(last);
              if (options.type === 'ObjectExpression' && options.properties[0]) return fixer.insertTextBefore(options.properties[0], 'NX: true, ');
              return fixer.insertTextAfter(last, objectOptions ? ', { NX: true }' : ", 'NX'");
            },
          },
  };
}

export const redis: DataAdapter = {
  kind: 'store',
  name: 'redis',
  label: 'Redis',
  modules: [redisModules],
  methods: new Set([...reads, ...writes, ...claims]),
  recognise: (node, file) => (node.type === 'CallExpression' ? redisOperation(node, file) : undefined),
  remedy: 'SET … NX and check its reply',
  keyPolicy: 'whole-key',
};
