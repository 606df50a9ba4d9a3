import type { LintEngine } from './lint-engine';

interface LintEngineBundle {
  loadLintEngine(): Promise<LintEngine>;
}

export interface LoadedEngine {
  engine: LintEngine;
  loadMs: number;
}

/**
 * Loads the lint engine's bundle once, on first use. A failure is reported once, by `onFailure`,
 * and every later call fails the same way without trying again: a broken bundle will not mend
 * itself, and retrying on each keystroke would only slow the editor down.
 */
export function lazyLintEngine(
  bundlePath: string,
  onLoaded: (loaded: LoadedEngine) => void,
  onFailure: (reason: string) => void,
): () => Promise<LintEngine> {
  let loading: Promise<LintEngine> | undefined;
  return () => {
    loading ??= (async () => {
      const started = performance.now();
      try {
        // A run-time path, deliberately: the bundler must leave this bundle out of the host's.
        const bundle = require(bundlePath) as LintEngineBundle;
        const engine = await bundle.loadLintEngine();
        onLoaded({ engine, loadMs: performance.now() - started });
        return engine;
      } catch (error) {
        onFailure(error instanceof Error ? error.message : String(error));
        throw error;
      }
    })();
    return loading;
  };
}
