import type { TSESTree } from '@typescript-eslint/utils';

import {
  constantInitializer,
  propertyName,
  unwrapExpression,
  type AdapterFile,
  type DataAdapter,
} from '../analysis/index.js';
import { declaredTypeName } from './shared/declared-types.js';

/**
 * Locks held in Redis, which every instance of a service sees: redis-semaphore's `Mutex` and
 * `RedlockMutex` (`await mutex.acquire()`), and Redlock (`redlock.acquire([key], ttl)`,
 * `redlock.using(…)`, v4's `redlock.lock(key, ttl)`). Taking one serialises the workers that
 * take it, so what they read afterwards is read under it. A semaphore of several permits does
 * not serialise, nor does a lock kept in the process's memory.
 */

const lockModules = /^(redis-semaphore|redlock|@sesamecare-oss\/redlock)$/;
/** The classes whose instances are one lock (or make them), by the name their module exports them under. */
const lockClasses = new Set(['Mutex', 'RedlockMutex', 'Redlock']);
const lockMethods = new Set(['acquire', 'tryAcquire', 'using', 'lock']);
/** Redlock is its module's main export. */
const mainExportIsLock = /redlock$/;

/** Was the receiver made by `new` of a lock class from a lock module, or declared with such a type? */
function isLock(receiver: TSESTree.Node, file: AdapterFile): boolean {
  const value = unwrapExpression(receiver);
  const made = value.type === 'Identifier' ? constantInitializer(value, file.scopeOf(value)) : undefined;
  const name =
    made?.type === 'NewExpression' && made.callee.type === 'Identifier'
      ? made.callee.name
      : declaredTypeName(receiver, file);
  const source = name === undefined ? undefined : file.imports.bindings.get(name);
  if (name === undefined || source === undefined || !lockModules.test(source)) return false;
  const exported = file.imports.names.get(name) ?? '';
  return lockClasses.has(exported) || ((exported === 'default' || exported === '*') && mainExportIsLock.test(source));
}

export const redisLocks: DataAdapter = {
  kind: 'store',
  name: 'redis-locks',
  label: 'a Redis lock',
  modules: [lockModules],
  methods: lockMethods,
  recognise(node, file) {
    if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return undefined;
    if (!lockMethods.has(propertyName(node.callee) ?? '') || !isLock(node.callee.object, file)) return undefined;
    return {
      kind: 'serialisation',
      library: 'redis-locks',
      targets: [],
      node,
      label: `${file.code(node.callee)}()`,
      fields: [],
      arbitrated: false,
    };
  },
  remedy: 'let a unique key settle the duplicate',
};
