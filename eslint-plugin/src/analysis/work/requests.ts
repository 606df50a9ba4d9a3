import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../context/file-context.js';
import type { RequestSpec } from '../contract/adapter.js';
import { makerOf } from '../project/modules.js';
import {
  calleeName,
  memberPath,
  objectProperty,
  propertyName,
  staticString,
  withoutTypeAssertions,
} from '../syntax/nodes.js';
import { constantInitializer } from '../syntax/scope.js';
import { staticText } from '../syntax/static-text.js';
import { namesDeliveringEndpoint } from '../naming/stakes.js';

/** Requests over HTTP that change something in another system, and those that reach the project's own server. */

/**
 * `got.post(\`http://localhost:\${port}/confirm\`)`, `fetch('/api/confirm', …)`: a request to the
 * project's own server (a path alone is one only a page can send, to the site it came from). Its
 * handler does the work, and is judged where it does it. The address may be a constant another
 * module of the project exports.
 */
export function reachesOwnServer(call: TSESTree.CallExpression, file: FileContext): boolean {
  const [target] = call.arguments;
  if (!target) return false;
  const url = staticText(target, file.scopeOf, () => '0')?.text;
  if (url !== undefined && /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(?![\w.-])/i.test(url)) return true;
  if (call.callee.type !== 'Identifier' || call.callee.name !== 'fetch') return false;
  // Another module's constant is looked up only for a page's `fetch`, since the lookup may read that
  // module, and read only when it is a string written out (its names are that module's to resolve).
  const imported =
    url === undefined && target.type === 'Identifier' ? file.importedValue(target.name)?.value : undefined;
  const path = imported?.type === 'Literal' ? staticString(imported) : url;
  return path !== undefined && /^\/(?!\/)/.test(path);
}

/** `fetch(url, { method: 'POST' })`, `axios.post(url, body)`: a request that changes something in another system, named for messages. */
export function writingRequest(call: TSESTree.CallExpression, module: FileContext): string | undefined {
  const method = writingMethod(call, module);
  if (!method || reachesOwnServer(call, module)) return undefined;
  return `the ${method} request (${memberPath(call.callee)?.join('.') ?? calleeName(call.callee)})`;
}

/**
 * The method of a request that changes something in another system (`POST`, `PUT`, …): named by
 * an HTTP client's method (`axios.post`, `api.delete` on an instance `axios.create()` made) or by
 * the method option of its first or second argument (`fetch(url, { method: 'POST' })`, `axios({ method: 'post' })`).
 */
export function writingMethod(call: TSESTree.CallExpression, module: FileContext): string | undefined {
  const callee = call.callee;
  const method = callee.type === 'MemberExpression' ? propertyName(callee)?.toUpperCase() : undefined;
  // Most calls are turned away by their name, before any binding is looked up.
  if (
    callee.type === 'MemberExpression'
      ? method === undefined || (method !== 'REQUEST' && !module.libraries.requestVerbs.has(method))
      : callee.type !== 'Identifier'
  )
    return undefined;
  const spec = requestClient(callee.type === 'MemberExpression' ? callee.object : callee, module);
  if (!spec) return undefined;
  if (method !== undefined && method !== 'REQUEST')
    return spec.verbs && spec.writing.includes(method) ? method : undefined;
  for (const argument of call.arguments.slice(0, 2)) {
    const option =
      argument.type === 'ObjectExpression' ? objectProperty(argument, spec.methodOption)?.value : undefined;
    const named =
      option?.type === 'Literal' && typeof option.value === 'string' ? option.value.toUpperCase() : undefined;
    if (named !== undefined) return spec.writing.includes(named) ? named : undefined;
  }
  return undefined;
}

/** The HTTP client a callee or receiver names: the global `fetch`, an imported client, or an instance one made. */
function requestClient(node: TSESTree.Node, module: FileContext): RequestSpec | undefined {
  const table = module.libraries;
  const value = withoutTypeAssertions(node);
  if (value.type !== 'Identifier') return undefined;
  const source = module.imports.bindings.get(value.name);
  if (source === undefined && constantInitializer(value, module.scopeOf(value)) === undefined)
    return table.requests.get(value.name);
  // `import axios from 'axios'`, `import fetch from 'node-fetch'`: the client by its module, or by its name.
  const imported = source !== undefined ? (table.requests.get(source) ?? table.requests.get(value.name)) : undefined;
  if (imported) return imported;
  const maker = makerOf(value, module);
  return maker && 'requests' in maker ? maker.requests?.find((spec) => spec.verbs) : undefined;
}

/**
 * `fetch(\`${base}/${id}/media_publish\`, { method: 'POST' })`: a request to an endpoint whose last
 * path segment names what it delivers (a message sent, a post published, a charge), written out in
 * the code or in a constant it names.
 */
export function reachesDeliveringEndpoint(call: TSESTree.CallExpression, file: FileContext): boolean {
  const [target] = call.arguments;
  const url = target && staticText(target, file.scopeOf, () => '')?.text;
  // The path's last segment, not the host's name (`https://sms.example.com` names no endpoint).
  const segment = url
    ?.replace(/^[a-z][\w+.-]*:\/\/[^/]*/i, '')
    .replace(/[?#].*$/, '')
    .split('/')
    .filter(Boolean)
    .at(-1);
  return segment !== undefined && namesDeliveringEndpoint(segment);
}
