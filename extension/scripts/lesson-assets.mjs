// Copies what the lesson panel loads at run time into dist/webview: PGlite's WebAssembly and
// data files (and, once the lessons package provides them, the lessons and their prepared database).
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

export const databaseAssetFiles = {
  pgliteWasm: 'pglite.wasm',
  initdbWasm: 'initdb.wasm',
  pgliteData: 'pglite.data',
};

export function copyLessonAssets(webviewDist) {
  const pgliteDist = path.dirname(require.resolve('@electric-sql/pglite'));
  for (const file of Object.values(databaseAssetFiles)) copyFileSync(path.join(pgliteDist, file), path.join(webviewDist, file));
}
