// Packs dist/ into a .vsix with @vscode/vsce. Everything the extension runs is bundled, so no
// node_modules go in (--no-dependencies), and the size is printed because it has a budget.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const extensionRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(path.join(extensionRoot, 'package.json'), 'utf8'));
const output = path.join(extensionRoot, 'out', `${manifest.name}-${manifest.version}.vsix`);
const vsce = createRequire(import.meta.url).resolve('@vscode/vsce/vsce');

mkdirSync(path.dirname(output), { recursive: true });
execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--out', output], {
  cwd: extensionRoot,
  stdio: 'inherit',
});
const megabytes = statSync(output).size / (1024 * 1024);
console.log(`vsix: ${path.relative(process.cwd(), output)} (${megabytes.toFixed(2)} MB; budget 12 MB)`);
if (megabytes > 12) {
  console.error('The package is over its 12 MB budget.');
  process.exitCode = 1;
}
