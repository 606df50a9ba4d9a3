// Runs the integration suite inside a real VS Code extension host through @vscode/test-electron.
// It needs a desktop VS Code: set VSCODE_EXECUTABLE_PATH to one, or let test-electron download
// the version below (that needs access to VS Code's download servers).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { runTests } from '@vscode/test-electron';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

try {
  await runTests({
    version: '1.100.3',
    vscodeExecutablePath: process.env.VSCODE_EXECUTABLE_PATH || undefined,
    extensionDevelopmentPath: path.join(repositoryRoot, 'extension'),
    extensionTestsPath: path.join(repositoryRoot, 'extension/out/integration/suite.js'),
    launchArgs: [
      path.join(repositoryRoot, 'eslint-plugin/examples'),
      '--disable-extensions',
      '--disable-workspace-trust',
    ],
  });
} catch (error) {
  console.error(`The integration suite failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
