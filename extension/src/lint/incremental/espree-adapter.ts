import * as eslintScope from 'eslint-scope';
import * as espree from 'espree';

import type { EstreeProgram } from './estree.js';
import type { ParseResult, ParserAdapter, ParserOptions } from './parser-adapter.js';

interface EspreeOptions {
  ecmaVersion?: unknown;
  sourceType?: 'script' | 'module' | 'commonjs';
  ecmaFeatures?: { globalReturn?: boolean; impliedStrict?: boolean; jsx?: boolean };
}

/**
 * espree, ESLint's own JavaScript parser, called with the options ESLint gives it. espree
 * returns no scope manager; the adapter analyses scopes with eslint-scope, as ESLint does after
 * an espree parse and with the same options, for a full program and a spliced one alike.
 */
export function espreeAdapter(): ParserAdapter {
  const parse = (text: string, options: ParserOptions) => espree.parse(text, options) as unknown as EstreeProgram;
  const complete = (program: EstreeProgram, options: ParserOptions): ParseResult => {
    const given = options as EspreeOptions;
    const scopeManager = eslintScope.analyze(program as never, {
      ignoreEval: true,
      nodejsScope: given.ecmaFeatures?.globalReturn,
      impliedStrict: given.ecmaFeatures?.impliedStrict,
      ecmaVersion: typeof given.ecmaVersion === 'number' ? given.ecmaVersion : 6,
      sourceType: given.sourceType ?? 'script',
      childVisitorKeys: espree.VisitorKeys,
      jsx: given.ecmaFeatures?.jsx,
    });
    return { ast: program, scopeManager, visitorKeys: espree.VisitorKeys };
  };
  return {
    meta: { name: 'espree', version: espree.version },
    visitorKeys: espree.VisitorKeys,
    declarationsClash: true,
    parse: (text, options) => complete(parse(text, options), options),
    parseFragment: parse,
    complete,
    fragmentsUnsupported: () => undefined,
  };
}
