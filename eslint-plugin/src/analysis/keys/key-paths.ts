import type { TSESTree } from '@typescript-eslint/utils';

import type { KeyPathPattern } from '../contract/adapter.js';
import type { EffectKey } from './effect-keys.js';
import { asCertainAs, asScalars, leaf, shaped, type Fact, type Leaf } from '../origin/facts.js';
import type { FileContext } from '../context/file-context.js';
import type { LibraryTable } from '../context/library-table.js';
import { calleeName, callTaking, keyName, staticString } from '../syntax/nodes.js';
import { elementOfShape, memberOfShape } from '../origin/shapes.js';
import type { OriginTracer } from '../origin/origin.js';
import { usesOfBinding } from '../syntax/scope.js';

/**
 * Keys named by a path rather than built in code: an option such as `{ keyPath: 'body.orderId' }`
 * given to a class an adapter declares, whose value is a JMESPath expression into the event the
 * handler receives. The path is read against the adapter's root shape, with the same tables as
 * code: a path to a delivery's identity makes a delivery key.
 */

/** Splits `text` at `separator` where it is not nested in brackets, parentheses or quotes. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted: string | undefined;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === quoted) quoted = undefined;
    } else if (char === '"' || char === "'" || char === '`') quoted = char;
    else if (char === '[' || char === '(' || char === '{') depth += 1;
    else if (char === ']' || char === ')' || char === '}') depth -= 1;
    else if (char === separator && depth === 0) {
      parts.push(text.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim());
}

type Segment = { member: string } | { element: number | undefined };

/** `Records[0].body`, `headers."X-Request-Id"`: the segments of a plain path, or undefined for anything else. */
function segments(path: string): Segment[] | undefined {
  const found: Segment[] = [];
  const pattern = /\s*(?:\.?\s*([A-Za-z_][\w-]*)|\.?\s*"((?:[^"\\]|\\.)*)"|\[\s*(\d+|\*)?\s*\])/y;
  let index = 0;
  while (index < path.length) {
    pattern.lastIndex = index;
    const match = pattern.exec(path);
    if (!match || match[0].length === 0) return undefined;
    if (match[1] !== undefined) found.push({ member: match[1] });
    else if (match[2] !== undefined) found.push({ member: match[2] });
    else found.push({ element: match[3] === undefined || match[3] === '*' ? undefined : Number(match[3]) });
    index = pattern.lastIndex;
  }
  return found;
}

function step(table: LibraryTable, facts: Fact[], segment: Segment, code: string): Fact[] {
  return facts.flatMap((fact): Fact[] => {
    if (fact.kind === 'list')
      return 'element' in segment ? fact.elements.map((element) => ({ ...element, code })) : [leaf('unknown', code)];
    if (fact.kind !== 'shaped')
      return [
        asCertainAs(
          leaf(fact.kind === 'object' ? 'unknown' : fact.kind, code, 'what' in fact ? fact.what : undefined),
          fact,
        ),
      ];
    if ('element' in segment) return elementOfShape(table, fact, segment.element, code);
    return memberOfShape(table, fact, segment.member, code);
  });
}

/** The facts of what a path expression names, read against `root` (the pattern's own root when not given). */
function judge(table: LibraryTable, pattern: KeyPathPattern, expression: string, root?: Fact[]): Fact[] {
  const text = expression.trim();
  // A multi-select list or hash: the key is made of every selected value.
  if (text.startsWith('[') && text.endsWith(']') && !/^\[\s*(\d+|\*)?\s*\]/.test(text)) {
    return splitTopLevel(text.slice(1, -1), ',').flatMap((part) => judge(table, pattern, part, root));
  }
  if (text.startsWith('{') && text.endsWith('}')) {
    return splitTopLevel(text.slice(1, -1), ',').flatMap((part) =>
      judge(table, pattern, part.slice(part.indexOf(':') + 1), root),
    );
  }
  const call = /^([A-Za-z_]\w*)\((.*)\)((?:\s*[.[].*)?)$/s.exec(text);
  if (call) {
    if (!(pattern.parsing ?? []).includes(call[1])) return [leaf('unknown', text)];
    // A parsing function turns a body into its content; the rest of the path reads that content.
    const rest = segments(call[3] ?? '');
    if (!rest) return [leaf('unknown', text)];
    return rest.reduce<Fact[]>((facts, segment) => step(table, facts, segment, text), [shaped('payload', text)]);
  }
  const path = segments(text);
  if (!path || path.length === 0) return [leaf('unknown', text)];
  return path.reduce<Fact[]>(
    (facts, segment) => step(table, facts, segment, text),
    root ?? [shaped(pattern.root, pattern.label)],
  );
}

/** The facts of the key a path names, read against `root` when given: scalars, coded by the path as written. */
export function keyPathFacts(table: LibraryTable, pattern: KeyPathPattern, path: string, root?: Fact[]): Leaf[] {
  return asScalars(judge(table, pattern, path, root)).map((fact) => ({ ...fact, code: path }));
}

/** What a value bound once is read as: its name's reads, or the value itself where it is written in place. */
function usesOf(value: TSESTree.Node, file: FileContext): TSESTree.Node[] {
  const holder = value.parent;
  return holder?.type === 'VariableDeclarator' && holder.init === value && holder.id.type === 'Identifier'
    ? usesOfBinding(holder.id, file.scopeOf(holder.id))
    : [value];
}

/**
 * What the module calls a wrapped function with: `makeIdempotent(processRecord, { config })` keys
 * by the first argument its result is given, so `processIdempotently(letterEvent, deps)` keys by
 * `letterEvent`. None where the options reach no wrapper, or its result is only handed on
 * (exported, registered, given to a batch processor): then the path reads the adapter's root.
 */
function keyedArguments(
  construct: TSESTree.NewExpression,
  pattern: KeyPathPattern,
  file: FileContext,
): TSESTree.Node[] {
  const wrappers = pattern.wrappers ?? [];
  const keyed: TSESTree.Node[] = [];
  for (const use of wrappers.length > 0 ? usesOf(construct, file) : []) {
    const option = use.parent;
    const call = option?.type === 'Property' && option.value === use ? callTaking(option.parent) : undefined;
    if (!call || !wrappers.includes(calleeName(call.callee) ?? '')) continue;
    for (const read of usesOf(call, file)) {
      const called = read.parent;
      if (called?.type === 'CallExpression' && called.callee === read && called.arguments[0])
        keyed.push(called.arguments[0]);
    }
  }
  return keyed;
}

/** `new Config({ keyPath: 'messageId' })`, for an option and a class an adapter declares. */
export function effectKeyOfKeyPath(
  property: TSESTree.Property,
  file: FileContext,
  tracer: OriginTracer,
): EffectKey | undefined {
  const name = keyName(property);
  const patterns = name !== undefined ? file.libraries.keyPaths.get(name) : undefined;
  if (!patterns) return undefined;
  const object = property.parent;
  const construct = object?.parent;
  if (object?.type !== 'ObjectExpression' || construct?.type !== 'NewExpression' || construct.arguments[0] !== object)
    return undefined;
  const path = staticString(property.value);
  if (path === undefined) return undefined;
  for (const { adapter, pattern } of patterns) {
    if (calleeName(construct.callee) !== pattern.construct || !file.libraries.imported(adapter, file.imports)) continue;
    const keyed = keyedArguments(construct, pattern, file);
    const facts =
      keyed.length > 0
        ? keyed.flatMap((argument) => keyPathFacts(file.libraries, pattern, path, tracer.facts(argument)))
        : keyPathFacts(file.libraries, pattern, path);
    return {
      node: property.value,
      values: [],
      functions: [],
      description: `${pattern.label} '${path}' named by '${name}'`,
      strength: 'explicit',
      // The key is handed to the library that keeps the idempotency records.
      external: true,
      isClaim: () => false,
      knownFacts: facts,
    };
  }
  return undefined;
}
