import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { idempotentConsumers } from '../../lessons/idempotent-consumers/index.js';
import { pgliteImageFile } from '../../lessons/src/node/paths.js';
import { loadPgliteAssets, pgliteOpener } from '../../lessons/src/pglite-database.js';
import { LessonRunner } from '../../lessons/src/runner.js';

/**
 * A webview host cannot let PGlite find its own files: it hands over the wasm modules, the data
 * bundle and the prepared image, fetched from its resource URLs. The same path runs here, with a
 * fetch that serves files from disk, so the host's start-up is exercised outside an editor too.
 */
const pgliteDist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));

describe('PGlite started from assets a host hands over', () => {
  it('loads them through the given fetch and runs an example on the prepared image', async () => {
    const fetched: string[] = [];
    const serveFile = async (url: string | URL) => {
      fetched.push(String(url));
      return new Response(new Uint8Array(await readFile(String(url))));
    };
    const assets = await loadPgliteAssets(
      {
        pgliteWasm: join(pgliteDist, 'pglite.wasm'),
        initdbWasm: join(pgliteDist, 'initdb.wasm'),
        fsBundle: join(pgliteDist, 'pglite.data'),
        dataDirImage: pgliteImageFile,
      },
      serveFile,
    );
    expect(fetched).toHaveLength(4);
    expect(assets.pgliteWasmModule).toBeInstanceOf(WebAssembly.Module);
    const runner = await LessonRunner.open(idempotentConsumers, pgliteOpener(assets));
    try {
      expect(await runner.runExample('example-4-1')).toMatchObject({
        ok: true,
        line: '4.1 inbox claims: notice-amber=fresh, notice-birch=fresh, notice-amber=conflict\n4.1 check then insert, one worker at a time: notice-amber=inserted, notice-birch=inserted, notice-amber=skipped',
      });
    } finally {
      await runner.close();
    }
  });

  it('reports an asset the host cannot serve, naming it', async () => {
    const missing = async () => new Response('not here', { status: 404 });
    await expect(loadPgliteAssets({ dataDirImage: 'webview://lessons/pglite-image.tar.gz' }, missing)).rejects.toThrow(
      'Could not load webview://lessons/pglite-image.tar.gz: HTTP 404',
    );
  });
});
