import type { ParseMemory, ParseOutcome } from './parse-memory';
import type { ParseResult, ParserAdapter, ParserOptions } from './parser-adapter';
import { spliceProgram } from './program-splice';

export interface IncrementalParserOptions {
  /** Above this share of the file, a change is parsed in full (see `spliceProgram`). */
  maxShare?: number;
  /** Off, every text is parsed in full: what a fallback costs, for comparison. */
  reparseChanges?: boolean;
}

/** An ESLint parser (`parseForESLint`) that parses only what changed in a document since its last parse. */
export interface IncrementalParser {
  meta: { name: string; version: string };
  parseForESLint(text: string, options: ParserOptions): ParseResult;
}

/**
 * Wraps a parser so that a document's text is parsed again only where it changed, with the same
 * result as a full parse; anything the splice cannot vouch for is parsed in full. Outside a
 * document (no key in `memory`), it is the wrapped parser.
 */
export function incrementalParser(adapter: ParserAdapter, memory: ParseMemory, options: IncrementalParserOptions = {}): IncrementalParser {
  const maxShare = options.maxShare ?? 0.5;

  function parseForESLint(text: string, parserOptions: ParserOptions): ParseResult {
    const started = performance.now();
    const documentKey = memory.document;
    const parsedWith = `${adapter.meta.name}@${adapter.meta.version} ${JSON.stringify(parserOptions)}`;

    const full = (reason: string): ParseResult => {
      // Recorded first, so that a syntax error (thrown here, as without this wrapper) still says how it was parsed.
      memory.record({ kind: 'full', reason });
      const result = adapter.parse(text, parserOptions);
      // After a syntax error the last good parse stays: the next change is measured from it.
      if (documentKey !== undefined) memory.remember(documentKey, { text, program: result.ast, parsedWith });
      memory.record({ kind: 'full', reason, durationMs: performance.now() - started });
      return result;
    };

    if (documentKey === undefined) return full('not an open document');
    const previous = memory.recall(documentKey);
    if (!previous) return full('first parse of the document');
    if (previous.parsedWith !== parsedWith) return full('other parser options');
    if (options.reparseChanges === false) return full('incremental parsing is off');

    let program = previous.program;
    let outcome: ParseOutcome = { kind: 'reused' };
    if (previous.text !== text) {
      const unsupported = adapter.fragmentsUnsupported(parserOptions);
      if (unsupported) return full(unsupported);
      const spliced = spliceProgram(previous, text, {
        visitorKeys: adapter.visitorKeys,
        parseFragment: (fragment) => adapter.parseFragment(fragment, parserOptions),
        declarationsClash: adapter.declarationsClash,
        maxShare,
      });
      if ('fallback' in spliced) return full(spliced.fallback);
      program = spliced.program;
      outcome = { kind: 'incremental' };
    }

    let result: ParseResult;
    try {
      result = adapter.complete(program, parserOptions);
    } catch (error) {
      // The splice has already moved the previous program's later nodes: it is no base for another.
      memory.forget(documentKey);
      return full(`completing the program failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    memory.remember(documentKey, { text, program, parsedWith });
    memory.record({ ...outcome, durationMs: performance.now() - started });
    return result;
  }

  return { meta: { name: `${adapter.meta.name} (incremental)`, version: adapter.meta.version }, parseForESLint };
}
