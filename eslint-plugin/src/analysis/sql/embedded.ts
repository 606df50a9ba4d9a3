import type { TSESTree } from '@typescript-eslint/utils';

import { calleeName, memberPath, objectProperty, unwrapExpression } from '../syntax/nodes.js';
import { constantInitializer } from '../syntax/scope.js';
import { staticText, type ScopeOf, type StaticText } from '../syntax/static-text.js';
import { scanSql } from './parser.js';
import { summariseSql, type SqlSummary } from './statements.js';

/**
 * SQL written in JavaScript: found in the first argument of a query call (or where a declared
 * wrapper takes it) or in a tagged template, parsed with PostgreSQL's grammar, with every `$n`
 * traced back to the expression that fills it. `$n`, `?` and `:name` placeholders are read.
 */

export interface EmbeddedSql {
  /** The call or tagged template that sends the SQL. */
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
  /** The SQL as PostgreSQL sees it, every placeholder written `$n`. */
  text: string;
  /** The statements, parsed on first use (parsing is the expensive part); null if PostgreSQL rejects the text. */
  readonly summary: SqlSummary | null;
  /** The expression that fills `$n`, when the code shows it. */
  param(number: number): TSESTree.Node | undefined;
  /** Where a byte offset of `text` stands in the source file, when the SQL is written in place. */
  sourceOffset(byteOffset: number): number | undefined;
}

/** Which calls send SQL, and where their text and parameters are: the SQL adapters' tables. */
export interface SqlCalls {
  /** Methods whose first argument may be a name holding SQL (a literal that looks like SQL is read whatever the method). */
  methods: ReadonlySet<string>;
  /** Methods that take the parameters as the arguments after the text. */
  restParameters: ReadonlySet<string>;
  /** Declared wrappers by call path (`db.run`): the positions of the text and of the parameters. */
  wrappers: ReadonlyMap<string, { sql: number; params?: number }>;
  /** Methods that resolve to nothing, neither rows nor a count: what they wrote, nobody can read. */
  answerless?: ReadonlySet<string>;
}

const sqlStart =
  /^\s*\(?\s*(with\s|insert\s+into\b|select\s|update\s|delete\s+from\b|merge\s+into\b|lock\s+(table\s)?|set\s+(session\s+characteristics\s+as\s+)?transaction\b|begin\s+isolation\b|start\s+transaction\b)/i;

/** A cheap test before any parsing: does this text start like a SQL statement? */
export function looksLikeSql(text: string): boolean {
  return sqlStart.test(text);
}

/**
 * What the rules need from a SQL text. `write`: it inserts rows or serialises workers, and is
 * parsed at once. `read`: a query, parsed only if a write in the same file may pair with it.
 * `change`: an UPDATE or a DELETE, parsed only if a rule asks which table it changes.
 * `none`: a SET…, DDL, anything else no rule is about.
 */
export type SqlInterest = 'write' | 'read' | 'change' | 'none';

const writesOrSerialises = /\b(insert|merge)\b|pg_(try_)?advisory|\block\s+table\b|serializable/i;
const startsAsRead = /^\s*\(?\s*(select|with)\b/i;
const startsAsChange = /^\s*(update|delete)\b/i;

export function sqlInterest(text: string): SqlInterest {
  if (writesOrSerialises.test(text)) return 'write';
  if (startsAsRead.test(text)) return 'read';
  return startsAsChange.test(text) ? 'change' : 'none';
}

/** The text of a literal or template written in place, without following names: a first look. */
function writtenText(node: TSESTree.Node): string | undefined {
  if (node.type === 'Literal') return typeof node.value === 'string' ? node.value : undefined;
  if (node.type === 'TemplateLiteral') return node.quasis.map((quasi) => quasi.value.cooked ?? '').join(' ');
  return undefined;
}

/**
 * The first piece of text an expression starts with, when it is written there: enough to turn
 * away `require('x')` or `log('…')` before the whole text is built.
 */
function leadingText(node: TSESTree.Node): string | undefined {
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' ? node.value : undefined;
    case 'TemplateLiteral':
      return node.quasis[0]?.value.cooked ?? undefined;
    case 'BinaryExpression':
      return node.operator === '+' ? leadingText(node.left) : undefined;
    default:
      return undefined;
  }
}

/** False only when the expression surely does not start like SQL; identifiers are looked up later. */
function mayBeSql(node: TSESTree.Node): boolean {
  const leading = leadingText(node);
  // A leading interpolation (`${query}`) or a lone keyword ('SELECT ' + columns) says nothing yet.
  return (
    leading === undefined ||
    looksLikeSql(leading) ||
    /^\s*\(?\s*(with|insert|select|update|delete|merge|lock|set|begin|start)?\s*$/i.test(leading)
  );
}

const untaggedHoleBase = 1000;

/** The SQL a call or tagged template sends, or null when it sends none that can be read. */
export function embeddedSql(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  scopeOf: ScopeOf,
  calls: SqlCalls,
): EmbeddedSql | null {
  return node.type === 'TaggedTemplateExpression' ? fromTemplate(node, scopeOf) : fromCall(node, scopeOf, calls);
}

function fromTemplate(node: TSESTree.TaggedTemplateExpression, scopeOf: ScopeOf): EmbeddedSql | null {
  if (!mayBeSql(node.quasi) || sqlInterest(writtenText(node.quasi)!) === 'none') return null;
  const text = staticText(node.quasi, scopeOf, (index) => `$${index + 1}`, true);
  if (!text || !looksLikeSql(text.text)) return null;
  const byHole = new Map(text.holes.map((hole, index) => [index + 1, hole.expression]));
  return build(
    node,
    text,
    (number) => byHole.get(number),
    () => undefined,
  );
}

function fromCall(node: TSESTree.CallExpression, scopeOf: ScopeOf, calls: SqlCalls): EmbeddedSql | null {
  const path = calls.wrappers.size > 0 ? memberPath(node.callee)?.join('.') : undefined;
  const wrapper = path === undefined ? undefined : calls.wrappers.get(path);
  const first = node.arguments[wrapper?.sql ?? 0];
  const second = node.arguments[wrapper ? (wrapper.params ?? -1) : 1];
  if (!first || first.type === 'SpreadElement') return null;
  const method = calleeName(node.callee);
  let textNode: TSESTree.Node = first;
  let values: TSESTree.Node | undefined = second;
  const config = unwrapExpression(first);
  if (config.type === 'ObjectExpression') {
    // pg and mysql2 accept { text | sql, values }.
    const textProperty = objectProperty(config, 'text') ?? objectProperty(config, 'sql');
    if (!textProperty) return null;
    textNode = textProperty.value;
    values = objectProperty(config, 'values')?.value;
  } else if (first.type === 'Identifier' && !wrapper && !(method && calls.methods.has(method))) {
    return null;
  }
  if (!mayBeSql(textNode)) return null;
  const written = writtenText(textNode);
  if (written !== undefined && sqlInterest(written) === 'none') return null;
  const text = staticText(textNode, scopeOf, (index) => `$${untaggedHoleBase + index + 1}`);
  if (!text || !looksLikeSql(text.text)) return null;

  const rest = !wrapper && method && calls.restParameters.has(method) ? node.arguments.slice(1) : undefined;
  const bindings = bindingsOf(values, scopeOf);
  return build(
    node,
    text,
    (number) =>
      number > untaggedHoleBase
        ? text.holes[number - untaggedHoleBase - 1]?.expression
        : rest
          ? rest[number - 1]
          : bindings.positional[number - 1],
    (name) => bindings.named(name),
  );
}

interface Bindings {
  positional: (TSESTree.Node | undefined)[];
  named(name: string): TSESTree.Node | undefined;
}

/** The values that fill placeholders: an array (`[a, b]`), an object (`{ a }`), or Sequelize's options. */
function bindingsOf(values: TSESTree.Node | undefined, scopeOf: ScopeOf): Bindings {
  let node = values ? unwrapExpression(values) : undefined;
  if (node?.type === 'Identifier') node = constantInitializer(node, scopeOf(node));
  if (node?.type === 'ObjectExpression') {
    const inner =
      objectProperty(node, 'replacements') ?? objectProperty(node, 'bind') ?? objectProperty(node, 'values');
    if (inner) return bindingsOf(inner.value, scopeOf);
    const object = node;
    return { positional: [], named: (name) => objectProperty(object, name)?.value };
  }
  if (node?.type === 'ArrayExpression') {
    const positional: (TSESTree.Node | undefined)[] = [];
    for (const element of node.elements) {
      if (!element || element.type === 'SpreadElement') break;
      positional.push(element);
    }
    return { positional, named: () => undefined };
  }
  return { positional: [], named: () => undefined };
}

const noNames: ReadonlyMap<number, string> = new Map();

interface Rewrite {
  text: string;
  /** Original offset for an offset in the rewritten text. */
  original(offset: number): number;
  /** The `$n` given to each named placeholder. */
  names: ReadonlyMap<number, string>;
}

/** Rewrites `?` and `:name` placeholders to `$n`, which is all PostgreSQL's grammar accepts. */
function numberPlaceholders(text: string): Rewrite {
  const identity: Rewrite = { text, original: (offset) => offset, names: noNames };
  if (!text.includes('?') && !/(^|[^:]):[A-Za-z_]/.test(text)) return identity;
  const tokens = scanSql(text);
  if (!tokens) return identity;
  const characters = byteToChar(text);
  const replacements: { start: number; end: number; value: string }[] = [];
  const names = new Map<number, string>();
  const numbersByName = new Map<string, number>();
  const written = (text.match(/\$(\d+)/g) ?? []).map((match) => Number(match.slice(1)));
  let next = Math.max(0, ...written.filter((number) => number < untaggedHoleBase)) + 1;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (token.text === '?') {
      replacements.push({ start: characters(token.start), end: characters(token.end), value: `$${next}` });
      next += 1;
    } else if (
      token.text === ':' &&
      tokens[index + 1]?.start === token.end &&
      /^[A-Za-z_]/.test(tokens[index + 1].text)
    ) {
      const name = tokens[index + 1].text;
      let number = numbersByName.get(name);
      if (number === undefined) {
        number = next;
        next += 1;
        numbersByName.set(name, number);
        names.set(number, name);
      }
      replacements.push({
        start: characters(token.start),
        end: characters(tokens[index + 1].end),
        value: `$${number}`,
      });
      index += 1;
    }
  }
  if (replacements.length === 0) return identity;
  let rewritten = '';
  let cursor = 0;
  const shifts: { at: number; delta: number }[] = [];
  for (const replacement of replacements) {
    rewritten += text.slice(cursor, replacement.start) + replacement.value;
    cursor = replacement.end;
    shifts.push({ at: rewritten.length, delta: replacement.end - replacement.start - replacement.value.length });
  }
  rewritten += text.slice(cursor);
  return {
    text: rewritten,
    names,
    original(offset) {
      let result = offset;
      for (const shift of shifts) if (offset >= shift.at) result += shift.delta;
      return result;
    },
  };
}

/** PostgreSQL reports UTF-8 byte offsets; JavaScript strings count UTF-16 units. */
function byteToChar(text: string): (byteOffset: number) => number {
  // Only ASCII text has as many UTF-8 bytes as UTF-16 units.
  if (Buffer.byteLength(text) === text.length) return (offset) => offset;
  const bytes = Buffer.from(text);
  return (offset) => bytes.subarray(0, offset).toString().length;
}

function build(
  node: EmbeddedSql['node'],
  source: StaticText,
  byNumber: (number: number) => TSESTree.Node | undefined,
  byName: (name: string) => TSESTree.Node | undefined,
): EmbeddedSql {
  return new WrittenSql(node, source, numberPlaceholders(source.text), byNumber, byName);
}

/** A class rather than an object literal with a getter, which V8 builds far more slowly (one per query call). */
class WrittenSql implements EmbeddedSql {
  readonly text: string;
  private parsed: SqlSummary | null | undefined;
  private characters: ((byteOffset: number) => number) | undefined;

  constructor(
    readonly node: EmbeddedSql['node'],
    private readonly source: StaticText,
    private readonly rewrite: Rewrite,
    private readonly byNumber: (number: number) => TSESTree.Node | undefined,
    private readonly byName: (name: string) => TSESTree.Node | undefined,
  ) {
    this.text = rewrite.text;
  }

  get summary(): SqlSummary | null {
    if (this.parsed === undefined) this.parsed = summariseSql(this.text);
    return this.parsed;
  }

  param(number: number): TSESTree.Node | undefined {
    const name = this.rewrite.names.get(number);
    return name === undefined ? this.byNumber(number) : this.byName(name);
  }

  sourceOffset(byteOffset: number): number | undefined {
    this.characters ??= byteToChar(this.text);
    return this.source.sourceOffset(this.rewrite.original(this.characters(byteOffset)));
  }
}
