import { espreeAdapter } from './espree-adapter.js';
import { incrementalParser, type IncrementalParser, type IncrementalParserOptions } from './incremental-parser.js';
import { ParseMemory } from './parse-memory.js';
import { typeScriptAdapter, type TypeScriptParserModule } from './typescript-adapter.js';

/**
 * The editor's parsers: espree for JavaScript and typescript-eslint's parser for TypeScript, as
 * the plugin's recommended config picks them, each re-reading only the statements a change
 * touched, with one memory of the open documents' last parses.
 */
export interface IncrementalParsing {
  memory: ParseMemory;
  typeScriptParser: IncrementalParser;
  javaScriptParser: IncrementalParser;
}

export function createIncrementalParsing(
  typeScriptParser: TypeScriptParserModule,
  options: IncrementalParserOptions = {},
): IncrementalParsing {
  const memory = new ParseMemory();
  return {
    memory,
    typeScriptParser: incrementalParser(typeScriptAdapter(typeScriptParser), memory, options),
    javaScriptParser: incrementalParser(espreeAdapter(), memory, options),
  };
}
