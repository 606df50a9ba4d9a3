/**
 * The parts of an ESTree program that splicing reads and writes, common to espree's and
 * typescript-estree's output: every node, token and comment carries `range` and `loc`
 * (espree's also carry `start` and `end`).
 */
export interface Position {
  line: number;
  column: number;
}

export interface SourceLocation {
  start: Position;
  end: Position;
}

export interface Located {
  range: [number, number];
  loc: SourceLocation;
  start?: number;
  end?: number;
}

export interface EstreeNode extends Located {
  type: string;
  [key: string]: unknown;
}

export interface EstreeToken extends Located {
  type: string;
  value: string;
}

export interface EstreeProgram extends EstreeNode {
  type: 'Program';
  body: EstreeNode[];
  tokens: EstreeToken[];
  comments: EstreeToken[];
}

export type VisitorKeys = Readonly<Record<string, readonly string[] | undefined>>;

export function isNode(value: unknown): value is EstreeNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** Keys that hold no child nodes, or hold a node's parent (set by ESLint while it traverses). */
const notChildKeys = new Set(['parent', 'loc', 'range', 'leadingComments', 'trailingComments', 'tokens', 'comments']);

/** The keys of a node's children: the parser's visitor keys, or, for a type they miss, whatever holds nodes. */
export function childKeys(node: EstreeNode, keys: VisitorKeys): readonly string[] {
  return keys[node.type] ?? Object.keys(node).filter((key) => !notChildKeys.has(key) && !key.startsWith('_'));
}

/** The index of the first item whose range starts at or after `offset` (items sorted by start). */
export function firstStartingAt(items: readonly Located[], offset: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (items[middle].range[0] < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}
