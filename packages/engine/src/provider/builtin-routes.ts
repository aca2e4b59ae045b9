/**
 * The model routes Codewhale knows without configuration.
 */

/** A built-in route. */
export interface BuiltinRoute {
  readonly id: string;
  readonly baseUrl: string;
  /** The variable holding its key; `null` for keyless self-hosted servers. */
  readonly apiKeyEnv: string | null;
  /** The host the ambient key (`apiKeyEnv`) may be sent to; another host needs an explicit `api_key_env`. */
  readonly officialHost: string | null;
  /** Model used when nothing names one; `null` when the user must choose. */
  readonly defaultModel: string | null;
}

/** The id used when nothing names a provider. */
export const DEFAULT_PROVIDER_ID = 'deepseek';

/** `deepseek` (default), `openai`, and the keyless loopback servers `ollama` and `vllm`. */
export const BUILTIN_ROUTES: Readonly<Record<string, BuiltinRoute>> = Object.freeze({
  deepseek: {
    id: 'deepseek',
    baseUrl: 'https://api.deepseek.com',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    officialHost: 'api.deepseek.com',
    defaultModel: 'deepseek-v4-pro',
  },
  openai: {
    id: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    officialHost: 'api.openai.com',
    defaultModel: 'gpt-5-mini',
  },
  ollama: { id: 'ollama', baseUrl: 'http://127.0.0.1:11434/v1', apiKeyEnv: null, officialHost: null, defaultModel: null },
  vllm: { id: 'vllm', baseUrl: 'http://127.0.0.1:8000/v1', apiKeyEnv: null, officialHost: null, defaultModel: null },
});
