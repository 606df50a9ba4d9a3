import * as espree from 'espree';

import type { EstreeProgram, VisitorKeys } from './estree';
import type { ParserAdapter } from './parser-adapter';

/**
 * espree, ESLint's own JavaScript parser, called with the options ESLint gives it. It returns no
 * scope manager, so ESLint analyses scopes itself, for a spliced program as for a full one.
 */
export function espreeAdapter(): ParserAdapter {
  const parse = (text: string, options: unknown) => espree.parse(text, options as espree.Options) as unknown as EstreeProgram;
  return {
    meta: { name: 'espree', version: espree.version },
    visitorKeys: espree.VisitorKeys as unknown as VisitorKeys,
    declarationsClash: true,
    parse: (text, options) => ({ ast: parse(text, options) }),
    parseFragment: parse,
    complete: (program) => ({ ast: program }),
    fragmentsUnsupported: () => undefined,
  };
}
