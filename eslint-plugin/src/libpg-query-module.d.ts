// libpg-query's Emscripten factory, loaded directly so that it can be instantiated synchronously.
declare module 'libpg-query/wasm/libpg-query.js' {
  const createModule: (options?: object) => Promise<unknown>;
  export default createModule;
}
