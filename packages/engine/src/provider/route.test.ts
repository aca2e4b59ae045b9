import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readSettings } from '../settings/read-settings.js';
import type { Settings } from '../settings/settings.js';
import { type ResolveRouteInput, RouteError, createProvider, resolveRoute } from './route.js';

const DS_KEY = 'sk-deepseek-SECRET-000111222333';
const OA_KEY = 'sk-openai-SECRET-444555666777';
const KEYS = { DEEPSEEK_API_KEY: DS_KEY, OPENAI_API_KEY: OA_KEY };

function routeError(input: ResolveRouteInput): RouteError {
  try {
    resolveRoute(input);
  } catch (e) {
    if (e instanceof RouteError) return e;
    throw e;
  }
  throw new Error('expected a RouteError');
}

describe('resolveRoute', () => {
  it('defaults to DeepSeek with DEEPSEEK_API_KEY', () => {
    const r = resolveRoute({ env: KEYS });
    expect({ id: r.id, baseUrl: r.baseUrl, model: r.model, apiKey: r.apiKey, apiKeyEnv: r.apiKeyEnv }).toEqual({
      id: 'deepseek',
      baseUrl: 'https://api.deepseek.com',
      model: 'deepseek-v4-pro',
      apiKey: DS_KEY,
      apiKeyEnv: 'DEEPSEEK_API_KEY',
    });
    expect(r.source).toEqual({ provider: 'built-in default', model: 'built-in default', baseUrl: 'built-in default', apiKey: 'env: DEEPSEEK_API_KEY', idleTimeout: 'built-in default' });
    expect(r.idleTimeoutMs).toBe(900_000);
    expect(r.warnings).toEqual([]);
  });

  it('knows the openai, ollama and vllm routes', () => {
    expect(resolveRoute({ env: KEYS, flags: { provider: 'openai' } })).toMatchObject({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-5-mini', apiKey: OA_KEY, apiKeyEnv: 'OPENAI_API_KEY' });
    expect(resolveRoute({ flags: { provider: 'ollama', model: 'qwen3' } })).toMatchObject({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3', apiKey: null, apiKeyEnv: null });
    expect(resolveRoute({ flags: { provider: 'vllm', model: 'q' } })).toMatchObject({ baseUrl: 'http://127.0.0.1:8000/v1', apiKey: null });
    expect(resolveRoute({ flags: { provider: 'ollama', model: 'q' } }).source.apiKey).toBe('none (loopback)');
  });

  describe('precedence: flag > CODEWHALE_* > DEEPSEEK_* > config > built-in', () => {
    const config = {
      provider: 'openai',
      default_text_model: 'config-default-model',
      providers: { openai: { base_url: 'https://config.example/v1', model: 'config-table-model', api_key_env: 'OPENAI_API_KEY' } },
    };
    const all = {
      flags: { provider: 'vllm', model: 'flag-model', baseUrl: 'http://127.0.0.1:9001/v1' },
      env: {
        CODEWHALE_PROVIDER: 'ollama',
        CODEWHALE_MODEL: 'cw-model',
        CODEWHALE_BASE_URL: 'http://127.0.0.1:9002/v1',
        DEEPSEEK_PROVIDER: 'deepseek',
        DEEPSEEK_MODEL: 'ds-model',
        DEEPSEEK_BASE_URL: 'http://127.0.0.1:9003/v1',
        ...KEYS,
      },
    };
    const strip = (env: Record<string, string>, prefix: string): Record<string, string> => Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith(prefix) || k.endsWith('_API_KEY')));

    it.each([
      ['flags win', { config, ...all }, ['vllm', '--provider'], ['flag-model', '--model'], ['http://127.0.0.1:9001/v1', '--base-url']],
      ['then CODEWHALE_*', { config, env: all.env }, ['ollama', 'CODEWHALE_PROVIDER'], ['cw-model', 'CODEWHALE_MODEL'], ['http://127.0.0.1:9002/v1', 'CODEWHALE_BASE_URL']],
      ['then DEEPSEEK_*', { config, env: strip(all.env, 'CODEWHALE_') }, ['deepseek', 'DEEPSEEK_PROVIDER'], ['ds-model', 'DEEPSEEK_MODEL'], ['http://127.0.0.1:9003/v1', 'DEEPSEEK_BASE_URL']],
      [
        'then config',
        { config, env: KEYS },
        ['openai', 'config: provider'],
        ['config-table-model', 'config: providers.openai.model'],
        ['https://config.example/v1', 'config: providers.openai.base_url'],
      ],
      ['then built-in defaults', { env: KEYS }, ['deepseek', 'built-in default'], ['deepseek-v4-pro', 'built-in default'], ['https://api.deepseek.com', 'built-in default']],
    ] as const)('%s', (_name, input, [id, idFrom], [model, modelFrom], [baseUrl, baseFrom]) => {
      const r = resolveRoute(input);
      expect([r.id, r.source.provider]).toEqual([id, idFrom]);
      expect([r.model, r.source.model]).toEqual([model, modelFrom]);
      expect([r.baseUrl, r.source.baseUrl]).toEqual([baseUrl, baseFrom]);
    });

    it('a flag for one part leaves the others to their own precedence', () => {
      const r = resolveRoute({ config, env: { ...KEYS, CODEWHALE_MODEL: 'cw-model' }, flags: { provider: 'openai' } });
      expect([r.id, r.model, r.baseUrl]).toEqual(['openai', 'cw-model', 'https://config.example/v1']);
    });

    it('empty values count as unset', () => {
      const r = resolveRoute({ env: { ...KEYS, CODEWHALE_PROVIDER: '', CODEWHALE_MODEL: '  ' }, flags: { model: '' } });
      expect([r.id, r.model]).toEqual(['deepseek', 'deepseek-v4-pro']);
    });
  });

  it('default_text_model applies to the configured default provider only', () => {
    const config = { provider: 'deepseek', default_text_model: 'deepseek-v4-flash' };
    expect(resolveRoute({ config, env: KEYS }).model).toBe('deepseek-v4-flash');
    expect(resolveRoute({ config: { default_text_model: 'deepseek-v4-flash' }, env: KEYS }).model).toBe('deepseek-v4-flash');
    expect(resolveRoute({ config, env: KEYS, flags: { provider: 'openai' } }).model).toBe('gpt-5-mini');
  });

  it('a missing key names the variable to set and the configured routes', () => {
    const e = routeError({ env: {} });
    expect(e.code).toBe('missing_api_key');
    expect(e.message).toBe('DEEPSEEK_API_KEY is not set. Export it, or pick another route with --provider (configured: deepseek, openai, ollama, vllm).');
    const custom = routeError({ env: {}, config: { providers: { mycorp: { base_url: 'https://llm.corp.example/v1', model: 'm', api_key_env: 'MYCORP_KEY' } } }, flags: { provider: 'mycorp' } });
    expect(custom.message).toBe(
      'MYCORP_KEY is not set (named by api_key_env under [providers.mycorp]). Export it, or pick another route with --provider (configured: deepseek, openai, ollama, vllm, mycorp).',
    );
    const bare = routeError({ env: {}, config: { providers: { other: { base_url: 'https://x.example/v1', model: 'm' } } }, flags: { provider: 'other' } });
    expect(bare.message).toMatch(/^provider `other` has no API key: set api_key_env under \[providers\.other\]/);
  });

  it('key precedence: --api-key, config api_key (warned), api_key_env, the route variable', () => {
    const config = { providers: { deepseek: { api_key: 'sk-from-config-0000', api_key_env: 'MY_DS_KEY' } } };
    const env = { ...KEYS, MY_DS_KEY: 'sk-from-named-env-0000' };
    expect(resolveRoute({ config, env, flags: { apiKey: 'sk-from-flag-0000' } })).toMatchObject({ apiKey: 'sk-from-flag-0000', apiKeyEnv: null, source: { apiKey: '--api-key' } });
    const fromConfig = resolveRoute({ config, env });
    expect(fromConfig).toMatchObject({ apiKey: 'sk-from-config-0000', source: { apiKey: 'config: providers.deepseek.api_key' } });
    expect(fromConfig.warnings.join('\n')).toMatch(/stored in config\.toml/);
    expect(fromConfig.warnings.join('\n')).not.toContain('sk-from-config-0000');
    expect(resolveRoute({ config: { providers: { deepseek: { api_key_env: 'MY_DS_KEY' } } }, env })).toMatchObject({ apiKey: 'sk-from-named-env-0000', apiKeyEnv: 'MY_DS_KEY' });
    expect(resolveRoute({ config: { api_key: 'sk-legacy-root-0000' }, env })).toMatchObject({ apiKey: 'sk-legacy-root-0000', source: { apiKey: 'config: api_key' } });
  });

  it('sends the ambient route variable only to the official host', () => {
    expect(resolveRoute({ env: { ...KEYS, DEEPSEEK_BASE_URL: 'https://api.deepseek.com/beta' } })).toMatchObject({ apiKey: DS_KEY, baseUrl: 'https://api.deepseek.com/beta' });
    const e = routeError({ env: { ...KEYS, CODEWHALE_BASE_URL: 'https://proxy.example/v1' } });
    expect(e.code).toBe('missing_api_key');
    expect(e.message).toContain('DEEPSEEK_API_KEY is only sent to api.deepseek.com');
    expect(e.message).toContain('set api_key_env = "DEEPSEEK_API_KEY" under [providers.deepseek]');
    expect(e.message).not.toContain(DS_KEY);
    const opted = resolveRoute({ env: { ...KEYS, CODEWHALE_BASE_URL: 'https://proxy.example/v1' }, config: { providers: { deepseek: { api_key_env: 'DEEPSEEK_API_KEY' } } } });
    expect(opted.apiKey).toBe(DS_KEY);
    // Pointed at a loopback server, the route is keyless rather than leaking the key there.
    expect(resolveRoute({ env: KEYS, flags: { baseUrl: 'http://127.0.0.1:4000/v1' } }).apiKey).toBeNull();
  });

  it('allows keyless routes only on loopback hosts', () => {
    for (const host of ['http://127.0.0.1:1234/v1', 'http://localhost:1234/v1', 'http://[::1]:1234/v1', 'http://127.9.9.9/v1', 'https://localhost/v1']) {
      expect(resolveRoute({ config: { providers: { local: { base_url: host, model: 'm' } } }, flags: { provider: 'local' } }).apiKey).toBeNull();
    }
    expect(routeError({ config: { providers: { far: { base_url: 'https://10.0.0.5/v1', model: 'm' } } }, flags: { provider: 'far' } }).code).toBe('missing_api_key');
  });

  it('refuses plain http to a non-loopback host unless allowed', () => {
    const input = { env: { MY_KEY: 'k-0000' }, config: { providers: { lan: { base_url: 'http://192.168.1.20:8000/v1', model: 'm', api_key_env: 'MY_KEY' } } }, flags: { provider: 'lan' } };
    const e = routeError(input);
    expect(e.code).toBe('insecure_http');
    expect(e.message).toContain('http://192.168.1.20:8000/v1');
    expect(e.message).toContain('CODEWHALE_ALLOW_INSECURE_HTTP=1');
    for (const allow of ['CODEWHALE_ALLOW_INSECURE_HTTP', 'DEEPSEEK_ALLOW_INSECURE_HTTP']) {
      const r = resolveRoute({ ...input, env: { ...input.env, [allow]: '1' } });
      expect(r.baseUrl).toBe('http://192.168.1.20:8000/v1');
      expect(r.warnings.join('\n')).toContain('not encrypted');
    }
    expect(routeError({ ...input, env: { ...input.env, CODEWHALE_ALLOW_INSECURE_HTTP: '0' } }).code).toBe('insecure_http');
  });

  it('an unknown provider lists the known ids and suggests the closest', () => {
    const e = routeError({ env: KEYS, flags: { provider: 'deepsek' } });
    expect(e.code).toBe('unknown_provider');
    expect(e.message).toBe(
      'unknown provider `deepsek` (from --provider); did you mean `deepseek`? Known providers: deepseek, openai, ollama, vllm. Add a [providers.<id>] table to config.toml for another OpenAI-compatible server.',
    );
    expect(routeError({ env: { CODEWHALE_PROVIDER: 'zzz' } }).message).toMatch(/^unknown provider `zzz` \(from CODEWHALE_PROVIDER\)\. Known providers/);
    expect(routeError({ config: { providers: { 'my-corp': { base_url: 'https://x.example', model: 'm' } } }, flags: { provider: 'mycorp' } }).message).toContain('did you mean `my-corp`?');
    expect(resolveRoute({ env: KEYS, flags: { provider: 'OpenAI' } }).id).toBe('openai');
  });

  it('a custom [providers.<id>] table is a route of its own', () => {
    const r = resolveRoute({
      env: { CORP_KEY: 'corp-secret-0000' },
      config: { provider: 'corp', providers: { corp: { base_url: 'https://llm.corp.example/v1/', model: 'corp-large', api_key_env: 'CORP_KEY', wire: 'chat' } } },
    });
    expect({ id: r.id, baseUrl: r.baseUrl, model: r.model, apiKey: r.apiKey, apiKeyEnv: r.apiKeyEnv }).toEqual({
      id: 'corp',
      baseUrl: 'https://llm.corp.example/v1',
      model: 'corp-large',
      apiKey: 'corp-secret-0000',
      apiKeyEnv: 'CORP_KEY',
    });
  });

  it('explains missing base URL, missing model, bad URLs, bad types and unsupported wires', () => {
    expect(routeError({ config: { providers: { x: { model: 'm' } } }, flags: { provider: 'x' } })).toMatchObject({ code: 'missing_base_url' });
    expect(routeError({ flags: { provider: 'ollama' } })).toMatchObject({ code: 'missing_model', message: expect.stringContaining('pass --model') as string });
    expect(routeError({ env: KEYS, flags: { baseUrl: 'not a url' } })).toMatchObject({ code: 'invalid_base_url' });
    expect(routeError({ env: KEYS, flags: { baseUrl: 'ftp://x.example' } })).toMatchObject({ code: 'invalid_base_url' });
    const cred = routeError({ env: KEYS, flags: { baseUrl: 'https://user:hunter2@x.example/v1' } });
    expect(cred.code).toBe('invalid_base_url');
    expect(cred.message).not.toContain('hunter2');
    expect(routeError({ env: KEYS, config: { provider: 42 } })).toMatchObject({
      code: 'invalid_config',
      message: expect.stringMatching(/^config\.toml: `provider` must be a string naming a provider .*\(got an integer\) \u2014 write e\.g\. `provider = "deepseek"`$/) as string,
    });
    expect(routeError({ env: KEYS, config: { providers: 'x' } })).toMatchObject({ code: 'invalid_config' });
    expect(routeError({ env: KEYS, config: { providers: { deepseek: { wire: 'anthropic' } } } })).toMatchObject({ code: 'invalid_config' });
  });

  it('reads the stream idle timeout from the environment or [tui]', () => {
    expect(resolveRoute({ env: { ...KEYS, DEEPSEEK_STREAM_IDLE_TIMEOUT_SECS: '30' } })).toMatchObject({ idleTimeoutMs: 30_000, source: { idleTimeout: 'DEEPSEEK_STREAM_IDLE_TIMEOUT_SECS' } });
    expect(resolveRoute({ env: KEYS, config: { tui: { stream_chunk_timeout_secs: 120 } } }).idleTimeoutMs).toBe(120_000);
    const bad = resolveRoute({ env: { ...KEYS, CODEWHALE_STREAM_IDLE_TIMEOUT_SECS: 'soon' } });
    expect(bad.idleTimeoutMs).toBe(900_000);
    expect(bad.warnings).toEqual(['ignored CODEWHALE_STREAM_IDLE_TIMEOUT_SECS: expected a number of seconds > 0']);
  });

  it('never shows the key in toString, JSON, spread or inspect', () => {
    const r = resolveRoute({ env: KEYS });
    expect(String(r)).toBe('deepseek: deepseek-v4-pro @ https://api.deepseek.com (key from env: DEEPSEEK_API_KEY)');
    for (const shown of [String(r), JSON.stringify(r), JSON.stringify({ ...r }), inspect(r, { depth: 5 })]) expect(shown).not.toContain(DS_KEY);
    expect(JSON.parse(JSON.stringify(r))).toMatchObject({ id: 'deepseek', hasApiKey: true });
  });

  it('createProvider builds the OpenAI-compatible provider for the route', () => {
    const r = resolveRoute({ env: { ...KEYS, CODEWHALE_STREAM_IDLE_TIMEOUT_SECS: '5' }, flags: { provider: 'openai', model: 'gpt-5' } });
    const p = createProvider(r);
    expect([p.id, p.model, p.baseUrl, p.hasApiKey]).toEqual(['openai', 'gpt-5', 'https://api.openai.com/v1', true]);
    expect(String(p)).not.toContain(OA_KEY);
  });

  describe('properties', () => {
    const settingsOf = (document: Record<string, unknown>): Settings => {
      const r = readSettings({ document, text: '', file: 'config.toml' });
      if (!r.ok) throw new Error(r.issues[0]!.summary);
      return r.value;
    };
    // Each layer may or may not set each part; the highest layer that sets it wins.
    const LAYERS = ['flag', 'CODEWHALE', 'DEEPSEEK', 'config'] as const;
    it('model and base URL come from the highest layer that sets them: flag > CODEWHALE_* > DEEPSEEK_* > config > built-in', () => {
      fc.assert(
        fc.property(fc.subarray([...LAYERS]), fc.subarray([...LAYERS]), (modelLayers, baseLayers) => {
          const model = (l: string) => (modelLayers.includes(l as never) ? `model-${l}` : undefined);
          const base = (l: string) => (baseLayers.includes(l as never) ? `https://${l.toLowerCase()}.example/v1` : undefined);
          const env: Record<string, string> = { DEEPSEEK_API_KEY: DS_KEY, CODEWHALE_ALLOW_INSECURE_HTTP: '1' };
          for (const l of ['CODEWHALE', 'DEEPSEEK'] as const) {
            if (model(l)) env[`${l}_MODEL`] = model(l)!;
            if (base(l)) env[`${l}_BASE_URL`] = base(l)!;
          }
          const table: Record<string, unknown> = { api_key_env: 'DEEPSEEK_API_KEY' };
          if (model('config')) table['model'] = model('config');
          if (base('config')) table['base_url'] = base('config');
          const r = resolveRoute({ settings: settingsOf({ providers: { deepseek: table } }), env, flags: { model: model('flag'), baseUrl: base('flag') } });
          const winner = (layers: readonly string[]) => LAYERS.find((l) => layers.includes(l));
          const m = winner(modelLayers);
          const b = winner(baseLayers);
          expect(r.model).toBe(m ? `model-${m}` : 'deepseek-v4-pro');
          expect(r.baseUrl).toBe(b ? `https://${b.toLowerCase()}.example/v1` : 'https://api.deepseek.com');
        }),
      );
    });
    it('the provider id comes from the highest layer that names one', () => {
      const ids = ['deepseek', 'openai', 'ollama', 'vllm'];
      fc.assert(
        fc.property(fc.array(fc.option(fc.constantFrom(...ids), { nil: undefined }), { minLength: 4, maxLength: 4 }), ([flag, cw, ds, cfg]) => {
          const env: Record<string, string> = { ...KEYS, CODEWHALE_MODEL: 'm' };
          if (cw) env['CODEWHALE_PROVIDER'] = cw;
          if (ds) env['DEEPSEEK_PROVIDER'] = ds;
          const r = resolveRoute({ settings: settingsOf(cfg ? { provider: cfg } : {}), env, flags: { provider: flag } });
          expect(r.id).toBe(flag ?? cw ?? ds ?? cfg ?? 'deepseek');
        }),
      );
    });
    it('the key: --api-key > providers.<id>.api_key > root api_key > api_key_env > the route variable', () => {
      fc.assert(
        fc.property(fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(), (flag, tableKey, rootKey, named) => {
          const doc: Record<string, unknown> = {};
          const table: Record<string, unknown> = {};
          if (tableKey) table['api_key'] = 'k-table';
          if (named) table['api_key_env'] = 'MY_KEY';
          if (rootKey) doc['api_key'] = 'k-root';
          doc['providers'] = { deepseek: table };
          const r = resolveRoute({ settings: settingsOf(doc), env: { MY_KEY: 'k-named', DEEPSEEK_API_KEY: 'k-ambient' }, flags: flag ? { apiKey: 'k-flag' } : {} });
          expect(r.apiKey).toBe(flag ? 'k-flag' : tableKey ? 'k-table' : rootKey ? 'k-root' : named ? 'k-named' : 'k-ambient');
        }),
      );
    });
  });
});
