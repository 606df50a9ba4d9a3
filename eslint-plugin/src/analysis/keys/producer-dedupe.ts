import type { TSESTree } from '@typescript-eslint/utils';

import type { DedupeSend, ProducerDedupe } from '../contract/adapter.js';
import { isFunction, type FileContext, type FunctionNode } from '../context/file-context.js';
import { objectLiteral } from '../operations/fields.js';
import { OriginTracer } from '../origin/origin.js';
import { stampOf, textOf } from '../project/files.js';
import { listSources } from '../project/importers.js';
import { moduleContext } from '../project/modules.js';
import { projectRoot } from '../project/root.js';
import { calleeName, holderDecorator, objectProperty, unwrapExpression } from '../syntax/nodes.js';
import { constantInitializer } from '../syntax/scope.js';
import { staticText } from '../syntax/static-text.js';
import { walk } from '../syntax/walk.js';

/**
 * Does the broker itself drop the repeats a handler would see? It does when the handler reads a
 * queue that every producer in the project sends to with the broker's dedupe option, filled with
 * a value that names the operation (not a fresh id, the clock or another delivery's id). Sends
 * are looked for in the project's files that name the queue the way the registration does; a
 * queue with no send in sight is not taken as deduplicated.
 */

/** How a queue reads where it is named: its text when it is written out, else its code (`QUEUE_URL`, `process.env.QUEUE`). */
function queueName(node: TSESTree.Node, file: FileContext): string {
  const text = staticText(node, file.scopeOf, () => '*')?.text;
  return text !== undefined && /[A-Za-z0-9]/.test(text) ? text : file.text(node).replace(/\s+/g, '');
}

/** The queue named where `fn` is registered: an argument of the registering call, a property beside it, its class's decorator. */
function queueOfRegistration(fn: FunctionNode, where: ProducerDedupe['queue'][number], file: FileContext) {
  if ('classDecorator' in where) {
    const method = fn.parent;
    const owner = method?.type === 'MethodDefinition' ? method.parent.parent : undefined;
    for (const decorator of owner?.type === 'ClassDeclaration' ? owner.decorators : []) {
      const call = decorator.expression;
      if (call.type !== 'CallExpression' || calleeName(call.callee) !== where.classDecorator) continue;
      const [first] = call.arguments;
      const options = first && objectLiteral(first, file.scopeOf);
      const named = options ? objectProperty(options, 'name')?.value : first;
      return named ? queueName(named, file) : undefined;
    }
    return undefined;
  }
  for (const site of file.functionSites(fn)) {
    const parent = site.parent;
    if ('argument' in where && (parent?.type === 'CallExpression' || parent?.type === 'NewExpression')) {
      const queue = parent.arguments[where.argument];
      if (parent.arguments.includes(site as TSESTree.CallExpressionArgument) && queue && queue !== site)
        return isFunction(queue) ? undefined : queueName(queue, file);
    }
    if ('property' in where && parent?.type === 'Property' && parent.value === site) {
      const sibling =
        parent.parent.type === 'ObjectExpression' ? objectProperty(parent.parent, where.property) : undefined;
      if (sibling) return queueName(sibling.value, file);
    }
  }
  return undefined;
}

/** The queue a receiver sends to: `new Queue(name)` held in a constant, or a field injected with `@InjectQueue(name)`. */
function receiverQueue(
  receiver: TSESTree.Node,
  send: Extract<DedupeSend, { construct: string }>,
  file: FileContext,
): string | undefined {
  const node = unwrapExpression(receiver);
  if (node.type === 'Identifier') {
    const init = constantInitializer(node, file.scopeOf(node));
    const made = init && unwrapExpression(init);
    if (made?.type === 'NewExpression' && calleeName(made.callee) === send.construct && made.arguments[0])
      return queueName(made.arguments[0], file);
    return undefined;
  }
  if (!send.decorator) return undefined;
  const call = holderDecorator(node, new Set([send.decorator]));
  return call?.arguments[0] ? queueName(call.arguments[0], file) : undefined;
}

/** A dedupe value names the operation: nothing in it is new on each run or belongs to a delivery. */
function namesOperation(value: TSESTree.Node, tracer: OriginTracer): boolean {
  return !tracer
    .scalars(value)
    .some(
      (fact) => fact.kind === 'minted' || fact.kind === 'delivery' || fact.kind === 'worker' || fact.kind === 'time',
    );
}

/** Every send to `queue` in `module`: whether each sets the option with a value that names the operation. */
function sendsIn(module: FileContext, queue: string, sends: readonly DedupeSend[]): boolean[] {
  const found: boolean[] = [];
  let tracer: OriginTracer | undefined;
  const deduped = (options: TSESTree.ObjectExpression | undefined, option: string) => {
    const property = options && objectProperty(options, option);
    return property !== undefined && namesOperation(property.value, (tracer ??= new OriginTracer(module)));
  };
  walk(module.sourceAst, module.visitorKeys, (node) => {
    for (const send of sends) {
      if ('construct' in send) {
        if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') continue;
        if (calleeName(node.callee) !== send.method || receiverQueue(node.callee.object, send, module) !== queue)
          continue;
        const at = send.optionsArgument === 'last' ? node.arguments.length - 1 : send.optionsArgument;
        found.push(deduped(objectLiteral(node.arguments[at], module.scopeOf), send.option));
      } else if (node.type === 'ObjectExpression') {
        const named = objectProperty(node, send.queueField);
        if (named && queueName(named.value, module) === queue) found.push(deduped(node, send.option));
      }
    }
    return true;
  });
  return found;
}

const answers = new Map<string, { at: number; deduped: boolean }>();
/** A command-line run asks once per queue; the editor sees a changed producer after this long. */
const answerLifetimeMs = 30_000;

function sentWithDedupe(root: string, queue: string, dedupe: ProducerDedupe, file: FileContext): boolean {
  const cacheKey = `${root}\u0000${queue}`;
  const known = answers.get(cacheKey);
  if (known && Date.now() - known.at < answerLifetimeMs) return known.deduped;
  const markers = dedupe.sends.map((send) => ('construct' in send ? send.method : send.queueField));
  const results: boolean[] = [];
  for (const source of listSources(root)) {
    // A bundle or a generated file of a megabyte or more is no producer worth reading.
    if ((stampOf(source)?.size ?? Infinity) > 1_000_000) continue;
    const text = source === file.filename ? file.text(file.sourceAst) : textOf(source);
    if (!text?.includes(queue) || !markers.some((marker) => text.includes(marker))) continue;
    const module = source === file.filename ? file : moduleContext(source, file.libraries);
    if (module) results.push(...sendsIn(module, queue, dedupe.sends));
  }
  const deduped = results.length > 0 && results.every(Boolean);
  answers.set(cacheKey, { at: Date.now(), deduped });
  return deduped;
}

/** The broker drops the repeats of the queue `fn` is registered to read, by the producers' dedupe option. */
export function producerDedupes(fn: FunctionNode, file: FileContext): boolean {
  const root = projectRoot(file.filename);
  if (!root) return false;
  for (const adapter of file.libraries.brokers) {
    const dedupe = adapter.producerDedupe;
    if (!dedupe || !file.libraries.imported(adapter, file.imports)) continue;
    for (const where of dedupe.queue) {
      const queue = queueOfRegistration(fn, where, file);
      if (queue) return sentWithDedupe(root, queue, dedupe, file);
    }
  }
  return false;
}
