import type { Position } from './estree.js';

/**
 * Where each line of a text starts, to turn offsets into ESTree's 1-based lines and 0-based
 * columns. Line breaks are those of acorn, TypeScript and ESLint alike: LF, CR, CRLF, U+2028, U+2029.
 */
export class LineStarts {
  private readonly starts: number[] = [0];
  /** The line of the last lookup: the next one is usually on it or close by. */
  private recent = 0;

  constructor(text: string) {
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (code === 13) {
        if (text.charCodeAt(index + 1) === 10) index += 1;
        this.starts.push(index + 1);
      } else if (code === 10 || code === 0x2028 || code === 0x2029) {
        this.starts.push(index + 1);
      }
    }
  }

  /** Writes where `offset` is into `position`. */
  place(position: Position, offset: number): void {
    const { starts } = this;
    let line = this.recent;
    if (starts[line] > offset || (line + 1 < starts.length && starts[line + 1] <= offset)) {
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >>> 1;
        if (starts[middle] <= offset) low = middle;
        else high = middle - 1;
      }
      line = low;
      this.recent = line;
    }
    position.line = line + 1;
    position.column = offset - starts[line];
  }
}
