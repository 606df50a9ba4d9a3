// Bundles the extension: the host code, the lint engine (loaded lazily by the host) and the
// lesson panel's page, each on its own, plus the WebAssembly and data files they load at run time.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as esbuild from 'esbuild';

import { copyLessonAssets } from './lesson-assets.mjs';
import { renderRulePages } from './rule-pages.mjs';

const extensionRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(extensionRoot, 'dist');
const require = createRequire(path.join(extensionRoot, 'package.json'));
const production = process.env.NODE_ENV !== 'development';

rmSync(dist, { recursive: true, force: true });
mkdirSync(path.join(dist, 'webview'), { recursive: true });

/**
 * The plugin's Prisma schema parser, loaded on first use: imports of it from the plugin resolve to
 * the engine's module that requires it lazily (src/lint/prisma-schema-parser.ts).
 */
const prismaSchemaParser = {
  name: 'lazy-prisma-schema-parser',
  setup(build) {
    const lazy = path.join(extensionRoot, 'src/lint/prisma-schema-parser.ts');
    // The parser is the plugin's dependency, installed beside it.
    const fromPlugin = createRequire(require.resolve('eslint-plugin-idempotency'));
    build.onResolve({ filter: /^@mrleebo\/prisma-ast\/dist\/prisma-ast\.esm\.js$/ }, (args) => ({
      path: args.importer === lazy ? fromPlugin.resolve(args.path) : lazy,
    }));
  },
};

const shared = {
  bundle: true,
  minify: production,
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'linked',
};

await Promise.all([
  esbuild.build({
    ...shared,
    entryPoints: { extension: path.join(extensionRoot, 'src/extension.ts') },
    outdir: dist,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  }),
  // The worker's entry is small: it loads the engine's bundle with V8's code cache.
  esbuild.build({
    ...shared,
    entryPoints: { 'lint-worker': path.join(extensionRoot, 'src/lint/lint-worker.ts') },
    outdir: dist,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  }),
  esbuild.build({
    ...shared,
    entryPoints: { 'lint-engine': path.join(extensionRoot, 'src/lint/lint-engine-bundle.ts') },
    outdir: dist,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Optional peers of the parser stack that the extension never uses.
    external: ['jiti'],
    // jsonc-parser's `main` is a UMD build whose factory requires its modules by name; its ES modules bundle.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
    plugins: [prismaSchemaParser],
    logOverride: { 'empty-import-meta': 'silent' },
  }),
  esbuild.build({
    ...shared,
    entryPoints: { lesson: path.join(extensionRoot, 'webview/lesson.ts') },
    outdir: path.join(dist, 'webview'),
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    // PGlite imports Node's modules only on its Node code path, which never runs in a webview.
    external: ['node:*'],
  }),
]);

// The plugin's SQL parser looks for its WebAssembly beside the bundle that contains it.
copyFileSync(require.resolve('libpg-query/wasm/libpg-query.wasm'), path.join(dist, 'libpg-query.wasm'));
copyFileSync(path.join(extensionRoot, 'webview/lesson.css'), path.join(dist, 'webview/lesson.css'));
for (const theme of ['light', 'dark'])
  copyFileSync(
    path.join(extensionRoot, `webview/lesson-icon-${theme}.svg`),
    path.join(dist, `webview/lesson-icon-${theme}.svg`),
  );
copyLessonAssets(dist);
renderRulePages(dist, path.join(extensionRoot, '../eslint-plugin/docs/rules'));
