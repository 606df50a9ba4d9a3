import type { TSESTree } from '@typescript-eslint/utils';

import type { ProviderCallSpec, ProviderEffect, ProviderKeyField, ProviderSpec } from '../contract/providers.js';
import type { FileContext } from '../context/file-context.js';
import type { LibraryTable } from '../context/library-table.js';
import { calleeName, keyName, objectProperty, unwrapExpression } from '../syntax/nodes.js';
import { constantInitializer } from '../syntax/scope.js';
import { objectLiteral } from '../operations/fields.js';

/**
 * Calls to providers that move money or send (a charge, a payout, an email, a push), read from
 * the providers' table: which effect a call has, and whether it carries the field the provider
 * settles repeats by. Also the key fields themselves, wherever a request body is built, so the
 * key rules judge what fills them.
 */

export interface ProviderCall {
  node: TSESTree.CallExpression;
  provider: ProviderSpec;
  effect: ProviderEffect;
  /** How the call reads in messages: `stripe.refunds.create()`. */
  label: string;
  /** The call carries the provider's idempotency field; undefined when the provider takes none. */
  keyed: boolean | undefined;
}

/** `stripe.refunds.create` of `stripe.refunds.create(…)`; a call in the chain reads as its callee (`admin.messaging().send`). */
function chainText(callee: TSESTree.Node, file: FileContext): string {
  return file
    .text(callee)
    .replace(/\s+/g, '')
    .replace(/\?\./g, '.')
    .replace(/\([^()]*\)/g, '');
}

function endsWithPath(chain: string, path: string): boolean {
  return chain === path || chain.endsWith(`.${path}`);
}

/** The identifier a member chain starts from: `client` of `client.messages.create`, `admin` of `admin.messaging().send`. */
function rootOf(node: TSESTree.Node): TSESTree.Identifier | undefined {
  let current = unwrapExpression(node);
  for (let depth = 0; depth < 10; depth += 1) {
    if (current.type === 'Identifier') return current;
    if (current.type === 'MemberExpression') current = unwrapExpression(current.object);
    else if (current.type === 'CallExpression' || current.type === 'NewExpression')
      current = unwrapExpression(current.callee);
    else return undefined;
  }
  return undefined;
}

/** Is `node`'s chain rooted in an import of one of `modules`, or in a value made by one (`const client = twilio(sid, token)`)? */
function fromModules(node: TSESTree.Node, modules: readonly string[], file: FileContext, depth = 0): boolean {
  const root = rootOf(node);
  if (!root || depth > 2) return false;
  const source = file.imports.bindings.get(root.name);
  if (source !== undefined) return modules.some((module) => source === module || source.startsWith(`${module}/`));
  const init = constantInitializer(root, file.scopeOf(root));
  return init !== undefined && fromModules(init, modules, file, depth + 1);
}

/** Does the call show evidence it is this provider's: its receiver names the provider, or is made by the provider's SDK. */
function isProviders(
  call: TSESTree.CallExpression,
  spec: ProviderSpec,
  path: string,
  chain: string,
  file: FileContext,
): boolean {
  const receiver = chain.slice(0, chain.length - path.length);
  if (receiver && spec.receiver.test(receiver)) return true;
  return call.callee.type === 'MemberExpression' && fromModules(call.callee.object, spec.modules, file);
}

/** The value at `path` (`sender_batch_header.sender_batch_id`) of an object argument. */
function hasPath(node: TSESTree.Node | undefined, path: readonly string[], file: FileContext): boolean {
  let object = objectLiteral(node, file.scopeOf);
  for (const [index, name] of path.entries()) {
    const property = object && objectProperty(object, name);
    if (!property) return false;
    if (index === path.length - 1) return true;
    object = objectLiteral(property.value, file.scopeOf);
  }
  return false;
}

function carriesKey(
  call: TSESTree.CallExpression,
  spec: ProviderSpec,
  callSpec: ProviderCallSpec,
  file: FileContext,
): boolean | undefined {
  const key = callSpec.key ?? spec.key;
  if (!key) return undefined;
  if ('option' in key) return call.arguments.some((argument) => hasPath(argument, [key.option], file));
  return hasPath(call.arguments[0], key.field.split('.'), file);
}

/** `new SendEmailCommand(…)`, or a constant holding one, its class imported from one of `modules`. */
function sendsCommand(
  argument: TSESTree.Node | undefined,
  command: string,
  modules: readonly string[],
  file: FileContext,
) {
  let node = argument && unwrapExpression(argument);
  if (node?.type === 'Identifier') {
    const init = constantInitializer(node, file.scopeOf(node));
    node = init && unwrapExpression(init);
  }
  if (node?.type !== 'NewExpression' || node.callee.type !== 'Identifier') return false;
  return file.imports.names.get(node.callee.name) === command && fromModules(node.callee, modules, file);
}

/** The provider call `call` makes, if it is one that moves money or sends. */
export function providerCallAt(call: TSESTree.CallExpression, file: FileContext): ProviderCall | undefined {
  const table = file.libraries;
  const method = calleeName(call.callee);
  if (!method) return undefined;
  const candidates = table.providerCalls.get(method);
  if (!candidates) return undefined;
  const chain = chainText(call.callee, file);
  for (const { provider, call: spec } of candidates) {
    if (!endsWithPath(chain, spec.path)) continue;
    if (
      spec.command
        ? !sendsCommand(call.arguments[0], spec.command, provider.modules, file)
        : !isProviders(call, provider, spec.path, chain, file)
    )
      continue;
    if (spec.onlyWith && !hasPath(call.arguments[0], [spec.onlyWith], file)) continue;
    return {
      node: call,
      provider,
      effect: spec.effect,
      label: `${file.code(call.callee)}(${spec.command ? `new ${spec.command}()` : ''})`,
      keyed: carriesKey(call, provider, spec, file),
    };
  }
  return undefined;
}

/**
 * A provider's own idempotency field (`sender_batch_id` inside a `sender_batch_header`,
 * `customerTransactionId` beside a `targetAccount`), recognised by the request body around it.
 */
export function providerKeyField(property: TSESTree.Property, table: LibraryTable): ProviderKeyField | undefined {
  const name = keyName(property);
  const fields = name === undefined ? undefined : table.providerKeyFields.get(name.toLowerCase());
  if (!fields || property.parent?.type !== 'ObjectExpression') return undefined;
  const object = property.parent;
  const siblings = new Set(object.properties.flatMap((other) => (other.type === 'Property' ? [keyName(other)] : [])));
  const holder =
    object.parent?.type === 'Property' && object.parent.value === object ? keyName(object.parent) : undefined;
  return fields.find(
    (field) =>
      (field.inside === undefined || field.inside === holder) &&
      (field.besides === undefined || field.besides.some((sibling) => siblings.has(sibling))) &&
      (field.with === undefined || field.with.some((sibling) => siblings.has(sibling))),
  );
}
