#!/usr/bin/env node
// The digest of a package's sources (every file under src/ but the tests: what its build
// reads), and of the sources of the packages its build bundles (the CLI's), written as
// `dist/.source-digest` at the end of each package's `build` and compared by the prepack
// guard. Content, not modification times: a checkout, a stash or a restored file changes a
// file's time without changing what the build would produce, and turbo restores a cached
// dist/ with the times of the run that built it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

export const DIGEST_FILE = join('dist', '.source-digest');

/** True for a file the build does not read (the turbo build inputs leave out the same files). */
export const isTestFile = (name) => /\.test\.tsx?$/.test(name);

/** sha256 over every source file's path (relative, `/`-separated) and bytes, in path order. */
export function sourceDigest(packageDir) {
  const files = [];
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (!isTestFile(entry.name)) files.push(relative(packageDir, p).split(sep).join('/'));
    }
  };
  walk(join(packageDir, 'src'));
  files.sort();
  const hash = createHash('sha256');
  for (const f of files)
    hash
      .update(`${f}\0`)
      .update(readFileSync(join(packageDir, f)))
      .update('\0');
  return hash.digest('hex');
}

/**
 * The digest file of a package: its own digest on the first line, then one line
 * `<digest> <dir>` for each package whose sources its build bundles (`bundled`: folders
 * relative to the package, as the build script names them; the CLI bundles six).
 */
export function digestFileText(packageDir, bundled = []) {
  return `${[sourceDigest(packageDir), ...bundled.map((d) => `${sourceDigest(join(packageDir, d))} ${d}`)].join('\n')}\n`;
}

/**
 * The digest file read back: the package's own digest and the bundled folders'. An empty or
 * damaged file gives an own digest that matches no sources, so the guard refuses it.
 */
export function parseDigestFile(text) {
  const [own = '', ...rest] = text.trim().split('\n');
  const bundled = [];
  for (const line of rest) {
    const at = line.indexOf(' ');
    if (at > 0) bundled.push({ digest: line.slice(0, at), dir: line.slice(at + 1) });
  }
  return { own: own.trim(), bundled };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // Arguments: the folders of the packages whose sources this package's build bundles.
  writeFileSync(join(process.cwd(), DIGEST_FILE), digestFileText(process.cwd(), process.argv.slice(2)));
}
