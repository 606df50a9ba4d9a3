import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';

import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

import { packageRoot } from '../../lessons/src/node/paths.js';

/**
 * The webview bundles the lessons package for a browser. Bundling its entry the same way, with
 * Node built-ins unavailable, proves nothing Node-only is reachable from it.
 */
describe('the browser entry of @idempotency/lessons', () => {
  it('bundles for the browser with no Node built-in, no pg, and none of the Node-only modules', async () => {
    const result = await build({
      entryPoints: [join(packageRoot, 'src', 'browser.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      // PGlite ships its own browser build; the host bundles it with its wasm and data files.
      external: ['@electric-sql/pglite'],
    });
    const inputs = Object.keys(result.metafile.inputs).map((input) =>
      relative(packageRoot, join(process.cwd(), input)),
    );
    expect(inputs.filter((input) => input.startsWith('src/node/') || input.startsWith('src/build/'))).toEqual([]);
    expect(
      inputs.filter((input) => /node_modules\/(pg|pg-[a-z]+|eslint[^/]*|typescript|markdown-it)\//.test(input)),
    ).toEqual([]);
    expect(inputs).toContain('generated/idempotent-consumers.json');
    const imports = Object.values(result.metafile.outputs).flatMap((output) =>
      output.imports.map((imported) => imported.path),
    );
    expect(imports).toEqual(['@electric-sql/pglite']);
  });

  it('is what package.json exports, next to the lesson JSON and the database image', () => {
    for (const file of [
      'dist/src/browser.js',
      'dist/src/browser.d.ts',
      'dist/generated/idempotent-consumers.json',
      'dist/pglite-image.tar.gz',
    ]) {
      expect(existsSync(join(packageRoot, file)), `${file} (run npm run build -w lessons)`).toBe(true);
    }
  });
});
