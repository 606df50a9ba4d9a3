import type { ParseMemory, ParseOutcome } from './parse-memory.js';
import type { ParseResult, ParserAdapter, ParserOptions } from './parser-adapter.js';
import { spliceProgram } from './program-splice.js';

export interface IncrementalParserOptions {
  /** Above this share of the file, a change is parsed in full (see `spliceProgram`). */
  maxShare?: number;
  /** Off, every text is parsed in full: what a fallback costs, for comparison. */
  reparseChanges?: boolean;
}

/** How a parse went: its result, or what the parser threw (a syntax error), with how the text was parsed either way. */
export type ParseAttempt =
  { ok: true; result: ParseResult; outcome: ParseOutcome } | { ok: false; error: unknown; outcome: ParseOutcome };

/** A parser that parses only what changed in a document since its last parse. */
export interface IncrementalParser {
  /** Parses `text` of the document `documentKey` (none: a text of no document, parsed in full). */
  parse(text: string, options: ParserOptions, documentKey?: string): ParseAttempt;
}

/**
 * Wraps a parser so that a document's text is parsed again only where it changed, with the same
 * result as a full parse; anything the splice cannot vouch for is parsed in full.
 */
export function incrementalParser(
  adapter: ParserAdapter,
  memory: ParseMemory,
  options: IncrementalParserOptions = {},
): IncrementalParser {
  const maxShare = options.maxShare ?? 0.5;

  function parse(text: string, parserOptions: ParserOptions, documentKey?: string): ParseAttempt {
    const started = performance.now();
    const parsedWith = `${adapter.meta.name}@${adapter.meta.version} ${JSON.stringify(parserOptions)}`;

    const full = (reason: string): ParseAttempt => {
      let result: ParseResult;
      try {
        result = adapter.parse(text, parserOptions);
      } catch (error) {
        // After a syntax error the last good parse stays: the next change is measured from it.
        return { ok: false, error, outcome: { kind: 'full', reason } };
      }
      if (documentKey !== undefined) memory.remember(documentKey, { text, program: result.ast, parsedWith });
      return { ok: true, result, outcome: { kind: 'full', reason, durationMs: performance.now() - started } };
    };

    if (documentKey === undefined) return full('not an open document');
    const previous = memory.recall(documentKey);
    if (!previous) return full('first parse of the document');
    if (previous.parsedWith !== parsedWith) return full('other parser options');
    if (options.reparseChanges === false) return full('incremental parsing is off');

    let program = previous.program;
    let kind: 'reused' | 'incremental' = 'reused';
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
      kind = 'incremental';
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
    return { ok: true, result, outcome: { kind, durationMs: performance.now() - started } };
  }

  return { parse };
}
