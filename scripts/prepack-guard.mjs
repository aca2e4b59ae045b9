#!/usr/bin/env node
// `prepack` of every package: refuse to pack or publish a package whose build output is
// missing or was built from other sources than src/ holds now (an unbuilt clone would
// otherwise produce a tarball with only package.json and the README, a stale one yesterday's
// code). The build records a digest of its sources and of those it bundles
// (source-digest.mjs); a build without one (tsup run by hand) is judged by modification times
// of src/. Runs in the package's folder.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DIGEST_FILE, isTestFile, parseDigestFile, sourceDigest } from './source-digest.mjs';

const SOURCE_CONDITION = '@codewhale/source';
const dir = process.cwd();
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** Every file the published manifest points at (exports without the source condition, main, types, bin). */
export function publishedTargets(manifest) {
  const out = new Set();
  const walk = (v, key) => {
    if (key === SOURCE_CONDITION) return;
    if (typeof v === 'string') out.add(v);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(manifest.publishConfig?.exports ?? manifest.exports);
  for (const k of ['main', 'types', 'module']) if (typeof manifest[k] === 'string') out.add(manifest[k]);
  if (typeof manifest.bin === 'string') out.add(manifest.bin);
  else if (manifest.bin) for (const v of Object.values(manifest.bin)) out.add(v);
  return [...out].filter((t) => !t.includes('*') && !t.endsWith('package.json'));
}

function newest(folder, skip) {
  let best = 0;
  if (!existsSync(folder)) return best;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const p = join(folder, entry.name);
    if (entry.isDirectory()) best = Math.max(best, newest(p, skip));
    else if (!skip(entry.name)) best = Math.max(best, statSync(p).mtimeMs);
  }
  return best;
}

const problems = [];
let oldestTarget = Infinity;
for (const target of publishedTargets(pkg)) {
  const file = join(dir, target);
  if (!existsSync(file)) problems.push(`${target} does not exist`);
  else oldestTarget = Math.min(oldestTarget, statSync(file).mtimeMs);
}
const stamp = join(dir, DIGEST_FILE);
if (problems.length === 0) {
  if (existsSync(stamp)) {
    const recorded = parseDigestFile(readFileSync(stamp, 'utf8'));
    if (recorded.own !== sourceDigest(dir)) problems.push('src/ has changed since the last build');
    for (const b of recorded.bundled) {
      if (b.digest !== sourceDigest(join(dir, b.dir))) problems.push(`the sources of ${b.dir}, which the build bundles, have changed since the last build`);
    }
  } else if (newest(join(dir, 'src'), isTestFile) > oldestTarget) {
    problems.push('the build output is older than src/');
  }
}
if (problems.length > 0) {
  process.stderr.write(`error: ${pkg.name} is not built: ${problems.join('; ')}\nhint: run \`pnpm build\` at the repository root (or \`pnpm release\`), then pack or publish again\n`);
  process.exit(1);
}
