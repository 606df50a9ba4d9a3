import { childKeys, isNode, type EstreeNode, type Located, type VisitorKeys } from './estree.js';
import type { LineStarts } from './line-starts.js';

/**
 * Moves nodes, tokens and comments by `offset` characters in a new text, editing their positions
 * in place: the moved part of a program stays in memory for the next change, so new position
 * objects for half a file on every keystroke would only be more for the garbage collector to copy.
 *
 * Parsers share position objects, though. acorn hands one `{ line, column }` to every node and
 * token that starts (or ends) at the same token and gives a shorthand property's key and value
 * one `range`; typescript-estree gives a few nodes their child's `range` or `loc`. So every
 * update here gives the same result however often a shared object is reached: a line and
 * column are recomputed from the moved offset; espree's `range` is set from the item's own
 * `start` and `end`; and typescript-estree's, which only a node and its descendants share,
 * moves only if no enclosing node's range is that same array.
 */
export class PositionMover {
  /** The `range` arrays of the nodes enclosing the one being moved. */
  private readonly enclosing: (readonly number[])[] = [];

  constructor(
    private readonly offset: number,
    private readonly lines: LineStarts,
  ) {}

  /** Moves one node, token or comment (not what is under it). */
  located(item: Located): void {
    const { range, loc } = item;
    if (typeof item.start === 'number' && typeof item.end === 'number') {
      // espree's items carry their own `start` and `end`, which their range always equals.
      item.start += this.offset;
      item.end += this.offset;
      range[0] = item.start;
      range[1] = item.end;
    } else if (!this.enclosing.includes(range)) {
      range[0] += this.offset;
      range[1] += this.offset;
    }
    this.lines.place(loc.start, range[0]);
    this.lines.place(loc.end, range[1]);
  }

  /**
   * Moves a node and everything under it. One node can hang under two keys of its parent (acorn
   * makes `imported` and `local` of `import { a }` one object); it moves once.
   */
  tree(node: EstreeNode, keys: VisitorKeys): void {
    this.located(node);
    const children = childKeys(node, keys);
    this.enclosing.push(node.range);
    for (let index = 0; index < children.length; index += 1) {
      const child = node[children[index]];
      if (Array.isArray(child)) {
        for (const item of child) if (isNode(item)) this.tree(item, keys);
      } else if (isNode(child) && !heldByEarlierKey(node, children, index, child)) {
        this.tree(child, keys);
      }
    }
    this.enclosing.pop();
  }
}

function heldByEarlierKey(node: EstreeNode, children: readonly string[], index: number, child: EstreeNode): boolean {
  for (let earlier = 0; earlier < index; earlier += 1) if (node[children[earlier]] === child) return true;
  return false;
}
