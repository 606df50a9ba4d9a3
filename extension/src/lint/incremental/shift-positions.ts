import { childKeys, isNode, type EstreeNode, type Located, type Position, type VisitorKeys } from './estree';

/**
 * How the positions after a re-read part of a file move: every offset by `offset`, every line by
 * `lines`, and on the one old line where the re-read part ended, every column by `columns`.
 * Text after that point is unchanged, so nothing else about its positions can change.
 */
export interface Shift {
  offset: number;
  lines: number;
  line: number;
  columns: number;
}

function shiftPosition(position: Position, shift: Shift): Position {
  return {
    line: position.line + shift.lines,
    column: position.line === shift.line ? position.column + shift.columns : position.column,
  };
}

/**
 * Moves one node, token or comment. New objects replace `range` and `loc` instead of being
 * edited in place: acorn shares one position object between nodes that end at the same token,
 * and editing it would move those nodes twice.
 */
export function shiftLocated(item: Located, shift: Shift): void {
  item.range = [item.range[0] + shift.offset, item.range[1] + shift.offset];
  if (typeof item.start === 'number') item.start += shift.offset;
  if (typeof item.end === 'number') item.end += shift.offset;
  item.loc = { start: shiftPosition(item.loc.start, shift), end: shiftPosition(item.loc.end, shift) };
}

/**
 * Moves a node and everything under it. One node can hang under two keys of its parent (acorn
 * makes `imported` and `local` of `import { a }` one object); it moves once.
 */
export function shiftTree(node: EstreeNode, keys: VisitorKeys, shift: Shift): void {
  shiftLocated(node, shift);
  const children = childKeys(node, keys);
  for (let index = 0; index < children.length; index += 1) {
    const child = node[children[index]];
    if (Array.isArray(child)) {
      for (const item of child) if (isNode(item)) shiftTree(item, keys, shift);
    } else if (isNode(child) && !heldByEarlierKey(node, children, index, child)) {
      shiftTree(child, keys, shift);
    }
  }
}

function heldByEarlierKey(node: EstreeNode, children: readonly string[], index: number, child: EstreeNode): boolean {
  for (let earlier = 0; earlier < index; earlier += 1) if (node[children[earlier]] === child) return true;
  return false;
}
