import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchFiles } from './config-watch.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('watchFiles', () => {
  it('calls back once per burst of writes to a watched file, never for other files, and skips missing directories', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cw-watch-'));
    dirs.push(dir);
    const file = join(dir, 'config.toml');
    writeFileSync(file, 'a');
    const seen: string[] = [];
    const w = watchFiles([file, join(dir, 'missing', 'hooks.toml')], (f) => seen.push(f), 100);
    await new Promise((r) => setTimeout(r, 50));
    writeFileSync(join(dir, 'other.txt'), 'x');
    writeFileSync(file, 'b');
    writeFileSync(file, 'c');
    for (let i = 0; i < 40 && seen.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 250));
    w.close();
    expect(seen).toEqual([file]);
  });
});
