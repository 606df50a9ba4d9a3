import {
  LessonRunner,
  idempotentConsumers,
  idempotentConsumersLesson,
  loadPgliteAssets,
  pgliteOpener,
  type PgliteAssetUrls,
} from '@idempotency/lessons';

import { attachConsoles } from './console.js';
import { showEvidence } from './evidence.js';
import { Exercises } from './exercises.js';
import { goTo } from './navigation.js';
import { restoreState, saveState, webviewApi } from './panel-state.js';
import { Quiz } from './quiz.js';

interface Bootstrap {
  lesson: string;
  anchor?: string;
  available: boolean;
  assets: PgliteAssetUrls;
  /** The progress the host kept for this lesson, if any. */
  savedState?: unknown;
}

const bootstrap = JSON.parse(document.getElementById('bootstrap')?.textContent ?? '{}') as Bootstrap;
const state = restoreState(bootstrap.lesson, bootstrap.savedState);
const status = document.getElementById('database-status')!;

// A fresh "Learn why" names its place; a panel restored after a reload returns to the last one.
goTo(bootstrap.anchor ?? state.anchor);
if (bootstrap.anchor) {
  state.anchor = bootstrap.anchor;
  saveState(state);
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data as { type?: unknown; anchor?: unknown };
  if (message?.type !== 'go-to') return;
  const anchor = typeof message.anchor === 'string' ? message.anchor : undefined;
  goTo(anchor);
  state.anchor = anchor;
  saveState(state);
});

/** A short line, and the whole story in its tooltip. */
function setStatus(text: string, kind: 'starting' | 'ready' | 'failed', detail = text): void {
  status.textContent = text;
  status.title = detail;
  status.dataset.state = kind;
  document.body.dataset.database = kind;
}

/** Fetches a resource; one stored gzipped (`.gz`) comes back unpacked, by the browser's own code. */
async function fetchUnpacked(url: string | URL): Promise<Response> {
  const response = await fetch(url);
  if (!response.ok || !String(url).endsWith('.gz') || !response.body) return response;
  return new Response(response.body.pipeThrough(new DecompressionStream('gzip')));
}

async function startRunner(): Promise<LessonRunner> {
  const started = performance.now();
  const assets = await loadPgliteAssets(bootstrap.assets, fetchUnpacked);
  // The two stages are kept apart for the end-to-end test's report: fetching and compiling the
  // files, then starting PostgreSQL from the prepared image.
  document.body.dataset.databaseAssetsMs = String(Math.round(performance.now() - started));
  return LessonRunner.open(idempotentConsumers, pgliteOpener(assets));
}

if (!bootstrap.available || bootstrap.lesson !== idempotentConsumers.id) {
  setStatus('This lesson has no runnable examples in this version of the extension.', 'failed');
} else {
  const quiz = new Quiz(document, idempotentConsumersLesson, state, () => saveState(state));
  const exercises = new Exercises(document, idempotentConsumers, state, () => saveState(state));
  quiz.waiting('The practice database is still starting');
  exercises.waiting('The practice database is still starting');
  setStatus(
    'Starting PostgreSQL…',
    'starting',
    'Starting the practice database (PostgreSQL in WebAssembly); the lesson is readable meanwhile.',
  );
  const started = performance.now();
  startRunner().then(
    (runner) => {
      const milliseconds = performance.now() - started;
      document.body.dataset.databaseReadyMs = String(Math.round(milliseconds));
      setStatus(
        `PostgreSQL ready (${runner.engine})`,
        'ready',
        `Practice database ready (${runner.engine}): the run buttons execute on PostgreSQL inside this panel.`,
      );
      webviewApi.postMessage({ type: 'database-ready', milliseconds });
      quiz.enable(runner);
      exercises.enable(runner);
      showEvidence(document, runner);
      attachConsoles(document, runner);
    },
    (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      setStatus(
        `PostgreSQL could not start: ${reason}`,
        'failed',
        `The practice database could not start in this panel (${reason}). The lesson is all here to read; its answers cannot be run.`,
      );
      webviewApi.postMessage({ type: 'database-failed', reason });
      quiz.waiting('The practice database could not start');
      exercises.waiting('The practice database could not start');
    },
  );
}
