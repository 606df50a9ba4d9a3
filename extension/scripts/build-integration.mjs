// Bundles the integration suite (test/extension/integration) for the extension host; mocha and
// vscode come from the host's own resolution at run time.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as esbuild from 'esbuild';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

await esbuild.build({
  entryPoints: [path.join(repositoryRoot, 'test/extension/integration/suite/index.ts')],
  outfile: path.join(repositoryRoot, 'extension/out/integration/suite.js'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'linked',
  external: ['vscode', 'mocha'],
  logLevel: 'warning',
});
