import { Worker } from 'node:worker_threads';

import type { RuleName } from '../rules.js';
import type { LintEngineOptions } from './bundled-lint-engine.js';
import type { LintReport, LintRequest, RuleDocs } from './lint-engine.js';
import type { CodeCacheState } from './code-cache.js';
import type { LintWorkerData, MessageFromWorker, MessageToWorker } from './lint-engine-bundle.js';

/** The lint engine as the extension host sees it: in a worker thread, so every lint is a message. */
export interface LintService {
  lint(request: LintRequest): Promise<LintReport>;
  docsOf(rule: RuleName): RuleDocs;
  /** Drops what the engine keeps about a document (its last parse), when it closes. */
  forget(documentKey: string): void;
}

export interface LintWorker {
  /** The engine, once its worker has loaded it; the first call starts the worker. */
  engine: () => Promise<LintService>;
  dispose(): void;
}

export interface LintWorkerEvents {
  onLoaded(loaded: { loadMs: number; codeCache: CodeCacheState }): void;
  /** A warning from the engine: a schema file the plugin skipped, say. */
  onWarning?(message: string): void;
  /** A worker that had loaded stopped; the next lint starts another. */
  onStopped?(reason: string): void;
  /** The worker could not load the engine. Reported once: every later call fails the same way. */
  onFailure(reason: string): void;
}

/**
 * A lint of the benchmark's 2,000-line consumer allocates about 17 MB (scope analysis, ESLint's
 * token index, the rules' own work), and a scavenge in the middle of one copies everything the
 * lint still holds (10 to 18 ms on two cores). With the default young generation (16 MB
 * semi-spaces) almost every lint had one; twice that size halves them and cut the worker's GC
 * time by about a sixth. Four times that size made each collection longer and lints slower.
 */
const lintHeap = { maxYoungGenerationSizeMb: 96 };

/**
 * Starts the lint worker (dist/lint-worker.js) on first use. A worker that cannot load the engine
 * is not started again (a broken bundle will not mend itself, and retrying on each keystroke would
 * only slow the editor down); one that stops later, say out of memory on a huge file, fails the
 * lints it was running, and the next lint starts a fresh one.
 */
export function lintWorker(
  workerPath: string,
  events: LintWorkerEvents,
  options: LintEngineOptions = {},
  codeCacheDir?: string,
): LintWorker {
  let starting: Promise<LintService> | undefined;
  let current: Worker | undefined;
  let disposed = false;

  const start = () =>
    new Promise<LintService>((resolve, reject) => {
      const started = performance.now();
      const worker = new Worker(workerPath, {
        workerData: { lintWorker: options, ...(codeCacheDir ? { codeCacheDir } : {}) } satisfies LintWorkerData,
        resourceLimits: lintHeap,
      });
      current = worker;
      const pending = new Map<number, (report: LintReport) => void>();
      let nextId = 0;
      let ready = false;
      let stopped = false;
      const send = (message: MessageToWorker) => worker.postMessage(message);

      const stop = (reason: string) => {
        if (stopped) return;
        stopped = true;
        for (const settle of pending.values())
          settle({ kind: 'failed', reason: `the checker stopped (${reason})`, durationMs: 0 });
        pending.clear();
        if (current === worker) current = undefined;
        void worker.terminate();
        if (ready) {
          starting = undefined;
          if (!disposed) events.onStopped?.(reason);
        } else {
          if (!disposed) events.onFailure(reason);
          reject(new Error(reason));
        }
      };

      worker.on('message', (message: MessageFromWorker) => {
        switch (message.type) {
          case 'ready':
            ready = true;
            events.onLoaded({ loadMs: performance.now() - started, codeCache: message.codeCache });
            resolve({
              lint: (request) =>
                stopped
                  ? Promise.resolve({ kind: 'failed', reason: 'the checker stopped', durationMs: 0 })
                  : new Promise((settle) => {
                      const id = nextId++;
                      pending.set(id, settle);
                      send({ type: 'lint', id, request });
                    }),
              docsOf: (rule) => message.docs[rule] ?? {},
              forget: (documentKey) => stopped || send({ type: 'forget', documentKey }),
            });
            return;
          case 'linted':
            pending.get(message.id)?.(message.report);
            pending.delete(message.id);
            return;
          case 'warning':
            events.onWarning?.(message.message);
            return;
          case 'failed':
            stop(message.reason);
            return;
        }
      });
      worker.on('error', (error) => stop(error.message));
      worker.on('exit', (code) => stop(`exit code ${code}`));
    });

  return {
    engine: () => (starting ??= start()),
    dispose: () => {
      disposed = true;
      void current?.terminate();
    },
  };
}
