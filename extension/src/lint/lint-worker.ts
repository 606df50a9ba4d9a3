/**
 * The lint worker's entry (dist/lint-worker.js), run in a worker thread. It only loads the
 * engine's bundle (dist/lint-engine.js) with V8's code cache, when the host gives it a folder for
 * one, and serves lints with it.
 */
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

import { requireWithCodeCache } from './code-cache.js';
import type { LintWorkerData } from './lint-engine-bundle.js';

const data = workerData as Partial<LintWorkerData> | null;
if (parentPort && data?.lintWorker) {
  const engineBundle = requireWithCodeCache<typeof import('./lint-engine-bundle.js')>(
    path.join(__dirname, 'lint-engine.js'),
    data.codeCacheDir,
  );
  engineBundle.exports.serve(parentPort, data.lintWorker, {
    codeCache: engineBundle.state,
    afterFirstLint: engineBundle.save,
  });
}
