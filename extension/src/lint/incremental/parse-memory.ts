import type { EstreeProgram } from './estree.js';

/** How the text of one lint was parsed, and how long that took (scope analysis included); a parse that failed has no time. */
export type ParseOutcome =
  /** The text had not changed: the previous program, with fresh scope analysis. */
  (
    | { kind: 'reused' }
    /** Only the changed statements were parsed again. */
    | { kind: 'incremental' }
    | { kind: 'full'; reason: string }
  ) & { durationMs?: number };

export interface RememberedParse {
  text: string;
  program: EstreeProgram;
  /** The parser and its options: a parse is only reused under the same ones. */
  parsedWith: string;
}

/**
 * The last successful parse of each open document. A document's parse stays until it closes;
 * the oldest are dropped beyond `capacity`, so a missed close cannot hold memory for long.
 */
export class ParseMemory {
  private readonly parses = new Map<string, RememberedParse>();

  constructor(private readonly capacity = 8) {}

  recall(documentKey: string): RememberedParse | undefined {
    return this.parses.get(documentKey);
  }

  remember(documentKey: string, parse: RememberedParse): void {
    this.parses.delete(documentKey);
    this.parses.set(documentKey, parse);
    for (const oldest of this.parses.keys()) {
      if (this.parses.size <= this.capacity) break;
      this.parses.delete(oldest);
    }
  }

  forget(documentKey: string): void {
    this.parses.delete(documentKey);
  }
}
