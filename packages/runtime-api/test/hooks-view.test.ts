import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolvePaths } from '@codewhale/hooks-supervisor';
import { afterEach, describe, expect, it } from 'vitest';
import { hooksView } from '../src/hooks-view.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('GET /v1/hooks model', () => {
  it('redacts credentials in command previews and escapes invisible characters (a zero-width space; bidi controls are already stripped) in names', () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'cw-hv-')));
    dirs.push(root);
    const home = join(root, 'home');
    mkdirSync(home);
    writeFileSync(
      join(home, 'config.toml'),
      `[hooks]\n[[hooks.hooks]]\nname = "gate\u200bevil"\nevent = "tool_call_before"\ncommand = "d --password=s3cretpw1"\n\n[[hooks.hooks]]\nname = "url"\nevent = "tool_call_after"\ncommand = "curl https://bob:hunter2pass@h/x"\n`,
    );
    const view = hooksView(resolvePaths({ CODEWHALE_HOME: home }, null), root);
    const text = JSON.stringify(view);
    for (const secret of ['s3cretpw1', 'hunter2pass', '\u200b']) expect(text).not.toContain(secret);
    const hooks = view.hooks as { name: string; command_preview: string }[];
    expect(hooks.map((h) => h.name)).toEqual(['gate<U+200B>evil', 'url']);
    expect(hooks[1]!.command_preview).toBe('curl https://bob:[redacted]@h/x');
  });
});
