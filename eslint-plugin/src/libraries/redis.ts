import type { TSESTree } from '@typescript-eslint/utils';

import {
  calleeName,
  constantInitializer,
  memberPath,
  objectProperty,
  staticText,
  unwrapExpression,
  walk,
  type AdapterFile,
  type DataAdapter,
  type DataOperation,
  type Field,
} from '../analysis/index.js';
import { declaredFrom } from './shared/declared-types.js';

/**
 * Redis (ioredis, node-redis, Upstash, Valkey): `get`/`exists` reads, `set` writes, `SET … NX`
 * claims; set and sorted-set members (`sadd`/`sismember`, `zadd`/`zscore`), where the member is
 * what is claimed; `incrby`/`hincrby` and their kin, updates that add to a value; commands queued
 * on `multi()`/`pipeline()`, chained or as ioredis tuples.
 *
 * A client is Redis by evidence: its name (`redis`, `valkey`), how it was made (`new Redis()`,
 * `createClient()` from a Redis module) or declared (`store: Redis`), the shape of a command on it
 * (`set(k, v, 'EX', 60, 'NX')`, `{ NX: true }`, a command no other store has, such as `setnx` or
 * `zadd`), or such a command on the same receiver elsewhere in the file. `this.store.get(k)` and
 * `this.store.set(k, v)` alone say nothing: a Map or another cache has the same methods.
 */

const redisModules = /^(ioredis|redis|@redis\/client|@upstash\/redis|iovalkey|@valkey\/valkey-glide)$/;

type Role = 'read' | 'write' | 'claim' | 'add' | 'increment' | 'delete';

interface Command {
  role: Role;
  /** The argument that names what is read or claimed inside the key: a set's member, a hash's field. */
  member?: 'second' | 'sorted';
  /** How that argument is named in fields: `member` of a set, `field` of a hash. */
  memberName?: 'member' | 'field';
  /** Commands no other store has: a call of one is evidence that its receiver is Redis. */
  only?: boolean;
}

/** By lower-case name; node-redis spells them in camel case (`sIsMember`, `hSetNX`), ioredis in lower case. */
const commands: Readonly<Record<string, Command>> = {
  get: { role: 'read' },
  exists: { role: 'read' },
  getex: { role: 'read', only: true },
  hget: { memberName: 'field', role: 'read', member: 'second', only: true },
  hexists: { memberName: 'field', role: 'read', member: 'second', only: true },
  sismember: { role: 'read', member: 'second', only: true },
  zscore: { role: 'read', member: 'second', only: true },
  set: { role: 'write' },
  hset: { role: 'write', only: true },
  setex: { role: 'write', only: true },
  psetex: { role: 'write', only: true },
  setnx: { role: 'claim', only: true },
  hsetnx: { memberName: 'field', role: 'claim', member: 'second', only: true },
  // SADD and ZADD reply with how many members were new: their reply settles duplicates.
  sadd: { role: 'add', member: 'second', only: true },
  zadd: { role: 'add', member: 'sorted', only: true },
  // INCR and its kin add to what the key (or a hash's field) holds: a second run adds again.
  incr: { role: 'increment' },
  decr: { role: 'increment' },
  incrby: { role: 'increment', only: true },
  decrby: { role: 'increment', only: true },
  incrbyfloat: { role: 'increment', only: true },
  hincrby: { memberName: 'field', role: 'increment', member: 'second', only: true },
  hincrbyfloat: { memberName: 'field', role: 'increment', member: 'second', only: true },
  del: { role: 'delete' },
  srem: { role: 'delete', member: 'second', only: true },
  zrem: { role: 'delete', member: 'sorted', only: true },
};
const camelCase = [
  'getEx',
  'hGet',
  'hExists',
  'sIsMember',
  'zScore',
  'hSet',
  'setEx',
  'pSetEx',
  'setNX',
  'hSetNX',
  'sAdd',
  'zAdd',
  'sRem',
  'zRem',
  'incrBy',
  'decrBy',
  'incrByFloat',
  'hIncrBy',
  'hIncrByFloat',
];
/** Commands that prove their receiver is Redis without being recognised as operations. */
const otherOnly = new Set([
  'expire',
  'pexpire',
  'hgetall',
  'smembers',
  'zrange',
  'zrangebyscore',
  'lpush',
  'rpush',
  'lrange',
  'xadd',
  'evalsha',
  'setrange',
]);
const queues = new Set(['multi', 'pipeline']);

function commandOf(method: string): Command | undefined {
  const lower = method.toLowerCase();
  if (method !== lower && !camelCase.includes(method)) return undefined;
  return Object.hasOwn(commands, lower) ? commands[lower] : undefined;
}

/** SET's option words (ioredis) and keys (node-redis upper case, Upstash lower case). */
const optionWords = /^(NX|XX|EX|PX|EXAT|PXAT|KEEPTTL|GET)$/i;
const optionKeys = /^(NX|XX|EX|PX|EXAT|PXAT|KEEPTTL|GET|nx|xx|ex|px|exat|pxat|keepTtl)$/;

function optionObject(node: TSESTree.Node): TSESTree.ObjectExpression | undefined {
  const object = unwrapExpression(node);
  if (object.type !== 'ObjectExpression' || object.properties.length === 0) return undefined;
  const keys = object.properties.map((property) =>
    property.type === 'Property' && property.key.type === 'Identifier' ? property.key.name : undefined,
  );
  return keys.every((key) => key !== undefined && optionKeys.test(key)) ? object : undefined;
}

/** Arguments after the key and value that only Redis's SET takes: `'EX', 60, 'NX'`, `{ NX: true }`. */
function hasSetOptions(args: readonly TSESTree.Node[]): boolean {
  return args.slice(2).some((argument) => {
    const node = unwrapExpression(argument);
    if (node.type === 'Literal') return typeof node.value === 'string' && optionWords.test(node.value);
    return optionObject(node) !== undefined;
  });
}

function hasNx(args: readonly TSESTree.Node[]): boolean {
  return args.some((argument) => {
    const node = unwrapExpression(argument);
    if (node.type === 'Literal') return typeof node.value === 'string' && node.value.toUpperCase() === 'NX';
    if (node.type === 'ObjectExpression') {
      return node.properties.some(
        (property) =>
          property.type === 'Property' && property.key.type === 'Identifier' && /^nx$/i.test(property.key.name),
      );
    }
    return false;
  });
}

/** The command's own shape says Redis. */
function shapeSaysRedis(method: string, args: readonly TSESTree.Node[]): boolean {
  const command = commandOf(method);
  if (command?.only || otherOnly.has(method.toLowerCase())) return true;
  return command !== undefined && method.toLowerCase() === 'set' && hasSetOptions(args);
}

/**
 * The client a command is sent to: the receiver itself, or, for a command queued on a
 * transaction (`redis.multi().set(…).expire(…)`, `const tx = redis.pipeline(); tx.set(…)`), the
 * receiver of `multi()`.
 */
function clientOf(receiver: TSESTree.Node, file: AdapterFile): { client: TSESTree.Node; queued: boolean } {
  let node = unwrapExpression(receiver);
  if (node.type === 'Identifier') {
    const init = constantInitializer(node, file.scopeOf(node));
    const call = init && unwrapExpression(init);
    if (call?.type === 'CallExpression' && queues.has(calleeName(call.callee) ?? '')) node = call;
  }
  for (let guard = 0; guard < 32 && node.type === 'CallExpression'; guard += 1) {
    const callee = unwrapExpression(node.callee);
    if (callee.type !== 'MemberExpression') break;
    const name = calleeName(callee) ?? '';
    if (queues.has(name)) return { client: unwrapExpression(callee.object), queued: true };
    // Through the commands queued before this one, and nothing else.
    if (!commandOf(name) && !otherOnly.has(name.toLowerCase())) break;
    node = unwrapExpression(callee.object);
  }
  return { client: node, queued: false };
}

const pathOf = (node: TSESTree.Node): string | undefined => memberPath(node)?.join('.');

/**
 * The receiver paths a file proves Redis by the shape of a command sent to them, or by a
 * transaction ended with `exec()`. Found once per file, and only when a command's receiver is not
 * Redis by its name.
 */
const provenPaths = new WeakMap<TSESTree.Program, Set<string>>();

function programOf(node: TSESTree.Node): TSESTree.Program | undefined {
  let current: TSESTree.Node | undefined = node;
  while (current && current.type !== 'Program') current = current.parent;
  return current;
}

/** A glance at the text first: most files send no command that could prove anything. */
const mayProve =
  /\.(multi|pipeline|[a-z]*(setnx|sadd|zadd|sismember|zscore|setex|getex|hset|hget|hexists|srem|zrem|expire|incrby|hgetall|hincrby|smembers|zrange|lpush|rpush|lrange|xadd|evalsha|setrange|decrby|incrbyfloat))\s*\(|['"](NX|XX|EX|PX|KEEPTTL)['"]|\b(NX|EX|PX|nx|ex|px)\s*:/i;

function pathsProvenIn(program: TSESTree.Program, file: AdapterFile): Set<string> {
  let proven = provenPaths.get(program);
  if (proven) return proven;
  proven = new Set();
  provenPaths.set(program, proven);
  if (!mayProve.test(file.text(program))) return proven;
  const found = proven;
  walk(program, file.visitorKeys, (node) => {
    if (node.type !== 'CallExpression') return;
    const callee = unwrapExpression(node.callee);
    if (callee.type !== 'MemberExpression') return;
    const method = calleeName(callee);
    if (!method) return;
    const { client, queued } = clientOf(callee.object, file);
    const exec = method === 'exec' && queued;
    if (!exec && !shapeSaysRedis(method, node.arguments)) return;
    const path = pathOf(client);
    if (path) found.add(path);
  });
  return proven;
}

/** The client was made by, or declared as, something a Redis module exports. */
function madeOrDeclaredRedis(client: TSESTree.Node, file: AdapterFile): boolean {
  const fromRedis = (name: string | undefined) => {
    const source = name === undefined ? undefined : file.imports.bindings.get(name);
    return source !== undefined && redisModules.test(source);
  };
  if (declaredFrom(client, file, redisModules)) return true;
  if (client.type !== 'Identifier') return false;
  const init = constantInitializer(client, file.scopeOf(client));
  const made = init && unwrapExpression(init);
  if (made?.type === 'NewExpression' || made?.type === 'CallExpression') return fromRedis(memberPath(made.callee)?.[0]);
  // `import { connection } from './redis'`, where that module made it: `export const connection = new Redis()`.
  const imported = init ? undefined : file.importedValue(client.name);
  const value = imported && unwrapExpression(imported.value);
  if (value?.type !== 'NewExpression' && value?.type !== 'CallExpression') return false;
  const factory = memberPath(value.callee)?.[0];
  const source = factory === undefined ? undefined : imported!.imports.bindings.get(factory);
  return source !== undefined && redisModules.test(source);
}

/** A constant the file makes with a class no Redis module exports (`const store = new Map()`): not a client, whatever its name. */
function madeOtherwise(client: TSESTree.Node, file: AdapterFile): boolean {
  if (client.type !== 'Identifier') return false;
  const init = constantInitializer(client, file.scopeOf(client));
  const made = init && unwrapExpression(init);
  if (made?.type !== 'NewExpression') return false;
  const factory = memberPath(made.callee)?.[0];
  const source = factory === undefined ? undefined : file.imports.bindings.get(factory);
  return source === undefined ? !/redis|valkey|cluster/i.test(factory ?? '') : !redisModules.test(source);
}

/**
 * A Redis client by name (`redis`, `valkey`, `kv`), or, in a file that imports a Redis library,
 * a client-like name. A `cache.get`/`cache.set` elsewhere is usually a Map in memory.
 */
function namedRedis(path: string, imports: ReadonlySet<string>): boolean {
  if (/redis|valkey|upstash|(^|\.)kv$/i.test(path)) return true;
  const importsRedis = [...imports].some((source) => redisModules.test(source));
  return importsRedis && /(client|cache|store|connection|conn|pub|sub)$/i.test(path) && !/map$/i.test(path);
}

function isRedis(
  client: TSESTree.Node,
  method: string,
  args: readonly TSESTree.Node[],
  file: AdapterFile,
  tuple: boolean,
): boolean {
  const path = pathOf(client);
  if (path && /map$/i.test(path)) return false;
  if (tuple || shapeSaysRedis(method, args)) return true;
  if (!path) return false;
  if (madeOtherwise(client, file)) return false;
  if (namedRedis(path, file.imports.sources) || madeOrDeclaredRedis(client, file)) return true;
  const program = programOf(client);
  return program !== undefined && pathsProvenIn(program, file).has(path);
}

/** What a key looks like, so that a read and a write of the same key compare equal: `seen:${…}`. */
function keyShape(node: TSESTree.Node, file: Pick<AdapterFile, 'scopeOf' | 'text'>): string {
  const text = staticText(node, file.scopeOf, () => '*');
  return text ? text.text : file.text(node);
}

/**
 * The member a set or hash command names: the second argument, or a sorted set's member (after
 * the option words and each score: `zadd(key, 'NX', score, member)`; `{ score, value }` in
 * node-redis, `{ score, member }` in Upstash).
 */
function memberOf(command: Command, args: readonly TSESTree.Node[]): TSESTree.Node | undefined {
  if (command.member === 'second') return args[1];
  if (command.member !== 'sorted') return undefined;
  const rest = args.slice(1);
  const first = rest[0] && unwrapExpression(rest[0]);
  const entry = first?.type === 'ArrayExpression' ? first.elements[0] && unwrapExpression(first.elements[0]) : first;
  if (entry?.type === 'ObjectExpression')
    return (objectProperty(entry, 'value') ?? objectProperty(entry, 'member'))?.value;
  const scored = rest.findIndex((argument) => {
    const node = unwrapExpression(argument);
    return !(node.type === 'Literal' && typeof node.value === 'string' && /^(NX|XX|GT|LT|CH|INCR)$/i.test(node.value));
  });
  return scored < 0 ? undefined : rest[scored + 1];
}

interface Sent {
  method: string;
  args: readonly TSESTree.Node[];
  node: TSESTree.Node;
  /** The call itself, when a fix may edit its arguments. */
  call?: TSESTree.CallExpression;
}

function operationOf(sent: Sent, file: AdapterFile): DataOperation | undefined {
  const { method, args, node, call } = sent;
  const command = commandOf(method);
  const key = args[0];
  if (!command || !key) return undefined;
  const shape = keyShape(key, file);
  const verb = method.toUpperCase();
  const member = memberOf(command, args);
  const label = member
    ? `the Redis ${verb} of '${file.code(member)}' in '${shape}'`
    : `the Redis ${verb} of '${shape}'`;
  const fields: Field[] = member
    ? [{ name: command.memberName ?? 'member', values: [member], functions: [] }]
    : [{ name: 'key', values: [key], functions: [] }];
  const base = {
    library: 'redis' as const,
    targets: [shape],
    key: { node: key, shape: keyShape },
    node,
    fields,
    arbitrated: false,
  };
  if (command.role === 'read') return { ...base, kind: 'read', label, fields: [] };
  if (command.role === 'delete') return { ...base, kind: 'delete', label, fields: [] };
  if (command.role === 'increment') {
    // What it adds to: a hash's field, or the key's own value.
    const counter = member ? keyShape(member, file) : shape;
    const where = member ? `'${counter}' in '${shape}'` : `'${shape}'`;
    return { ...base, kind: 'update', label: `the Redis ${verb} of ${where}`, fields: [], adds: [counter] };
  }
  const increments =
    command.member === 'sorted' &&
    args.some((argument) => argument.type === 'Literal' && argument.value === 'INCR') &&
    !hasNx(args);
  const nx = command.role === 'claim' || (command.role === 'add' && !increments) || hasNx(args.slice(2));
  const objectOptions = [...file.imports.sources].some((source) =>
    /^(redis|@redis\/client|@upstash\/redis)$/.test(source),
  );
  const last = args[args.length - 1];
  // What the write stores under its key: SET k v, SETEX k seconds v, HSET k field v.
  const valueAt =
    method === 'setex' ||
    method === 'psetex' ||
    method === 'setEx' ||
    method === 'pSetEx' ||
    command.memberName === 'field' ||
    method === 'hset' ||
    method === 'hSet'
      ? 2
      : 1;
  // HSET k { field: v } (node-redis, Upstash): the object is what is stored.
  const fieldObject =
    (method === 'hset' || method === 'hSet') && args[1]?.type === 'ObjectExpression' ? [args[1]] : undefined;
  const stored = command.role === 'add' ? [] : (fieldObject ?? args.slice(valueAt, valueAt + 1));
  return {
    ...base,
    kind: nx ? 'upsert' : 'insert',
    label,
    stored,
    conflictTarget: nx ? [fields[0].name] : undefined,
    arbitrated: nx,
    skipsDuplicates: nx,
    fix:
      nx || method !== 'set' || args.length < 2 || !call
        ? undefined
        : {
            edit: 'nx',
            // node-redis and Upstash take options as an object; ioredis takes the word NX.
            apply: (fixer) => {
              const options = unwrapExpression(last);
              if (options.type === 'ObjectExpression' && options.properties[0])
                return fixer.insertTextBefore(options.properties[0], 'NX: true, ');
              return fixer.insertTextAfter(last, objectOptions ? ', { NX: true }' : ", 'NX'");
            },
          },
  };
}

/** ioredis: `redis.multi([['set', k, v, 'NX'], ['expire', k, 60]])`, one operation per tuple. */
function tupleOperations(call: TSESTree.CallExpression, file: AdapterFile): DataOperation[] {
  const [list] = call.arguments;
  const tuples = list && unwrapExpression(list);
  if (tuples?.type !== 'ArrayExpression') return [];
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return [];
  const sent: Sent[] = [];
  for (const element of tuples.elements) {
    const tuple = element && unwrapExpression(element);
    if (tuple?.type !== 'ArrayExpression') return [];
    const [name, ...rest] = tuple.elements;
    if (
      name?.type !== 'Literal' ||
      typeof name.value !== 'string' ||
      rest.some((item) => !item || item.type === 'SpreadElement')
    )
      return [];
    sent.push({ method: name.value.toLowerCase(), args: rest as TSESTree.Node[], node: tuple });
  }
  if (sent.length === 0 || !sent.some((each) => commandOf(each.method) || otherOnly.has(each.method))) return [];
  if (!isRedis(unwrapExpression(callee.object), 'multi', [], file, true)) return [];
  return sent.flatMap((each) => operationOf(each, file) ?? []);
}

function redisOperations(
  call: TSESTree.CallExpression,
  file: AdapterFile,
): DataOperation | DataOperation[] | undefined {
  const callee = unwrapExpression(call.callee);
  const method = calleeName(callee);
  if (callee.type !== 'MemberExpression' || !method) return undefined;
  if (queues.has(method)) return tupleOperations(call, file);
  const args = call.arguments;
  if (!commandOf(method) || !args[0] || args.some((argument) => argument.type === 'SpreadElement')) return undefined;
  // A key is text: `get({ TableName })` or `get(Refund, id)` is another library's.
  const key = unwrapExpression(args[0]);
  if (key.type === 'ObjectExpression' || key.type === 'ArrayExpression') return undefined;
  const { client } = clientOf(callee.object, file);
  if (!isRedis(client, method, args, file, false)) return undefined;
  return operationOf({ method, args, node: call, call }, file);
}

export const redis: DataAdapter = {
  kind: 'store',
  name: 'redis',
  label: 'Redis',
  modules: [redisModules],
  methods: new Set([...Object.keys(commands), ...camelCase, ...queues]),
  recognise: (node, file) => (node.type === 'CallExpression' ? redisOperations(node, file) : undefined),
  remedy: 'SET … NX and check its reply',
  keyPolicy: 'whole-key',
};
