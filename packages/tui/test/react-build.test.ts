/**
 * With `NODE_ENV` unset the UI runs React's production build (the development build costs
 * much of the CPU per streamed frame), without changing the environment the process, its hooks
 * and its shell commands see; a `NODE_ENV` the person set is obeyed. A child process, for a
 * fresh module cache.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const HERE = dirname(fileURLToPath(import.meta.url));

function run(env: Record<string, string>) {
  if (!existsSync(join(HERE, '..', 'dist', 'index.js'))) throw new Error('build first: pnpm --filter @codewhale/tui build');
  const { PATH, HOME } = process.env;
  const r = spawnSync(process.execPath, [join(HERE, 'fixtures', 'react-build.mjs')], { env: { PATH, HOME, ...env }, encoding: 'utf8', timeout: 30_000 });
  const line = /^\{.*\}$/m.exec(r.stderr)?.[0];
  expect(line, `${r.stdout}\n${r.stderr}`).toBeDefined();
  return JSON.parse(line!) as { drawn: boolean; afterImport: string[]; afterStart: string[]; nodeEnv: string | null; sessionNodeEnv: string | null; sessionEnvIsProcessEnv: boolean };
}

it.each([
  [{}, 'production'],
  [{ NODE_ENV: 'development' }, 'development'],
  [{ NODE_ENV: 'production' }, 'production'],
])(
  'with env %j the UI runs the %s build of React, and NODE_ENV is left as it was',
  (env: Record<string, string>, build: string) => {
    const r = run(env);
    expect(r.drawn).toBe(true);
    // Importing the package loads no React (so nothing has chosen a build yet)…
    expect(r.afterImport).toEqual([]);
    // …and the UI then runs that build only.
    expect(r.afterStart.length).toBeGreaterThan(0);
    for (const f of r.afterStart) expect(f.endsWith(`.${build}.js`), f).toBe(true);
    // The process's environment and the session's (hooks, shell commands) are as they were.
    expect(r.nodeEnv).toBe(env.NODE_ENV ?? null);
    expect(r.sessionNodeEnv).toBe(env.NODE_ENV ?? null);
    expect(r.sessionEnvIsProcessEnv).toBe(false);
  },
  60_000,
);
