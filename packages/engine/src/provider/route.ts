/**
 * Which model route a session uses: provider id, base URL, model and key, from flags,
 * environment and `config.toml`, with the precedence the product documents.
 */
import { displayUrl, isLoopbackHost } from './base-url.js';
import { BUILTIN_ROUTES, type BuiltinRoute, DEFAULT_PROVIDER_ID } from './builtin-routes.js';
import { DEFAULT_IDLE_TIMEOUT_MS, OpenAICompatibleProvider, type OpenAICompatibleProviderOptions } from './openai-compatible.js';
import { suggest as suggestName } from '@codewhale/hooks-config';
import { readSettings } from '../settings/read-settings.js';
import { DEFAULT_SETTINGS, MAX_TIMER_MS, type ProviderSettings, type Settings } from '../settings/settings.js';
import { EngineError } from '../errors.js';

/** Why a route could not be resolved. */
export type RouteErrorCode = 'unknown_provider' | 'missing_api_key' | 'insecure_http' | 'invalid_base_url' | 'missing_base_url' | 'missing_model' | 'invalid_config';

/** A route that cannot be used, with a message that says what to do. Never contains a key. */
export class RouteError extends EngineError {
  readonly code: RouteErrorCode;

  constructor(code: RouteErrorCode, message: string, options: { cause?: unknown } = {}) {
    super('invalid_input', message, options);
    this.name = 'RouteError';
    this.code = code;
  }

  static override isInstance(e: unknown): e is RouteError {
    return e instanceof RouteError;
  }
}

/** Command-line choices; each wins over everything else. */
export interface RouteFlags {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly baseUrl?: string | undefined;
  readonly apiKey?: string | undefined;
}

/** Inputs of {@link resolveRoute}. */
export interface ResolveRouteInput {
  /** The validated settings of `config.toml` ({@link readSettings}); none means the defaults. */
  readonly settings?: Settings;
  /**
   * @deprecated Pass {@link ResolveRouteInput.settings}. The parsed `config.toml`: validated
   * here with `readSettings` (without line numbers), and its first problem thrown as a
   * `RouteError` (`invalid_config`). Ignored when `settings` is given.
   */
  readonly config?: unknown;
  /** The environment (e.g. `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly flags?: RouteFlags;
}

/** Where each part of the route came from, in words (`--model`, `CODEWHALE_MODEL`, `config: providers.openai.model`, `built-in default`). */
export interface RouteSource {
  readonly provider: string;
  readonly model: string;
  readonly baseUrl: string;
  /** `--api-key`, `config: providers.<id>.api_key`, `env: NAME`, or `none (loopback)`. */
  readonly apiKey: string;
  readonly idleTimeout: string;
}

/**
 * A resolved route. The key is readable through {@link ModelRoute.apiKey} but is not an own
 * enumerable property: `JSON.stringify`, spreading, `console.log` and `toString` never show it.
 */
export class ModelRoute {
  readonly id: string;
  /** Base URL without a trailing slash. */
  readonly baseUrl: string;
  readonly model: string;
  /** The variable the key came from, or `null` (flag, config file, keyless). */
  readonly apiKeyEnv: string | null;
  readonly source: RouteSource;
  /** Stream idle timeout (`CODEWHALE_STREAM_IDLE_TIMEOUT_SECS`, `DEEPSEEK_STREAM_IDLE_TIMEOUT_SECS`, `[tui].stream_chunk_timeout_secs`; default 900 s). */
  readonly idleTimeoutMs: number;
  /** Things worth telling the user (a key stored in `config.toml`, an ignored setting). */
  readonly warnings: readonly string[];
  readonly #apiKey: string | null;

  constructor(fields: {
    id: string;
    baseUrl: string;
    model: string;
    apiKey: string | null;
    apiKeyEnv: string | null;
    source: RouteSource;
    idleTimeoutMs: number;
    warnings: readonly string[];
  }) {
    this.id = fields.id;
    this.baseUrl = fields.baseUrl;
    this.model = fields.model;
    this.#apiKey = fields.apiKey;
    this.apiKeyEnv = fields.apiKeyEnv;
    this.source = fields.source;
    this.idleTimeoutMs = fields.idleTimeoutMs;
    this.warnings = fields.warnings;
  }

  /** The key to send, or `null` for a keyless (loopback) route. */
  get apiKey(): string | null {
    return this.#apiKey;
  }

  /** `deepseek: deepseek-v4-pro @ https://api.deepseek.com (key from DEEPSEEK_API_KEY)`. */
  toString(): string {
    return `${this.id}: ${this.model} @ ${this.baseUrl} (${this.#apiKey === null ? 'no key' : `key from ${this.source.apiKey}`})`;
  }

  toJSON(): Record<string, unknown> {
    return {
      id: this.id,
      baseUrl: this.baseUrl,
      model: this.model,
      hasApiKey: this.#apiKey !== null,
      apiKeyEnv: this.apiKeyEnv,
      source: this.source,
      idleTimeoutMs: this.idleTimeoutMs,
      warnings: this.warnings,
    };
  }
}

/** Values that turn on plain `http://` to a non-loopback host. */
const INSECURE_HTTP_VARS = ['CODEWHALE_ALLOW_INSECURE_HTTP', 'DEEPSEEK_ALLOW_INSECURE_HTTP'] as const;

interface Picked<T> {
  readonly value: T;
  readonly from: string;
}

/**
 * Resolve the route. Precedence for the provider id, the model and the base URL:
 * flag > `CODEWHALE_*` (`CODEWHALE_PROVIDER`, `CODEWHALE_MODEL`, `CODEWHALE_BASE_URL`) >
 * `DEEPSEEK_*` (same names) > `config.toml` > built-in default.
 *
 * - In `config.toml`: `provider`; the model from `[providers.<id>].model`, else
 *   `default_text_model` when `<id>` is the configured default provider; the base URL from
 *   `[providers.<id>].base_url`, else (DeepSeek only, legacy) the root `base_url`.
 * - The key: `--api-key`, then `[providers.<id>].api_key` (or, for DeepSeek, the root `api_key`;
 *   both warned about), then the variable named by `api_key_env`, then the route's own variable
 *   (`DEEPSEEK_API_KEY`, `OPENAI_API_KEY`) — which is sent only to the official host; a route
 *   without a key is allowed only when its host is loopback.
 * - `http://` to a non-loopback host is refused unless `CODEWHALE_ALLOW_INSECURE_HTTP=1` (or
 *   `DEEPSEEK_ALLOW_INSECURE_HTTP=1`).
 *
 * Throws {@link RouteError} with a message that names the setting to change.
 */
export function resolveRoute(input: ResolveRouteInput = {}): ModelRoute {
  const env = input.env ?? {};
  const flags = input.flags ?? {};
  const settings = input.settings ?? settingsFromConfig(input.config);
  const warnings: string[] = [];
  const providers = settings.providers;
  const configuredIds = Object.keys(providers);
  const knownIds = unique([...Object.keys(BUILTIN_ROUTES), ...configuredIds]);

  const configProvider = settings.provider;
  const idPick = first<string>([
    [text(flags.provider), '--provider'],
    [text(env['CODEWHALE_PROVIDER']), 'CODEWHALE_PROVIDER'],
    [text(env['DEEPSEEK_PROVIDER']), 'DEEPSEEK_PROVIDER'],
    [configProvider, 'config: provider'],
  ]) ?? { value: DEFAULT_PROVIDER_ID, from: 'built-in default' };
  const id = canonicalId(idPick.value, knownIds);
  if (id === null) {
    const suggestion = suggestName(idPick.value.trim().toLowerCase(), knownIds);
    throw new RouteError(
      'unknown_provider',
      `unknown provider \`${safeToken(idPick.value)}\` (from ${idPick.from})${suggestion ? `; did you mean \`${suggestion}\`?` : '.'} Known providers: ${knownIds.join(', ')}. Add a [providers.<id>] table to config.toml for another OpenAI-compatible server.`,
    );
  }

  const builtin: BuiltinRoute | undefined = BUILTIN_ROUTES[id];
  const tableKey = configuredIds.find((k) => k === id) ?? configuredIds.find((k) => k.toLowerCase() === id);
  // `wire`/`kind` need no check here: the settings accept only the Chat Completions wire.
  const table: ProviderSettings | null = tableKey === undefined ? null : (providers[tableKey] ?? null);
  const tablePath = `providers.${tableKey ?? id}`;
  const isDeepSeek = id === 'deepseek';
  const defaultProviderId = configProvider !== null ? canonicalId(configProvider, knownIds) : DEFAULT_PROVIDER_ID;

  // Base URL.
  const basePick =
    first<string>([
      [text(flags.baseUrl), '--base-url'],
      [text(env['CODEWHALE_BASE_URL']), 'CODEWHALE_BASE_URL'],
      [text(env['DEEPSEEK_BASE_URL']), 'DEEPSEEK_BASE_URL'],
      [table?.baseUrl ?? null, `config: ${tablePath}.base_url`],
      [isDeepSeek ? settings.baseUrl : null, 'config: base_url'],
    ]) ?? (builtin ? { value: builtin.baseUrl, from: 'built-in default' } : null);
  if (basePick === null) {
    throw new RouteError('missing_base_url', `provider \`${id}\` has no base URL: set base_url under [${tablePath}] in config.toml, or pass --base-url.`);
  }
  const url = parseBaseUrl(basePick.value, basePick.from);
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol === 'http:' && !loopback && !INSECURE_HTTP_VARS.some((v) => isTruthy(env[v]))) {
    throw new RouteError(
      'insecure_http',
      `refusing to send prompts and the API key over plain http to ${displayUrl(url)} (from ${basePick.from}): use https://, or set CODEWHALE_ALLOW_INSECURE_HTTP=1 if this network is trusted.`,
    );
  }
  if (url.protocol === 'http:' && !loopback) warnings.push(`requests to ${displayUrl(url)} are not encrypted (insecure http allowed by the environment)`);
  const baseUrl = displayUrl(url);

  // Model.
  const modelPick =
    first<string>([
      [text(flags.model), '--model'],
      [text(env['CODEWHALE_MODEL']), 'CODEWHALE_MODEL'],
      [text(env['DEEPSEEK_MODEL']), 'DEEPSEEK_MODEL'],
      [table?.model ?? null, `config: ${tablePath}.model`],
      [defaultProviderId === id ? settings.defaultTextModel : null, 'config: default_text_model'],
    ]) ?? (builtin?.defaultModel ? { value: builtin.defaultModel, from: 'built-in default' } : null);
  if (modelPick === null) {
    throw new RouteError('missing_model', `provider \`${id}\` has no default model: pass --model, set CODEWHALE_MODEL, or set model under [${tablePath}] in config.toml.`);
  }

  // Key.
  const keyEnvName = table?.apiKeyEnv ?? null;
  let apiKey: string | null = null;
  let apiKeyEnv: string | null = null;
  let keyFrom = 'none (loopback)';
  const fromFlag = text(flags.apiKey);
  const fromTable = table?.apiKey?.reveal() ?? null;
  const fromRoot = isDeepSeek ? (settings.apiKey?.reveal() ?? null) : null;
  if (fromFlag !== null) {
    apiKey = fromFlag;
    keyFrom = '--api-key';
  } else if (fromTable !== null && fromTable.trim() !== '') {
    apiKey = fromTable.trim();
    keyFrom = `config: ${tablePath}.api_key`;
    warnings.push(`the API key for \`${id}\` is stored in config.toml (${tablePath}.api_key); prefer api_key_env and an environment variable`);
  } else if (fromRoot !== null && fromRoot.trim() !== '') {
    apiKey = fromRoot.trim();
    keyFrom = 'config: api_key';
    warnings.push('the DeepSeek API key is stored in config.toml (root api_key); prefer the DEEPSEEK_API_KEY environment variable');
  } else if (keyEnvName !== null && text(env[keyEnvName]) !== null) {
    apiKey = text(env[keyEnvName]);
    apiKeyEnv = keyEnvName;
    keyFrom = `env: ${keyEnvName}`;
  } else if (builtin?.apiKeyEnv && text(env[builtin.apiKeyEnv]) !== null && url.host === builtin.officialHost) {
    apiKey = text(env[builtin.apiKeyEnv]);
    apiKeyEnv = builtin.apiKeyEnv;
    keyFrom = `env: ${builtin.apiKeyEnv}`;
  }
  if (apiKey === null && !loopback) {
    throw new RouteError('missing_api_key', missingKeyMessage(id, tablePath, keyEnvName, builtin, url, basePick.from, env, knownIds));
  }

  const idle = idleTimeout(env, settings, warnings);
  return new ModelRoute({
    id,
    baseUrl,
    model: modelPick.value,
    apiKey,
    apiKeyEnv,
    source: { provider: idPick.from, model: modelPick.from, baseUrl: basePick.from, apiKey: keyFrom, idleTimeout: idle.from },
    idleTimeoutMs: idle.value,
    warnings,
  });
}

/** An {@link OpenAICompatibleProvider} for a resolved route. */
export function createProvider(route: ModelRoute, options: Partial<OpenAICompatibleProviderOptions> = {}): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({
    id: route.id,
    baseUrl: route.baseUrl,
    model: route.model,
    apiKey: route.apiKey,
    apiKeyEnv: route.apiKeyEnv,
    idleTimeoutMs: route.idleTimeoutMs,
    ...options,
  });
}

function missingKeyMessage(
  id: string,
  tablePath: string,
  keyEnvName: string | null,
  builtin: BuiltinRoute | undefined,
  url: URL,
  baseFrom: string,
  env: Readonly<Record<string, string | undefined>>,
  knownIds: readonly string[],
): string {
  const others = `pick another route with --provider (configured: ${knownIds.join(', ')})`;
  if (keyEnvName !== null) {
    return `${keyEnvName} is not set (named by api_key_env under [${tablePath}]). Export it, or ${others}.`;
  }
  if (builtin?.apiKeyEnv) {
    if (text(env[builtin.apiKeyEnv]) !== null && url.host !== builtin.officialHost) {
      return (
        `${builtin.apiKeyEnv} is only sent to ${builtin.officialHost}, and this route's base URL is ${displayUrl(url)} (from ${baseFrom}). ` +
        `To send it there, set api_key_env = "${builtin.apiKeyEnv}" under [${tablePath}] in config.toml; or ${others}.`
      );
    }
    return `${builtin.apiKeyEnv} is not set. Export it, or ${others}.`;
  }
  return `provider \`${id}\` has no API key: set api_key_env under [${tablePath}] in config.toml to the name of a variable holding the key, and export it; or ${others}.`;
}

function idleTimeout(env: Readonly<Record<string, string | undefined>>, settings: Settings, warnings: string[]): Picked<number> {
  const candidates: [unknown, string][] = [
    [text(env['CODEWHALE_STREAM_IDLE_TIMEOUT_SECS']), 'CODEWHALE_STREAM_IDLE_TIMEOUT_SECS'],
    [text(env['DEEPSEEK_STREAM_IDLE_TIMEOUT_SECS']), 'DEEPSEEK_STREAM_IDLE_TIMEOUT_SECS'],
    [settings.tui.streamChunkTimeoutSecs, 'config: tui.stream_chunk_timeout_secs'],
  ];
  for (const [raw, from] of candidates) {
    if (raw === null || raw === undefined) continue;
    const secs = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : NaN;
    if (Number.isFinite(secs) && secs > 0) return { value: Math.min(MAX_TIMER_MS, Math.round(secs * 1000)), from };
    warnings.push(`ignored ${from}: expected a number of seconds > 0`);
  }
  return { value: DEFAULT_IDLE_TIMEOUT_MS, from: 'built-in default' };
}

function parseBaseUrl(value: string, from: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new RouteError('invalid_base_url', `the base URL from ${from} is not a valid URL (expected e.g. https://api.example.com/v1).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RouteError('invalid_base_url', `the base URL from ${from} must start with https:// (or http:// for a loopback server).`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new RouteError('invalid_base_url', `the base URL from ${from} contains credentials; put the key in an environment variable named by api_key_env instead.`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new RouteError('invalid_base_url', `the base URL from ${from} must not have a query or fragment (${displayUrl(url)} is expected).`);
  }
  return url;
}

function canonicalId(raw: string, knownIds: readonly string[]): string | null {
  const v = raw.trim();
  if (knownIds.includes(v)) return v;
  const lower = v.toLowerCase();
  return knownIds.find((k) => k.toLowerCase() === lower) ?? null;
}

function first<T>(candidates: readonly (readonly [T | null, string])[]): Picked<T> | null {
  for (const [value, from] of candidates) if (value !== null) return { value, from };
  return null;
}

/** A non-empty, trimmed env/flag value, or `null`. */
function text(v: string | undefined | null): string | null {
  if (v === undefined || v === null) return null;
  const t = v.trim();
  return t === '' ? null : t;
}

/** The legacy `config` input: validated like any config.toml, its first problem thrown. */
function settingsFromConfig(config: unknown): Settings {
  if (config === undefined || config === null) return DEFAULT_SETTINGS;
  const read = readSettings({ document: config, text: '', file: 'config.toml' });
  if (read.ok) return read.value;
  const first = read.issues[0]!;
  throw new RouteError('invalid_config', `config.toml: ${first.message} \u2014 ${first.fix}`);
}

function isTruthy(v: string | undefined): boolean {
  return v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase());
}

function safeToken(v: string): string {
  const t = v.trim();
  return /^[A-Za-z0-9_.:/-]{1,64}$/.test(t) ? t : '(unprintable)';
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
