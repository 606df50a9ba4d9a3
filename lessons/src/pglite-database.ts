import { PGlite, type PGliteOptions } from '@electric-sql/pglite';

import type { DatabaseOpener, LessonDatabase, Queryable, QueryRows, StatementResult } from './database.js';

/**
 * What a host hands over so PGlite never fetches anything by itself. A browser or webview host
 * loads these from its own resources; in Node every field may be left out.
 */
export interface PgliteAssets {
  /** PGlite's `pglite.wasm`, compiled. */
  pgliteWasmModule?: WebAssembly.Module;
  /** PGlite's `initdb.wasm`, compiled. PGlite asks for it at start-up even when an image is given. */
  initdbWasmModule?: WebAssembly.Module;
  /** PGlite's `pglite.data` (the Postgres share files). */
  fsBundle?: Blob;
  /**
   * The database image that `npm run build` prepares (`dist/pglite-image.tar.gz`). With it, a
   * database is ready in well under a second; without it PGlite runs initdb, which takes seconds.
   */
  dataDirImage?: Blob;
}

/** Where a host serves the assets; each is fetched once and compiled where that applies. */
export interface PgliteAssetUrls {
  pgliteWasm?: string | URL;
  initdbWasm?: string | URL;
  fsBundle?: string | URL;
  dataDirImage?: string | URL;
}

export async function loadPgliteAssets(
  urls: PgliteAssetUrls,
  fetchResource: (url: string | URL) => Promise<Response> = (url) => fetch(url),
): Promise<PgliteAssets> {
  const load = async (url: string | URL): Promise<Response> => {
    const response = await fetchResource(url);
    if (!response.ok) throw new Error(`Could not load ${String(url)}: HTTP ${response.status}`);
    return response;
  };
  // Compiled while the bytes still arrive. The response is re-labelled as WebAssembly, which
  // compileStreaming() insists on and which webview resource servers do not always say.
  const moduleOf = async (url: string | URL) => {
    const response = await load(url);
    if (typeof WebAssembly.compileStreaming !== 'function' || !response.body)
      return WebAssembly.compile(await response.arrayBuffer());
    return WebAssembly.compileStreaming(
      new Response(response.body, { headers: { 'Content-Type': 'application/wasm' } }),
    );
  };
  const blobOf = async (url: string | URL) => (await load(url)).blob();
  const [pgliteWasmModule, initdbWasmModule, fsBundle, dataDirImage] = await Promise.all([
    urls.pgliteWasm === undefined ? undefined : moduleOf(urls.pgliteWasm),
    urls.initdbWasm === undefined ? undefined : moduleOf(urls.initdbWasm),
    urls.fsBundle === undefined ? undefined : blobOf(urls.fsBundle),
    urls.dataDirImage === undefined ? undefined : blobOf(urls.dataDirImage),
  ]);
  return { pgliteWasmModule, initdbWasmModule, fsBundle, dataDirImage };
}

export function pgliteOpener(assets: PgliteAssets = {}): DatabaseOpener {
  return async () => {
    const options: PGliteOptions = {};
    if (assets.pgliteWasmModule) options.pgliteWasmModule = assets.pgliteWasmModule;
    if (assets.initdbWasmModule) options.initdbWasmModule = assets.initdbWasmModule;
    if (assets.fsBundle) options.fsBundle = assets.fsBundle;
    if (assets.dataDirImage) options.loadDataDir = assets.dataDirImage;
    return new PgliteLessonDatabase(await PGlite.create(options));
  };
}

/**
 * PGlite has a single connection. A worker's "fresh connection" is therefore modelled as
 * `DISCARD ALL` followed by its own `transaction()`; deliveries run one after another and never as
 * two raw `BEGIN`s, which on one instance would silently share a transaction.
 */
export class PgliteLessonDatabase implements LessonDatabase {
  readonly engine = 'PGlite';
  readonly read: Queryable;

  constructor(private readonly pglite: PGlite) {
    this.read = { query: (sql, params) => rowsOf(pglite.query(sql, params)) };
  }

  /** The instance itself, for callers that dump its data directory (the build does). */
  get instance(): PGlite {
    return this.pglite;
  }

  async reset(schemaSql: string): Promise<void> {
    // The instance is private to this runner, so the public schema is ours to replace.
    await this.pglite.exec(`DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public;\n${schemaSql}`);
  }

  async asWorker<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    await this.pglite.exec('DISCARD ALL');
    return this.pglite.transaction((tx) => work({ query: (sql, params) => rowsOf(tx.query(sql, params)) }));
  }

  async runSql(sql: string): Promise<StatementResult[]> {
    try {
      const results = await this.pglite.exec(sql);
      return results.map((result) => ({
        columns: result.fields.map((field) => field.name),
        rows: result.rows,
        // PGlite does not say which command a result belongs to; a result without columns is a change.
        affectedRows: result.fields.length === 0 ? (result.affectedRows ?? 0) : null,
      }));
    } finally {
      if (this.pglite.isInTransaction()) await this.pglite.exec('ROLLBACK');
    }
  }

  async close(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }
}

async function rowsOf<Row>(pending: Promise<{ rows: unknown[]; affectedRows?: number }>): Promise<QueryRows<Row>> {
  const result = await pending;
  return { rows: result.rows as Row[], affectedRows: result.affectedRows };
}
