// Copies what the lesson panel needs at run time: each built lesson (read by the host, which
// renders it into the page) into dist/lessons, and PGlite's WebAssembly and data files plus the
// prepared database image (fetched by the page) into dist/webview.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);

export function copyLessonAssets(dist) {
  const webview = path.join(dist, 'webview');
  const lessons = path.join(dist, 'lessons');
  mkdirSync(lessons, { recursive: true });
  const pgliteDist = path.dirname(require.resolve('@electric-sql/pglite'));
  // PGlite's files are fetched gzipped and unpacked by the browser's native DecompressionStream:
  // under half the bytes through the editor's resource channel. (The image is gzipped already.)
  for (const file of ['pglite.wasm', 'initdb.wasm', 'pglite.data']) {
    writeFileSync(path.join(webview, `${file}.gz`), gzipSync(readFileSync(path.join(pgliteDist, file)), { level: 9 }));
  }
  copyFileSync(require.resolve('@idempotency/lessons/pglite-image.tar.gz'), path.join(webview, 'pglite-image.tar.gz'));
  copyFileSync(
    require.resolve('@idempotency/lessons/idempotent-consumers.json'),
    path.join(lessons, 'idempotent-consumers.json'),
  );
}
