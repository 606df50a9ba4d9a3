/**
 * The lint engine's own bundle (dist/lint-engine.js): ESLint, the plugin and typescript-eslint's
 * parser (TypeScript itself, several megabytes). It runs in a worker thread (lint-worker.ts loads
 * it there), and every lint runs there, so a large file or a slow rule never holds up the
 * extension host, which only sends texts and receives findings (see lint-worker-client.ts).
 */
import type { MessagePort } from 'node:worker_threads';

import { ruleNames, type RuleName } from '../rules.js';
import { loadLintEngine, type LintEngineOptions } from './bundled-lint-engine.js';
import type { CodeCacheState } from './code-cache.js';
import type { LintReport, LintRequest, RuleDocs } from './lint-engine.js';

export { loadLintEngine };
export { prismaSchemaParserLoaded } from './prisma-schema-parser.js';

export type MessageToWorker =
  { type: 'lint'; id: number; request: LintRequest } | { type: 'forget'; documentKey: string };

export type MessageFromWorker =
  | { type: 'ready'; docs: Record<RuleName, RuleDocs>; codeCache: CodeCacheState }
  | { type: 'linted'; id: number; report: LintReport }
  /** A warning the plugin emitted (a schema file it skipped), for the host's log. */
  | { type: 'warning'; message: string }
  | { type: 'failed'; reason: string };

/** What the host hands a new worker; its presence is what makes the worker serve. */
export interface LintWorkerData {
  lintWorker: LintEngineOptions;
  /**
   * A folder of the extension's own storage where the worker keeps V8's compiled code of this
   * bundle between sessions; without it the bundle is compiled afresh each time.
   */
  codeCacheDir?: string;
}

export interface ServeOptions {
  codeCache: CodeCacheState;
  /** Called once, after the first lint's report is sent: the code compiled by then is worth keeping. */
  afterFirstLint?: () => void;
}

export function serve(
  port: MessagePort,
  engineOptions: LintEngineOptions,
  { codeCache, afterFirstLint }: ServeOptions,
): void {
  const loading = loadLintEngine(engineOptions);
  let linted = false;
  // The plugin says what it had to skip (a schema file it cannot read) as a process warning; the
  // host logs it and tells the user.
  process.on('warning', (warning) =>
    port.postMessage({ type: 'warning', message: warning.message } satisfies MessageFromWorker),
  );
  // Requests that come while the engine loads wait for it, in order.
  port.on('message', (message: MessageToWorker) => {
    void loading.then((engine) => {
      if (message.type === 'forget') {
        engine.forget(message.documentKey);
        return;
      }
      port.postMessage({
        type: 'linted',
        id: message.id,
        report: engine.lint(message.request),
      } satisfies MessageFromWorker);
      if (!linted) {
        linted = true;
        if (afterFirstLint) setImmediate(afterFirstLint);
      }
    });
  });
  loading.then(
    (engine) =>
      port.postMessage({
        type: 'ready',
        docs: Object.fromEntries(ruleNames.map((rule) => [rule, engine.docsOf(rule)])),
        codeCache,
      }),
    (error: unknown) =>
      port.postMessage({
        type: 'failed',
        reason: error instanceof Error ? error.message : String(error),
      } satisfies MessageFromWorker),
  );
}
