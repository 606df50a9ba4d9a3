import type { PGlite } from '@electric-sql/pglite';

import { loadDatabaseFiles, openDatabase, type DatabaseAssets } from './database';
import { goTo } from './navigation';
import { restoreState, saveState, webviewApi, type PanelState } from './panel-state';
import { attachRunners } from './runners';

interface Bootstrap {
  lesson: string;
  anchor?: string;
  available: boolean;
  assets: Partial<Record<string, string>>;
}

const bootstrap = JSON.parse(document.getElementById('bootstrap')?.textContent ?? '{}') as Bootstrap;
const state: PanelState = restoreState(bootstrap.lesson);
const status = document.getElementById('database-status')!;

// A fresh "Learn why" names its place; a restored panel goes back to where the learner was.
goTo(bootstrap.anchor ?? state.anchor);
if (bootstrap.anchor) {
  state.anchor = bootstrap.anchor;
  saveState(state);
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data as { type?: unknown; anchor?: unknown };
  if (message?.type === 'go-to') {
    const anchor = typeof message.anchor === 'string' ? message.anchor : undefined;
    goTo(anchor);
    state.anchor = anchor;
    saveState(state);
  }
});

function setStatus(text: string, kind: 'starting' | 'ready' | 'failed'): void {
  status.textContent = text;
  status.dataset.state = kind;
  document.body.dataset.database = kind;
}

async function startDatabase(): Promise<() => Promise<PGlite>> {
  const { pgliteWasm, initdbWasm, pgliteData, preparedDataDir } = bootstrap.assets;
  if (!pgliteWasm || !initdbWasm || !pgliteData) throw new Error('the database files are missing from this build');
  const assets: DatabaseAssets = { pgliteWasm, initdbWasm, pgliteData, preparedDataDir };
  const files = await loadDatabaseFiles(assets);
  const first = await openDatabase(files);
  let handedOut = false;
  // The first instance is already booted; later callers get new ones from the same compiled files.
  return async () => {
    if (!handedOut) {
      handedOut = true;
      return first;
    }
    return openDatabase(files);
  };
}

const runners = attachRunners(document, state, () => saveState(state));

if (!bootstrap.available) {
  setStatus('This lesson is not part of this build of the extension.', 'failed');
} else {
  const started = performance.now();
  startDatabase().then(
    (openConnection) => {
      const milliseconds = performance.now() - started;
      document.body.dataset.databaseReadyMs = String(Math.round(milliseconds));
      setStatus('Practice database ready: run buttons execute on PostgreSQL (PGlite) inside this panel.', 'ready');
      webviewApi.postMessage({ type: 'database-ready', milliseconds });
      runners.enable(openConnection);
    },
    (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      setStatus(`The practice database could not start here (${reason}). The lesson text is all still here; answers cannot be run.`, 'failed');
      webviewApi.postMessage({ type: 'database-failed', reason });
      runners.unavailable();
    },
  );
}
