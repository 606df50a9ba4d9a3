/**
 * The Prisma schema parser as the engine's bundle carries it: loaded when a lint first reads a
 * `schema.prisma`, not when the worker starts. Building its lexer and grammar (chevrotain) took
 * about 60 ms of every start, and most projects have no Prisma schema. The build hands the
 * plugin this module in place of the parser's own (see scripts/build.mjs).
 */
/** What the plugin takes from the parser's module (the plugin holds the types of what it returns). */
interface PrismaAst {
  getSchema(text: string): unknown;
}

let parser: PrismaAst | undefined;

function loaded(): PrismaAst {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundler's require: it defers the parser's module until this call
  return (parser ??= require('@mrleebo/prisma-ast/dist/prisma-ast.esm.js') as PrismaAst);
}

export function getSchema(text: string): unknown {
  return loaded().getSchema(text);
}

/** Whether a lint has needed the parser yet (for the test that a start without a schema never loads it). */
export function prismaSchemaParserLoaded(): boolean {
  return parser !== undefined;
}
