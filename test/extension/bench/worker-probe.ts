import { createRequire } from 'node:module';

import type { LintEngineOptions } from '../../../extension/src/lint/bundled-lint-engine.js';
import type { ParseOutcome } from '../../../extension/src/lint/incremental/parse-memory.js';
import type { LintWorkerData, MessageFromWorker } from '../../../extension/src/lint/lint-engine-bundle.js';

/** What the engine said about each lint: how it parsed the text, and how long the whole lint took. */
export interface LintRecord {
  parse: ParseOutcome | undefined;
  lintMs: number;
  /** When the report reached the host's thread (performance.now()). */
  arrivedAt: number;
}

/**
 * Stands between the extension and its lint worker, so the benchmark runs the extension's own
 * path (the host bundle starting dist/lint-worker.js in a thread) while choosing the engine's
 * options and hearing how each lint went. The host bundle takes `Worker` from Node's
 * worker_threads module when it starts the worker; this puts a subclass in its place.
 */
export function probeLintWorker(options: LintEngineOptions): LintRecord[] {
  const threads = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
  const records: LintRecord[] = [];
  const Original = threads.Worker;
  threads.Worker = class ProbedWorker extends Original {
    constructor(file: string | URL, init: import('node:worker_threads').WorkerOptions = {}) {
      const data = init.workerData as LintWorkerData;
      super(file, {
        ...init,
        workerData: { ...data, lintWorker: { ...data.lintWorker, ...options } } satisfies LintWorkerData,
      });
      this.on('message', (message: MessageFromWorker) => {
        if (message.type !== 'linted') return;
        records.push({
          parse: 'parse' in message.report ? message.report.parse : undefined,
          lintMs: message.report.durationMs,
          arrivedAt: performance.now(),
        });
      });
    }
  };
  return records;
}
