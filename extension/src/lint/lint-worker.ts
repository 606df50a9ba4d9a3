/**
 * The lint engine's own bundle (dist/lint-worker.js), run in a worker thread: ESLint, the plugin
 * and typescript-eslint's parser (TypeScript itself, several megabytes) load there, and every lint
 * runs there, so a large file or a slow rule never holds up the extension host, which only sends
 * texts and receives findings (see lint-worker-client.ts).
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';

import { ruleNames, type RuleName } from '../rules.js';
import { loadLintEngine, type LintEngineOptions } from './bundled-lint-engine.js';
import type { LintReport, LintRequest, RuleDocs } from './lint-engine.js';

export { loadLintEngine };

export type MessageToWorker = { type: 'lint'; id: number; request: LintRequest } | { type: 'forget'; documentKey: string };

export type MessageFromWorker =
  | { type: 'ready'; docs: Record<RuleName, RuleDocs> }
  | { type: 'linted'; id: number; report: LintReport }
  | { type: 'failed'; reason: string };

/** What the host hands a new worker; its presence is what makes this bundle serve. */
export interface LintWorkerData {
  lintWorker: LintEngineOptions;
}

const options = (workerData as Partial<LintWorkerData> | null)?.lintWorker;
if (parentPort && options) serve(parentPort, options);

function serve(port: MessagePort, engineOptions: LintEngineOptions): void {
  const loading = loadLintEngine(engineOptions);
  // Requests that come while the engine loads wait for it, in order.
  port.on('message', (message: MessageToWorker) => {
    void loading.then((engine) => {
      if (message.type === 'forget') engine.forget(message.documentKey);
      else port.postMessage({ type: 'linted', id: message.id, report: engine.lint(message.request) } satisfies MessageFromWorker);
    });
  });
  loading.then(
    (engine) => port.postMessage({ type: 'ready', docs: Object.fromEntries(ruleNames.map((rule) => [rule, engine.docsOf(rule)])) } as MessageFromWorker),
    (error: unknown) => port.postMessage({ type: 'failed', reason: error instanceof Error ? error.message : String(error) } satisfies MessageFromWorker),
  );
}
