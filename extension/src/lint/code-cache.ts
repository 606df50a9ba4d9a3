import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, wrap } from 'node:module';
import path from 'node:path';
import * as vm from 'node:vm';

/** What became of V8's code cache for a bundle: used, written for next time, or not kept at all. */
export type CodeCacheState = 'used' | 'created' | 'rejected' | 'off';

export interface CachedModule<Exports> {
  exports: Exports;
  /** Whether a cache was found and V8 took it. */
  state: CodeCacheState;
  /**
   * Writes the code compiled so far (the bundle's top level and every function run since) for
   * the next start, unless the cache it started from was taken. Never throws: a cache is an aid.
   */
  save: () => void;
}

const cachePrefix = 'lint-engine-';

/**
 * Loads a CommonJS bundle as `require` would, but compiled with V8's code cache from `cacheDir`.
 * Compiling the engine's bundle (ESLint, the plugin, TypeScript's parser) and the functions its
 * first lint runs is most of what a worker's start costs; with the cache V8 deserialises the
 * code instead. The cache names the Node version, the architecture and the bundle's size and
 * modification time; V8 itself refuses a cache made for other code or flags, and a refused one
 * is written anew.
 */
export function requireWithCodeCache<Exports>(file: string, cacheDir: string | undefined): CachedModule<Exports> {
  const requireFrom = createRequire(file);
  if (!cacheDir) return { exports: requireFrom(file) as Exports, state: 'off', save: () => {} };
  const stat = statSync(file);
  const cacheFile = path.join(
    cacheDir,
    `${cachePrefix}${process.version}-${process.arch}-${stat.size}-${Math.round(stat.mtimeMs)}.cache`,
  );
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(wrap(readFileSync(file, 'utf8')), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    // The engine never imports dynamically on its paths; should it, the import behaves as in a required module.
    ...(vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER
      ? { importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER }
      : {}),
  });
  const module = { exports: {} as Exports };
  (script.runInThisContext() as (...args: unknown[]) => void).call(
    module.exports,
    module.exports,
    requireFrom,
    module,
    file,
    path.dirname(file),
  );
  const state: CodeCacheState = !cachedData ? 'created' : script.cachedDataRejected ? 'rejected' : 'used';
  return {
    exports: module.exports,
    state,
    save: () => {
      if (state === 'used') return;
      try {
        mkdirSync(cacheDir, { recursive: true });
        // Caches of other versions of the bundle are of no further use.
        for (const name of readdirSync(cacheDir))
          if (name.startsWith(cachePrefix) && path.join(cacheDir, name) !== cacheFile)
            rmSync(path.join(cacheDir, name), { force: true });
        const partial = `${cacheFile}.${process.pid}.partial`;
        writeFileSync(partial, script.createCachedData());
        renameSync(partial, cacheFile);
      } catch {
        // An unwritable folder only means the next start compiles again.
      }
    },
  };
}
