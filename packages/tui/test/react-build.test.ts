/**
 * The session's screen is drawn without React; the launch trust prompt (Ink) runs React's
 * production build when `NODE_ENV` is unset, without changing the environment the process, its
 * hooks and its shell commands see; a `NODE_ENV` the person set is obeyed. A child process, for
 * a fresh module cache.
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
  return JSON.parse(line!) as {
    drawn: boolean;
    afterImport: string[];
    afterSession: string[];
    afterPrompt: string[];
    nodeEnv: string | null;
    sessionNodeEnv: string | null;
    sessionEnvIsProcessEnv: boolean;
  };
}

it.each([
  [{}, 'production'],
  [{ NODE_ENV: 'development' }, 'development'],
  [{ NODE_ENV: 'production' }, 'production'],
])(
  'with env %j the session screen loads no React, the trust prompt runs the %s build, and NODE_ENV is left as it was',
  (env: Record<string, string>, build: string) => {
    const r = run(env);
    expect(r.drawn).toBe(true);
    // Importing the package loads no React, nor does the session's screen…
    expect(r.afterImport).toEqual([]);
    expect(r.afterSession).toEqual([]);
    // …and the trust prompt, drawn with Ink, runs that build only.
    expect(r.afterPrompt.length).toBeGreaterThan(0);
    for (const f of r.afterPrompt) expect(f.endsWith(`.${build}.js`), f).toBe(true);
    // The process's environment and the session's (hooks, shell commands) are as they were.
    expect(r.nodeEnv).toBe(env.NODE_ENV ?? null);
    expect(r.sessionNodeEnv).toBe(env.NODE_ENV ?? null);
    expect(r.sessionEnvIsProcessEnv).toBe(false);
  },
  60_000,
);
