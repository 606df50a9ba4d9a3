import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import type { ParseResult } from '@pgsql/types';
import createPgQueryModule from 'libpg-query/wasm/libpg-query.js';

/**
 * PostgreSQL's own parser (libpg_query compiled to WebAssembly).
 *
 * ESLint rules are synchronous, and a top-level await would stop CommonJS configs from loading
 * the plugin. So the WebAssembly module is compiled and instantiated synchronously when this
 * file loads; what is left of its start-up runs as microtasks, which finish before ESLint, the
 * rule tester or the editor lint their first file. Until then (or if the module cannot load)
 * SQL is treated as unparseable and skipped, which is what the rules do with any SQL they
 * cannot read.
 */

interface PgQueryModule {
  _malloc(size: number): number;
  _free(pointer: number): void;
  _wasm_parse_query(pointer: number): number;
  _wasm_scan(pointer: number): number;
  _wasm_free_string(pointer: number): void;
  lengthBytesUTF8(text: string): number;
  stringToUTF8(text: string, pointer: number, size: number): void;
  UTF8ToString(pointer: number): string;
}

export interface SqlToken {
  start: number;
  end: number;
  text: string;
  tokenName: string;
  keywordKind: number;
}

/** The part of the WebAssembly API used here (Node's globals have no type declarations for it). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => object;
}

const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;

let pgQuery: PgQueryModule | undefined;
let settled = false;
let warnedEarly = false;

function wasmPath(): string {
  try {
    return createRequire(import.meta.url).resolve('libpg-query/wasm/libpg-query.wasm');
  } catch {
    // Bundled (the editor extension): the file is shipped beside the bundle.
    return path.join(typeof __dirname === 'string' ? __dirname : process.cwd(), 'libpg-query.wasm');
  }
}

function startParser(): Promise<void> {
  try {
    const compiled = new webAssembly.Module(readFileSync(wasmPath()));
    const instantiateWasm = (imports: object, done: (instance: object) => void) => {
      done(new webAssembly.Instance(compiled, imports));
      return {};
    };
    return (createPgQueryModule as (options: object) => Promise<PgQueryModule>)({ instantiateWasm }).then(
      (module) => {
        pgQuery = module;
        settled = true;
      },
      () => {
        settled = true;
      },
    );
  } catch {
    settled = true;
    return Promise.resolve();
  }
}

const parserReady = startParser();

/** Whether the parser is ready: until then every text reads as "not SQL", which must not be remembered. */
export function sqlParserLoaded(): boolean {
  return pgQuery !== undefined;
}

/** Resolves once SQL can be parsed (or once it is known that it cannot be, here). */
export function whenSqlParserReady(): Promise<void> {
  return parserReady;
}

function callWithText(text: string, call: (pointer: number) => number, module: PgQueryModule): string {
  const size = module.lengthBytesUTF8(text) + 1;
  const input = module._malloc(size);
  let output = 0;
  try {
    module.stringToUTF8(text, input, size);
    output = call(input);
    return module.UTF8ToString(output);
  } finally {
    module._free(input);
    if (output) module._wasm_free_string(output);
  }
}

/** The parse tree of `text`, or null when it is not SQL that PostgreSQL accepts. */
export function parseSql(text: string): ParseResult | null {
  const module = pgQuery;
  if (!module) {
    warnIfEarly();
    return null;
  }
  if (text.trim() === '') return null;
  try {
    const json = callWithText(text, (pointer) => module._wasm_parse_query(pointer), module);
    return json.startsWith('{') ? (JSON.parse(json) as ParseResult) : null;
  } catch {
    return null;
  }
}

/** Linting in the same tick as the import: say so once, rather than skip SQL in silence. */
function warnIfEarly(): void {
  if (settled || warnedEarly) return;
  warnedEarly = true;
  process.emitWarning(
    'eslint-plugin-idempotency: SQL was linted before its parser finished loading, so it was skipped. Await whenSqlParserReady() before calling Linter#verify in the same tick as the import.',
  );
}

/** PostgreSQL's tokens for `text` (strings and comments stay whole), or null. */
export function scanSql(text: string): SqlToken[] | null {
  const module = pgQuery;
  if (!module || text === '') return null;
  try {
    const json = callWithText(text, (pointer) => module._wasm_scan(pointer), module);
    if (!json.startsWith('{')) return null;
    return (JSON.parse(json) as { tokens: SqlToken[] }).tokens;
  } catch {
    return null;
  }
}
