/**
 * The lint engine with everything it runs: ESLint, the plugin and typescript-eslint's parser
 * (TypeScript itself, several megabytes). It is bundled on its own (dist/lint-engine.js) and
 * loaded by the worker that runs it (lint-worker.ts), so activating the extension never loads it
 * on the extension host.
 */
import * as typeScriptParser from '@typescript-eslint/parser';
import { Linter } from 'eslint/universal';
import plugin, { entryPointMap, projectReading, useModuleParser, whenSqlParserReady } from 'eslint-plugin-idempotency';

import { createIncrementalParsing } from './incremental/incremental-parsing.js';
import { createLintEngine, type LintEngine } from './lint-engine.js';

export interface LintEngineOptions {
  /** Re-parse only what changed in a document (the default); off, every lint parses the whole file, as a fallback does. */
  incrementalParsing?: boolean;
}

export async function loadLintEngine(options: LintEngineOptions = {}): Promise<LintEngine> {
  // SQL inside strings is parsed by a WebAssembly module; rules skip SQL until it is ready,
  // so the first lint must wait for it or it would miss findings.
  await whenSqlParserReady();
  // A bundle cannot load the parser by name for the project's other modules (an imported helper,
  // a handler defined elsewhere): it lends the one it carries.
  useModuleParser(typeScriptParser.parseForESLint as unknown as Parameters<typeof useModuleParser>[0]);
  return createLintEngine({
    // Files are linted by their absolute paths; the working directory is the file's workspace
    // folder, or the root for a file outside every folder, below which every path lies.
    linter: (cwd) => new Linter({ configType: 'flat', cwd }),
    plugin: plugin,
    parsing: createIncrementalParsing(typeScriptParser, { reparseChanges: options.incrementalParsing !== false }),
    entryPointMap,
    reading: projectReading,
  });
}
