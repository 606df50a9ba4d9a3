import * as espree from 'espree';

import { EditorSourceCode } from './editor-source-code.js';
import type { IncrementalParsing } from './incremental/incremental-parsing.js';
import type { ParseOutcome } from './incremental/parse-memory.js';
import type { ParserOptions } from './incremental/parser-adapter.js';

export type ParsedSource = (
  | { ok: true; sourceCode: EditorSourceCode }
  /** What ESLint reports for a text that does not parse. */
  | { ok: false; message: string; line: number }
) & { outcome: ParseOutcome };

const typeScriptFile = /\.(?:[cm]?ts|tsx)$/i;
const jsxFile = /\.jsx$/i;
const commonJsFile = /\.cjs$/i;
const shebang = /^#!([^\r\n]+)/u;
const byteOrderMark = 0xfeff;

/** ESLint's `ecmaVersion: 'latest'`, as the year it hands parsers. */
export const latestEcmaVersion = espree.latestEcmaVersion + 2009;

/**
 * The options ESLint gives the parser of `fileName` under the engine's config: ESLint's defaults
 * (the latest syntax, modules, CommonJS in `.cjs`), JSX in `.jsx`, and what ESLint asks every
 * parser for. A test holds these to what ESLint itself passes.
 */
export function parserOptionsFor(fileName: string): ParserOptions {
  return {
    ecmaVersion: latestEcmaVersion,
    sourceType: commonJsFile.test(fileName) ? 'commonjs' : 'module',
    ...(jsxFile.test(fileName) ? { ecmaFeatures: { jsx: true } } : {}),
    loc: true,
    range: true,
    tokens: true,
    comment: true,
    eslintVisitorKeys: true,
    eslintScopeManager: true,
    filePath: fileName,
  };
}

/**
 * Parses a text the way ESLint would before it runs rules (the byte order mark set aside, a
 * shebang read as a comment, the parser its file name calls for), into the `SourceCode` the
 * engine hands ESLint; only what changed since the last parse of `documentKey` is read again.
 * Parsing here rather than inside ESLint is what lets the engine choose the traversal (see
 * `EditorSourceCode`).
 */
export function parseSource(
  text: string,
  fileName: string,
  parsing: IncrementalParsing,
  documentKey?: string,
): ParsedSource {
  const hasBOM = text.charCodeAt(0) === byteOrderMark;
  const body = hasBOM ? text.slice(1) : text;
  const parser = typeScriptFile.test(fileName) ? parsing.typeScriptParser : parsing.javaScriptParser;
  const parsed = parser.parse(
    body.replace(shebang, (_line, rest: string) => `//${rest}`),
    parserOptionsFor(fileName),
    documentKey,
  );
  if (!parsed.ok) {
    const { message, lineNumber } = parsed.error as { message?: unknown; lineNumber?: unknown };
    return {
      ok: false,
      // Parsers put the line in front of some messages; ESLint takes it off, since the report carries the line.
      message: `Parsing error: ${String(message)
        .replace(/^line \d+:/iu, '')
        .trim()}`,
      line: typeof lineNumber === 'number' ? lineNumber : 1,
      outcome: parsed.outcome,
    };
  }
  const { ast, services, scopeManager, visitorKeys } = parsed.result;
  // ESLint indexes every token of the file for the token store's queries as it makes a
  // `SourceCode` (a twelfth of a lint of the benchmark's consumer). Neither the rules nor ESLint
  // ask them (a test guards that), so the store is made over no tokens; the program keeps its own.
  const program = ast as { tokens?: unknown[] };
  const tokens = program.tokens;
  program.tokens = [];
  let sourceCode: EditorSourceCode;
  try {
    sourceCode = new EditorSourceCode({
      text: body,
      ast: ast as never,
      hasBOM,
      parserServices: (services ?? {}) as never,
      scopeManager: scopeManager as never,
      visitorKeys: visitorKeys as never,
    });
  } finally {
    // The incremental parser splices the next edit into this program, tokens and all.
    program.tokens = tokens;
  }
  return { ok: true, sourceCode, outcome: parsed.outcome };
}
