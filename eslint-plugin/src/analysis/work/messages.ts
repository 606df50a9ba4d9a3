import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../context/file-context.js';
import { makerOf } from '../project/modules.js';
import { calleeName, memberPath, withoutTypeAssertions } from '../syntax/nodes.js';
import { collectionOf, localCollection } from './collections.js';

/** Which calls send a message to a broker, and which stay in the process. */

/**
 * A call that stays in the process: `JSON.stringify`, a collection's own `add` or `push` (a
 * module's, or one made in the function).
 */
export function inMemory(call: TSESTree.CallExpression, module: FileContext): boolean {
  if (call.callee.type !== 'MemberExpression') return false;
  const receiver = call.callee.object;
  return (
    memberPath(receiver)?.[0] === 'JSON' || Boolean(collectionOf(receiver, module)) || localCollection(receiver, module)
  );
}

/** A call that sends a message: a method only brokers use, or one on a receiver that reads as a producer or a queue. */
export function sends(call: TSESTree.CallExpression, module: FileContext): boolean {
  const name = calleeName(call.callee);
  if (!name) return false;
  const table = module.libraries;
  const receiver = call.callee.type === 'MemberExpression' ? call.callee.object : undefined;
  if (inMemory(call, module)) return false;
  if (table.sendMethods.has(name) && !table.collectionMethods.has(name) && name !== 'stringify') return true;
  if (receiver && table.instanceSendMethods.has(name)) {
    const maker = makerOf(withoutTypeAssertions(receiver), module);
    if (maker?.kind === 'broker' && maker.sends?.instanceMethods?.includes(name)) return true;
  }
  const receivers = table.sendReceiverMethods.get(name) ?? [];
  const text = receiver ? (memberPath(receiver)?.join('.') ?? '') : '';
  // A method shared with collections (`add`) sends only on a receiver that reads as a queue.
  if (table.sendMethods.has(name) && text && /queue|producer|publisher|channel/i.test(text)) return true;
  return receivers.some((pattern) => pattern.test(text));
}
