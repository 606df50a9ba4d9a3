/**
 * A parse written out as lines of text, so that two parses compare with one string equality and
 * a difference shows as the first line that differs: every node with its type, range, location
 * and plain properties, then every token and comment, and optionally the scopes.
 */

interface Located {
  type: string;
  range: [number, number];
  loc: { start: { line: number; column: number }; end: { line: number; column: number } };
  [key: string]: unknown;
}

const skipped = new Set(['parent', 'range', 'loc', 'start', 'end', 'tokens', 'comments']);

function isNode(value: unknown): value is Located {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function where(item: Located): string {
  const { start, end } = item.loc;
  const offsets = typeof item.start === 'number' ? ` ${String(item.start)}-${String(item.end)}` : '';
  return `${item.range[0]}-${item.range[1]} ${start.line}:${start.column}-${end.line}:${end.column}${offsets}`;
}

function plain(value: unknown): string {
  if (typeof value === 'bigint' || value instanceof RegExp) return String(value);
  return JSON.stringify(value) ?? 'undefined';
}

function writeNode(node: Located, depth: number, lines: string[]): void {
  const children: [string, unknown][] = [];
  const properties: string[] = [];
  for (const key of Object.keys(node).sort()) {
    if (skipped.has(key) || key === 'type') continue;
    const value = node[key];
    if (isNode(value) || (Array.isArray(value) && value.some(isNode))) children.push([key, value]);
    else properties.push(`${key}=${plain(value)}`);
  }
  lines.push(`${' '.repeat(depth)}${node.type} ${where(node)} ${properties.join(' ')}`);
  for (const [key, value] of children) {
    lines.push(`${' '.repeat(depth + 1)}.${key}`);
    for (const child of Array.isArray(value) ? value : [value]) {
      if (isNode(child)) writeNode(child, depth + 2, lines);
      else lines.push(`${' '.repeat(depth + 2)}${plain(child)}`);
    }
  }
}

export function serializeProgram(program: Located & { tokens: Located[]; comments: Located[] }): string[] {
  const lines: string[] = [];
  writeNode(program, 0, lines);
  for (const token of program.tokens)
    lines.push(
      `token ${token.type} ${plain(token.value)} ${where(token)}${token.regex ? ` ${plain(token.regex)}` : ''}`,
    );
  for (const comment of program.comments)
    lines.push(`comment ${comment.type} ${plain(comment.value)} ${where(comment)}`);
  return lines;
}

interface ScopeLike {
  type: string;
  block: Located;
  isStrict: boolean;
  variables: { name: string; defs: { type: string; name: Located }[] }[];
  references: {
    identifier: Located;
    resolved: { name: string; scope: { block: Located } } | null;
    isWrite(): boolean;
    isRead(): boolean;
  }[];
  through: unknown[];
}

/** typescript-eslint's scope analysis: each scope with its variables and where each reference resolves. */
export function serializeScopes(scopeManager: { scopes: ScopeLike[] }): string[] {
  return scopeManager.scopes.flatMap((scope) => [
    `scope ${scope.type} ${where(scope.block)} strict=${scope.isStrict} through=${scope.through.length}`,
    ...scope.variables.map(
      (variable) =>
        `  var ${variable.name} ${variable.defs.map((def) => `${def.type}@${def.name.range[0]}`).join(',')}`,
    ),
    ...scope.references.map(
      (reference) =>
        `  ref ${reference.identifier.range[0]} ${reference.isRead() ? 'r' : ''}${reference.isWrite() ? 'w' : ''} -> ${reference.resolved ? `${reference.resolved.name}@${reference.resolved.scope.block.range[0]}` : 'unresolved'}`,
    ),
  ]);
}

/** The first line where two serialized parses differ, with a little context, or undefined. */
export function firstDifference(expected: string[], actual: string[]): string | undefined {
  const length = Math.max(expected.length, actual.length);
  for (let index = 0; index < length; index += 1) {
    if (expected[index] !== actual[index]) {
      return `line ${index}:\n  full parse:        ${expected[index] ?? '(none)'}\n  incremental parse: ${actual[index] ?? '(none)'}`;
    }
  }
  return undefined;
}
