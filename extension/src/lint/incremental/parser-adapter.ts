import type { EstreeProgram, VisitorKeys } from './estree.js';

/** The options ESLint hands a parser's `parseForESLint`. */
export type ParserOptions = Readonly<Record<string, unknown>>;

/** What `parseForESLint` returns, as far as ESLint reads it. */
export interface ParseResult {
  ast: EstreeProgram;
  scopeManager?: unknown;
  services?: unknown;
  visitorKeys?: unknown;
}

/** One parser as incremental parsing needs it: the full parse, a parse of a fragment, and what completes a spliced program. */
export interface ParserAdapter {
  readonly meta: { name: string; version: string };
  readonly visitorKeys: VisitorKeys;
  /** The parser rejects files whose statements' declarations clash with each other. */
  readonly declarationsClash: boolean;
  /** Exactly the parse ESLint would do with this parser. */
  parse(text: string, options: ParserOptions): ParseResult;
  /** The program of a text that stands in for the whole file; throws on a syntax error. */
  parseFragment(text: string, options: ParserOptions): EstreeProgram;
  /** What `parse` adds to a program (scope analysis, parser services), for a spliced one. */
  complete(program: EstreeProgram, options: ParserOptions): ParseResult;
  /** Why, under these options, a statement might not parse alone as it does in its file; undefined when it does. */
  fragmentsUnsupported(options: ParserOptions): string | undefined;
}
