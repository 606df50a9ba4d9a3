import { createPathsMatcher, findTsconfig, getTsconfig, type TsConfigResult } from 'get-tsconfig';
import { parse as parseJsonc } from 'jsonc-parser';

import { textOf } from './files.js';

/**
 * The nearest tsconfig with the bases it extends; or, when a base cannot be found (a workspace's
 * shared config package before an install), its own options alone: a project's `paths` are
 * written beside its sources, so they still resolve its imports.
 */
function nearestTsconfig(dir: string): TsConfigResult | null {
  try {
    return getTsconfig(dir);
  } catch {
    const file = findTsconfig(dir);
    const text = file && textOf(file);
    const config: unknown = text && parseJsonc(text);
    if (!file || typeof config !== 'object' || config === null || !('compilerOptions' in config)) return null;
    return {
      path: file,
      config: { compilerOptions: config.compilerOptions as TsConfigResult['config']['compilerOptions'] },
    };
  }
}

const matchers = new Map<string, ((specifier: string) => string[]) | null>();

/** The files a specifier may name through the `paths` of the tsconfig nearest `dir`; null without one. */
export function pathsMatcher(dir: string): ((specifier: string) => string[]) | null {
  let matcher = matchers.get(dir);
  if (matcher === undefined) {
    try {
      const tsconfig = nearestTsconfig(dir);
      matcher = (tsconfig && createPathsMatcher(tsconfig)) ?? null;
    } catch {
      matcher = null;
    }
    matchers.set(dir, matcher);
  }
  return matcher;
}
