/**
 * `import()` of a package that is not in the bundle (the TUI, the Runtime API server). The
 * binary runs the bundle through `vm.Script` with V8's code cache (see compile-cache.ts), and
 * on Node 20 a script restored from cached data loses its dynamic-import callback ("A dynamic
 * import callback was not specified"). So `bin.cjs`, which Node loads as a plain CommonJS
 * module, registers its own `import()` under this symbol and the bundle imports through it;
 * the specifier resolves from `dist/`, exactly as the bundle's own `import()` would.
 */
export const IMPORT_EXTERNAL = Symbol.for('codewhale.importExternal');

type Importer = (specifier: string) => Promise<unknown>;

export function importExternal<T>(specifier: string): Promise<T> {
  const registered = (globalThis as { [IMPORT_EXTERNAL]?: Importer })[IMPORT_EXTERNAL];
  return (registered ? registered(specifier) : import(specifier)) as Promise<T>;
}

/** Called by the binary before it runs the bundle. */
export function registerImportExternal(importer: Importer): void {
  (globalThis as { [IMPORT_EXTERNAL]?: Importer })[IMPORT_EXTERNAL] = importer;
}
