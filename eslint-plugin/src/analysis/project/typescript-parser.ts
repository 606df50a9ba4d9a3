import { createRequire } from 'node:module';

import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

/**
 * typescript-eslint's parser, found the way the project would load it, or the one a host that
 * bundles it (the editor extension) lends: inside a bundle there is no module URL to load by
 * name. The recommended config parses TypeScript files with it, and the analysis reads the
 * project's other modules with it. Loading it loads TypeScript, which a project that lints only
 * JavaScript should not pay for, so nothing is loaded until a file needs parsing.
 */

export type ParseForESLint = (
  code: string,
  options: Record<string, unknown>,
) => { ast: TSESTree.Program; scopeManager: TSESLint.Scope.ScopeManager; visitorKeys: TSESLint.SourceCode.VisitorKeys };

let lent: ParseForESLint | undefined;
let loaded: ParseForESLint | null | undefined;

let found: { require: NodeJS.Require; version: string } | null | undefined;

/** The project's copy of the package, when it has one: `require` bound to this module, and its version; looked up once. */
function installed(): { require: NodeJS.Require; version: string } | undefined {
  if (found === undefined) {
    try {
      const require = createRequire(import.meta.url);
      found = { require, version: (require('@typescript-eslint/parser/package.json') as { version: string }).version };
    } catch {
      found = null;
    }
  }
  return found ?? undefined;
}

/** Lets a host that bundles the parser lend it. */
export function useModuleParser(parse: ParseForESLint): void {
  lent = parse;
}

/** The parser's `parseForESLint`, loaded on the first call; null when there is none. */
export function typeScriptParse(): ParseForESLint | null {
  if (lent) return lent;
  if (loaded === undefined) {
    try {
      loaded =
        (installed()?.require('@typescript-eslint/parser') as { parseForESLint: ParseForESLint } | undefined)
          ?.parseForESLint ?? null;
    } catch {
      loaded = null;
    }
  }
  return loaded;
}

/** The parser for the config's TypeScript files, or undefined when the project does not have it; loaded on first parse. */
export function lazyTypeScriptParser(): TSESLint.FlatConfig.Parser | undefined {
  const project = installed();
  if (!project) return undefined;
  return {
    meta: { name: '@typescript-eslint/parser', version: project.version },
    parseForESLint: (code: string, options?: Record<string, unknown>) => typeScriptParse()!(code, options ?? {}),
  };
}
