declare const __CODEWHALE_VERSION__: string;

/** The CLI's version: the package.json `version`, inlined at build time (and in tests by vitest). */
export const VERSION: string = __CODEWHALE_VERSION__;
