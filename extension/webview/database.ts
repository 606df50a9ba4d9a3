import { PGlite } from '@electric-sql/pglite';

/** URLs of PGlite's files inside the webview, from the host (`asWebviewUri`). */
export interface DatabaseAssets {
  pgliteWasm: string;
  initdbWasm: string;
  pgliteData: string;
  /** A prepared data directory (a tarball); with it, no initdb runs and start-up is much faster. */
  preparedDataDir?: string;
}

export interface CompiledDatabaseFiles {
  pgliteWasmModule: WebAssembly.Module;
  initdbWasmModule: WebAssembly.Module;
  fsBundle: Blob;
  preparedDataDir?: Blob;
}

async function fetchOk(url: string): Promise<Response> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${new URL(url).pathname.split('/').pop()} could not be loaded (${response.status})`);
  return response;
}

async function compile(url: string): Promise<WebAssembly.Module> {
  // compileStreaming needs the application/wasm type; compiling the bytes works whatever the type.
  return WebAssembly.compile(await (await fetchOk(url)).arrayBuffer());
}

/**
 * Loads PGlite's WebAssembly and data files once. They are fetched from the extension's own
 * files (the page's policy allows nothing else), and handed to PGlite explicitly because a
 * bundle cannot rely on PGlite finding them beside its own module.
 */
export async function loadDatabaseFiles(assets: DatabaseAssets): Promise<CompiledDatabaseFiles> {
  const [pgliteWasmModule, initdbWasmModule, fsBundle, preparedDataDir] = await Promise.all([
    compile(assets.pgliteWasm),
    compile(assets.initdbWasm),
    fetchOk(assets.pgliteData).then((response) => response.blob()),
    assets.preparedDataDir ? fetchOk(assets.preparedDataDir).then((response) => response.blob()) : undefined,
  ]);
  return { pgliteWasmModule, initdbWasmModule, fsBundle, preparedDataDir };
}

/** A new in-memory PostgreSQL, from the prepared data directory when there is one. */
export async function openDatabase(files: CompiledDatabaseFiles): Promise<PGlite> {
  return PGlite.create({
    pgliteWasmModule: files.pgliteWasmModule,
    initdbWasmModule: files.initdbWasmModule,
    fsBundle: files.fsBundle,
    loadDataDir: files.preparedDataDir,
    // Below 128 MB PGlite fails to start; the default asks for far more than a lesson needs.
    initialMemory: 128 * 1024 * 1024,
  });
}
