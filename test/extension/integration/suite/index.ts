import Mocha from 'mocha';

import { registerSuite } from './extension.suite.js';

/** The entry @vscode/test-electron calls inside the extension host: resolves when every test passed. */
export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: true });
  mocha.suite.emit('pre-require', globalThis, 'extension.suite', mocha);
  registerSuite();
  return new Promise((resolve, reject) => {
    mocha.run((failures) => (failures > 0 ? reject(new Error(`${failures} integration tests failed`)) : resolve()));
  });
}
