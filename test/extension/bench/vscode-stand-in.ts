import Module from 'node:module';

import * as fake from '../support/fake-vscode.js';

const cacheKey = '\0vscode-stand-in';

/**
 * Makes `require('vscode')` in the extension's bundle return the fake editor, so the benchmark
 * runs the bundle that ships, on the code path the editor runs, without an editor.
 */
export function installVscodeStandIn(): typeof fake {
  const loader = Module as unknown as {
    _resolveFilename(request: string, ...rest: unknown[]): string;
    _cache: Record<string, unknown>;
  };
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (request: string, ...rest: unknown[]) {
    return request === 'vscode' ? cacheKey : resolve.call(this, request, ...rest);
  };
  loader._cache[cacheKey] = { id: cacheKey, filename: cacheKey, loaded: true, exports: fake, children: [], paths: [] };
  return fake;
}
