import { analyze, type AnalyzeOptions } from '@typescript-eslint/scope-manager';
import { parse as parseNodesOnly } from '@typescript-eslint/typescript-estree';
import { visitorKeys } from '@typescript-eslint/visitor-keys';

import type { EstreeProgram } from './estree.js';
import type { ParseResult, ParserAdapter, ParserOptions } from './parser-adapter.js';

/** The part of `@typescript-eslint/parser` the adapter uses. */
export interface TypeScriptParserModule {
  meta?: { name?: string; version?: string };
  version?: string;
  parseForESLint(text: string, options?: unknown): unknown;
}

interface TypeScriptParserOptions {
  sourceType?: unknown;
  ecmaFeatures?: { globalReturn?: boolean; jsx?: boolean };
  jsxFragmentName?: string | null;
  jsxPragma?: string | null;
  lib?: AnalyzeOptions['lib'];
  emitDecoratorMetadata?: unknown;
  experimentalDecorators?: unknown;
  isolatedDeclarations?: unknown;
  project?: unknown;
  projectService?: unknown;
  programs?: unknown;
}

/**
 * typescript-eslint's parser. A spliced program gets the scope analysis the parser itself runs,
 * with the options it derives when there is no TypeScript program (the editor never has one).
 * Its parser services say there is no program, as a full parse's do; they lack the maps between
 * ESTree and TypeScript nodes, which only rules that use type information read.
 */
export function typeScriptAdapter(parser: TypeScriptParserModule): ParserAdapter {
  return {
    meta: {
      name: parser.meta?.name ?? 'typescript-eslint/parser',
      version: parser.meta?.version ?? parser.version ?? 'unknown',
    },
    visitorKeys,
    declarationsClash: false,
    parse: (text, options) => parser.parseForESLint(text, options) as ParseResult,
    parseFragment,
    complete(program: EstreeProgram, options: ParserOptions): ParseResult {
      const given = options as TypeScriptParserOptions;
      const scopeManager = analyze(program as never, {
        globalReturn: given.ecmaFeatures?.globalReturn,
        jsxFragmentName: given.jsxFragmentName,
        jsxPragma: given.jsxPragma,
        lib: given.lib,
        sourceType: given.sourceType === 'module' ? 'module' : 'script',
      });
      const services = {
        program: null,
        emitDecoratorMetadata: given.emitDecoratorMetadata === true,
        experimentalDecorators: given.experimentalDecorators === true,
        isolatedDeclarations: given.isolatedDeclarations === true,
      };
      return { ast: program, scopeManager, services, visitorKeys };
    },
    fragmentsUnsupported(options) {
      const given = options as TypeScriptParserOptions;
      if (given.project || given.projectService || given.programs) return 'type information needs the whole program';
      // Outside a module, TypeScript decides how to read a top-level `await` from the whole file.
      if (given.sourceType !== 'module') return 'TypeScript outside a module';
      return undefined;
    },
  };
}

/**
 * A fragment's nodes, as `parseForESLint` would give them: typescript-estree's own parse, with
 * the options the parser hands it. A fragment needs neither the scope analysis nor the stand-in
 * TypeScript program a full parse makes (about a third of a fragment's parse).
 */
function parseFragment(text: string, options: ParserOptions): EstreeProgram {
  const given = options as TypeScriptParserOptions;
  const program = parseNodesOnly(text, {
    jsx: given.ecmaFeatures?.jsx === true,
    ...options,
    errorOnTypeScriptSyntacticAndSemanticIssues: false,
    comment: true,
    loc: true,
    range: true,
    tokens: true,
  }) as unknown as EstreeProgram;
  program.sourceType = given.sourceType === 'module' ? 'module' : 'script';
  return program;
}
