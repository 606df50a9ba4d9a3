/**
 * The entry point of the lint engine's own bundle (dist/lint-engine.js). It holds ESLint, the
 * plugin and typescript-eslint's parser (TypeScript itself, several megabytes), so the
 * extension loads it after activation instead of making every editor start pay for it.
 */
import * as typeScriptParser from '@typescript-eslint/parser';
import { Linter } from 'eslint/universal';
import plugin, { whenSqlParserReady } from 'eslint-plugin-idempotency';

import { createIncrementalParsing } from './incremental/incremental-parsing';
import { createLintEngine, type IdempotencyPlugin, type LintEngine } from './lint-engine';

export interface LintEngineOptions {
  /** Re-parse only what changed in a document (the default); off, every lint parses the whole file, as a fallback does. */
  incrementalParsing?: boolean;
}

export async function loadLintEngine(options: LintEngineOptions = {}): Promise<LintEngine> {
  // SQL inside strings is parsed by a WebAssembly module; rules skip SQL until it is ready,
  // so the first lint must wait for it or it would miss findings.
  await whenSqlParserReady();
  return createLintEngine({
    linter: new Linter({ configType: 'flat' }),
    plugin: plugin as unknown as IdempotencyPlugin,
    parsing: createIncrementalParsing(typeScriptParser, { reparseChanges: options.incrementalParsing !== false }),
  });
}
