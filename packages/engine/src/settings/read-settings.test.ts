import { inspect } from 'node:util';
import fc from 'fast-check';
import { parseToml } from '@codewhale/hooks-config';
import { describe, expect, it } from 'vitest';
import { readSettings } from './read-settings.js';
import { DEFAULT_RETRY, DEFAULT_TUI, MAX_RETRIES_LIMIT, retryOptions } from './settings.js';
import type { SettingsIssue } from './settings-issue.js';

const FILE = '/home/u/.codewhale/config.toml';

function read(text: string) {
  const parsed = parseToml(text, FILE);
  if (!parsed.ok) throw new Error(parsed.issues[0]!.summary);
  return readSettings({ document: parsed.value, text, file: FILE });
}
function issuesOf(text: string): readonly SettingsIssue[] {
  const r = read(text);
  if (r.ok) throw new Error('expected issues');
  return r.issues;
}

describe('readSettings', () => {
  it('a missing or empty file gives the defaults', () => {
    const r = readSettings({ document: undefined, text: '', file: FILE });
    expect(r).toMatchObject({ ok: true, value: { provider: null, providers: {}, retry: DEFAULT_RETRY, tui: DEFAULT_TUI } });
  });

  it('reads the route keys, providers, [retry] and [tui]', () => {
    const r = read(
      [
        'provider = " openai "',
        'default_text_model = "m1"',
        'reasoning_effort = "HIGH"',
        'api_key = ""',
        '[providers.openai]',
        'api_key_env = "OPENAI_API_KEY"',
        'model = "gpt"',
        'wire = "Chat"',
        '[providers.corp]',
        'base_url = "https://llm.corp.example/v1"',
        'api_key = "sk-secret-0000"',
        '[retry]',
        'enabled = false',
        'max_retries = 10',
        'initial_delay_ms = 100',
        '[tui]',
        'stream_chunk_timeout_secs = 1.5',
        'alternate_screen = false',
        'toast_ms = 4000',
      ].join('\n'),
    );
    if (!r.ok) throw new Error(r.issues.map((i) => i.summary).join('\n'));
    const s = r.value;
    expect(s).toMatchObject({ file: FILE, provider: 'openai', defaultTextModel: 'm1', reasoningEffort: 'high', apiKey: null });
    expect(s.providers['openai']).toMatchObject({ apiKeyEnv: 'OPENAI_API_KEY', model: 'gpt', wire: 'chat', apiKey: null, baseUrl: null });
    expect(s.providers['corp']!.apiKey!.reveal()).toBe('sk-secret-0000');
    expect(s.retry).toEqual({ enabled: false, maxRetries: 10, initialDelayMs: 100, maxDelayMs: 8000 });
    expect(retryOptions(s.retry).maxRetries).toBe(0);
    expect(s.tui).toEqual({ streamChunkTimeoutSecs: 1.5, alternateScreen: false, showReasoning: true, toastMs: 4000 });
  });

  it('a key stored in the file never shows in JSON, strings or inspect', () => {
    const r = read('api_key = "sk-root-secret-1234"\n[providers.x]\napi_key = "sk-table-secret-5678"\nbase_url = "https://x.example"\n');
    if (!r.ok) throw new Error('expected ok');
    const shown = [JSON.stringify(r.value), inspect(r.value, { depth: 9 }), `${r.value.apiKey}`, String(r.value.providers['x']!.apiKey)].join('\n');
    expect(shown).not.toMatch(/secret/);
    expect(r.value.apiKey!.reveal()).toBe('sk-root-secret-1234');
  });

  it('a typo in [retry] is reported with its line and a "did you mean"', () => {
    const issues = issuesOf('# mine\n[retry]\nmax_retires = 3\n');
    expect(issues).toEqual([
      {
        code: 'unknown_key',
        file: FILE,
        line: 3,
        column: null,
        path: 'retry.max_retires',
        message: 'unknown key `max_retires` in `[retry]`; did you mean `max_retries`?',
        fix: 'rename it to `max_retries`, or remove it',
        summary: `${FILE}:3: unknown key \`max_retires\` in \`[retry]\`; did you mean \`max_retries\`? \u2014 rename it to \`max_retries\`, or remove it`,
      },
    ]);
  });

  it('collects every problem, never drops a bad value silently', () => {
    const text = [
      'provider = 42', // 1
      'reasoning_effort = "hgih"', // 2
      'default_text_modle = "m"', // 3
      '[retry]', // 4
      'max_retries = 11', // 5
      'initial_delay_ms = -1', // 6
      'max_delay_ms = "8000"', // 7
      '[tui]', // 8
      'stream_chunk_timeout_secs = 0', // 9
      'toast = 5', // 10
      'show_reasoning = "yes"', // 11
      '[providers.corp]', // 12
      'wire = "anthropic"', // 13
      'api_key_env = "sk-this is a key"', // 14
      'base_url = "not a url"', // 15
      'modle = "m"', // 16
    ].join('\n');
    const byPath = Object.fromEntries(issuesOf(text).map((i) => [i.path, i]));
    expect(Object.keys(byPath).sort()).toEqual(
      [
        'provider',
        'reasoning_effort',
        'default_text_modle',
        'retry.max_retries',
        'retry.initial_delay_ms',
        'retry.max_delay_ms',
        'tui.stream_chunk_timeout_secs',
        'tui.toast',
        'tui.show_reasoning',
        'providers.corp.wire',
        'providers.corp.api_key_env',
        'providers.corp.modle',
      ].sort(),
    );
    expect(byPath['provider']).toMatchObject({ line: 1, code: 'invalid_type', message: expect.stringContaining('(got an integer)') });
    expect(byPath['reasoning_effort']).toMatchObject({ line: 2, code: 'invalid_value', message: expect.stringContaining('did you mean `high`?') });
    expect(byPath['default_text_modle']).toMatchObject({ line: 3, message: 'unknown key `default_text_modle`; did you mean `default_text_model`?' });
    expect(byPath['retry.max_retries']).toMatchObject({ line: 5, message: '`retry.max_retries` must be a whole number from 0 to 10 (got 11)' });
    expect(byPath['retry.initial_delay_ms']!.line).toBe(6);
    expect(byPath['retry.max_delay_ms']).toMatchObject({ line: 7, code: 'invalid_type' });
    expect(byPath['tui.stream_chunk_timeout_secs']).toMatchObject({ line: 9, fix: expect.stringContaining('900') });
    expect(byPath['tui.toast']).toMatchObject({ line: 10, message: 'unknown key `toast` in `[tui]`; did you mean `toast_ms`?' });
    expect(byPath['tui.show_reasoning']!.line).toBe(11);
    expect(byPath['providers.corp.wire']).toMatchObject({ line: 13, fix: expect.stringContaining('wire = "chat"') });
    expect(byPath['providers.corp.api_key_env']).toMatchObject({ line: 14, fix: expect.stringContaining('not the key itself') });
    expect(byPath['providers.corp.modle']).toMatchObject({ line: 16, message: expect.stringContaining('did you mean `model`?') });
    // A string value is never echoed: it may be a key.
    expect(JSON.stringify(byPath)).not.toContain('sk-this');
    expect(JSON.stringify(byPath)).not.toContain('anthropic');
  });

  it('a bad URL, a cap below the first delay and a non-table are reported', () => {
    expect(issuesOf('base_url = "ftp//x"\n').map((i) => [i.path, i.line])).toEqual([['base_url', 1]]);
    expect(issuesOf('[retry]\ninitial_delay_ms = 900\nmax_delay_ms = 100\n')[0]).toMatchObject({ path: 'retry.max_delay_ms', line: 3, message: expect.stringContaining('below') });
    expect(issuesOf('retry = 3\n')[0]).toMatchObject({ path: 'retry', line: 1, code: 'invalid_type', message: '`retry` must be a table (got an integer)' });
    expect(issuesOf('[providers]\ncorp = "x"\n')[0]).toMatchObject({ path: 'providers.corp', line: 2 });
    expect(issuesOf('[retry]\nmax_retries = 99999999999999999999\n')[0]).toMatchObject({ path: 'retry.max_retries', code: 'invalid_value' });
  });

  it('leaves the keys other parts own alone', () => {
    const text = [
      'model = "x"',
      'approval_policy = "on-request"',
      'some_future_key = 1',
      '[hooks]',
      'enabled = true',
      '[projects."/w"]',
      'trust_level = "trusted"',
      '[workspace."/w"]',
      'allow_shell = false',
      '[runtime_api]',
      'cors_origins = []',
      '[features]',
      'shell_tool = true',
    ].join('\n');
    expect(read(text).ok).toBe(true);
  });

  describe('properties', () => {
    it('max_retries is accepted exactly on 0..10 and kept as written', () => {
      fc.assert(
        fc.property(fc.oneof(fc.integer({ min: -3, max: 14 }), fc.integer({ min: -1000, max: 1000 })), (n) => {
          const r = read(`[retry]\nmax_retries = ${n}\n`);
          if (n >= 0 && n <= MAX_RETRIES_LIMIT) expect(r.ok && r.value.retry.maxRetries).toBe(n);
          else expect(!r.ok && r.issues[0]!.line).toBe(2);
        }),
      );
    });
    it('an unknown key in an owned table is always reported, on its own line', () => {
      const known = ['enabled', 'max_retries', 'initial_delay_ms', 'max_delay_ms'];
      fc.assert(
        fc.property(
          fc.stringMatching(/^[a-z][a-z_]{0,15}$/).filter((k) => !known.includes(k)),
          fc.nat({ max: 5 }),
          (key, blank) => {
            const text = `${'\n'.repeat(blank)}[retry]\n${key} = 1\n`;
            const r = read(text);
            expect(r.ok).toBe(false);
            if (!r.ok) expect(r.issues).toEqual([expect.objectContaining({ code: 'unknown_key', path: `retry.${key}`, line: blank + 2 })]);
          },
        ),
      );
    });
    it('stream_chunk_timeout_secs is accepted exactly when 0 < s ≤ 2147483', () => {
      fc.assert(
        fc.property(fc.oneof(fc.integer({ min: -5, max: 3_000_000 }), fc.double({ min: -10, max: 3e6, noNaN: true, noDefaultInfinity: true })), (s) => {
          const text = `[tui]\nstream_chunk_timeout_secs = ${Number.isInteger(s) ? s : s.toExponential()}\n`;
          const value = parseToml(text, FILE);
          if (!value.ok) return;
          const secs = (value.value['tui'] as Record<string, number>)['stream_chunk_timeout_secs']!;
          const r = readSettings({ document: value.value, text, file: FILE });
          expect(r.ok).toBe(secs > 0 && secs <= 2_147_483);
        }),
      );
    });
  });
});
