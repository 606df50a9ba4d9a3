import { createRequire } from 'node:module';

import type { LintEngineOptions } from '../../../extension/src/lint/bundled-lint-engine';
import type { ParseOutcome } from '../../../extension/src/lint/incremental/parse-memory';
import type { LintEngine } from '../../../extension/src/lint/lint-engine';

type EngineBundle = { loadLintEngine(options?: LintEngineOptions): Promise<LintEngine> };

/** What the engine said about each lint: how it parsed the text, and how long the whole lint took. */
export interface LintRecord {
  parse: ParseOutcome | undefined;
  lintMs: number;
}

/**
 * Stands between the extension and its lint-engine bundle (dist/lint-engine.js), so the
 * benchmark runs the extension's own path while choosing the engine's options and seeing how
 * each lint went. The extension loads the bundle with `require`; Node hands it the module
 * already in its cache, whose exports this replaces.
 */
export function probeLintEngine(bundlePath: string, options: LintEngineOptions): LintRecord[] {
  const require = createRequire(import.meta.url);
  const resolved = require.resolve(bundlePath);
  const bundle = require(resolved) as EngineBundle;
  const records: LintRecord[] = [];
  const probed: EngineBundle = {
    async loadLintEngine() {
      const engine = await bundle.loadLintEngine(options);
      return {
        ...engine,
        lint(request) {
          const report = engine.lint(request);
          records.push({ parse: report.kind === 'failed' ? undefined : report.parse, lintMs: report.durationMs });
          return report;
        },
      };
    },
  };
  require.cache[resolved]!.exports = probed;
  return records;
}
