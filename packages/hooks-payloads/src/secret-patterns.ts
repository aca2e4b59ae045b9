/**
 * What counts as a secret in hook-supplied text: one table of credential-like **names** (the
 * `NAME` of `NAME=value`, `NAME: value`, `NAME = value`) and one of well-known **token
 * shapes** (a value recognisable on its own). Adding a row is the whole change; each row's
 * examples are tested.
 *
 * Every pattern is anchored and has no nested or overlapping quantifiers, and is tried on
 * one name or one word at a time, so the work is linear in the text.
 */

/** A credential-like name. `pattern` is tested against the name normalised by {@link normalizeSecretName}. */
export interface SecretNameRule {
  readonly id: string;
  readonly pattern: RegExp;
  /** Names the rule must catch (as written by users, before normalisation). */
  readonly examples: readonly string[];
}

/** A token format recognisable without its name. `pattern` is tried at the start of a word. */
export interface TokenShapeRule {
  readonly id: string;
  readonly description: string;
  readonly pattern: RegExp;
  /** Tokens the rule must catch (fake, but of the real shape). */
  readonly examples: readonly string[];
}

export const SECRET_NAME_RULES: readonly SecretNameRule[] = [
  { id: 'secret', pattern: /secret/, examples: ['secret', 'CLIENT_SECRET', 'clientSecret', 'my.client-secret', 'SECRETS', 'webhookSecret'] },
  {
    id: 'password',
    pattern: /passw|passphrase|(?:^|_)(?:pass|pwd|pw|pgpass|dbpass)(?:_|$)/,
    examples: ['password', 'DB_PASSWORD', 'MYSQL_ROOT_PASSWORD', 'passwd', 'PGPASSWORD', 'userPwd', 'db_pass', 'key_passphrase', 'PGPASS'],
  },
  { id: 'private-key', pattern: /priv(?:ate)?_?key/, examples: ['private_key', 'PRIVATE-KEY', 'privateKey', 'SSH_PRIVATE_KEY', 'privkey'] },
  { id: 'access-key', pattern: /access_?key/, examples: ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'accessKey', 'access-key'] },
  { id: 'api-key', pattern: /api_?key/, examples: ['api_key', 'apikey', 'API-KEY', 'x-api-key', 'OPENAI_API_KEY', 'service.API-KEY', 'apiKey'] },
  { id: 'compound-key', pattern: /._key(?:_|$)/, examples: ['SIGNING_KEY', 'master_key', 'encryptionKey', 'AccountKey', 'LICENSE_KEY', 'deploy-key'] },
  { id: 'credential', pattern: /credential|(?:^|_)creds?(?:_|$)/, examples: ['credentials', 'GOOGLE_APPLICATION_CREDENTIALS', 'db_creds', 'CREDENTIAL'] },
  { id: 'token', pattern: /token/, examples: ['token', 'GITHUB_TOKEN', 'AWS_SESSION_TOKEN', 'refreshToken', 'x-auth-token', 'NPM_TOKEN'] },
  {
    id: 'auth',
    pattern: /(?:^|_)o?auth(?:orization|entication|n|z|key|token)?(?:_|$)/,
    examples: ['auth', 'Authorization', 'Proxy-Authorization', 'OAUTH', 'npmAuthToken', 'authkey', 'X-Auth', 'basic_auth'],
  },
  { id: 'bearer', pattern: /(?:^|_)bearer(?:_|$)/, examples: ['bearer', 'Bearer', 'BEARER'] },
  { id: 'cookie', pattern: /cookie/, examples: ['Cookie', 'Set-Cookie', 'cookies', 'SESSION_COOKIE'] },
  {
    id: 'session',
    pattern: /session|sess_?id|(?:^|_)sid(?:_|$)/,
    examples: ['session', 'sessionid', 'SESSION_ID', 'PHPSESSID', 'JSESSIONID', 'connect.sid', 'X-Session-Token', 'sid'],
  },
  {
    id: 'connection-string',
    pattern: /(?:^|_)(?:dsn|connection_?string|conn_?str|database_?url|db_?url)(?:_|$)/,
    examples: ['DSN', 'SENTRY_DSN', 'DATABASE_URL', 'connectionString', 'conn_str'],
  },
];

export const TOKEN_SHAPE_RULES: readonly TokenShapeRule[] = [
  {
    id: 'sk-key',
    description: 'OpenAI, DeepSeek, Anthropic and similar `sk-…` API keys',
    pattern: /^sk-[A-Za-z0-9_-]{3,}/i,
    examples: ['sk-abc123', 'sk-proj-Ab3dEf6hIj9kLm2nOp5q', 'sk-ant-api03-AbCdEf123456'],
  },
  {
    id: 'github-token',
    description: 'GitHub tokens (`ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_`)',
    pattern: /^gh[pousr]_[A-Za-z0-9]{3,}/i,
    examples: ['ghp_0123456789abcdefABCDEF0123456789abcd', 'ghs_xyz', 'gho_16C7e42F292c6912E7710c838347Ae178B4a'],
  },
  {
    id: 'github-pat',
    description: 'GitHub fine-grained tokens (`github_pat_`)',
    pattern: /^github_pat_[A-Za-z0-9_]{3,}/i,
    examples: ['github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz', 'GITHUB_PAT_abc'],
  },
  {
    id: 'gitlab-token',
    description: 'GitLab tokens (`glpat-`, `gldt-`, `glrt-`, …)',
    pattern: /^gl(?:pat|dt|rt|ptt|cbt|imt|soat|ft|agent)-[A-Za-z0-9_-]{10,}/,
    examples: ['glpat-xxxxxxxxxxxxxxxxxxxx', 'glrt-AbCdEf0123456789'],
  },
  {
    id: 'slack-token',
    description: 'Slack tokens (`xoxb-`, `xoxp-`, `xoxa-`, `xapp-`, …)',
    pattern: /^x(?:ox[abposre]|app)-[A-Za-z0-9-]{10,}/,
    examples: ['xoxb-1234567890-0987654321-AbCdEfGhIjKl', 'xoxp-1111-2222-3333-abcd', 'xapp-1-A0123-456-abcdef'],
  },
  { id: 'npm-token', description: 'npm access tokens (`npm_`)', pattern: /^npm_[A-Za-z0-9]{36}/, examples: ['npm_abcdefghijklmnopqrstuvwxyz0123456789'] },
  { id: 'pypi-token', description: 'PyPI upload tokens (`pypi-`)', pattern: /^pypi-[A-Za-z0-9_-]{16,}/, examples: ['pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdo'] },
  {
    id: 'aws-key-id',
    description: 'AWS access key ids (`AKIA…`, `ASIA…`, …)',
    pattern: /^(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}/,
    examples: ['AKIAIOSFODNN7EXAMPLE', 'ASIAY34FZKBOKMUTVV7A'],
  },
  { id: 'google-api-key', description: 'Google API keys (`AIza…`)', pattern: /^AIza[0-9A-Za-z_-]{35}/, examples: ['AIzaSyA-1234567890abcdefghijklmnopqrstu'] },
  { id: 'google-oauth', description: 'Google OAuth access tokens (`ya29.`)', pattern: /^ya29\.[0-9A-Za-z_-]{20,}/, examples: ['ya29.a0AfH6SMBabcdefghijklmnopqrstuv'] },
  {
    id: 'stripe-key',
    description: 'Stripe keys (`sk_live_`, `rk_test_`, `whsec_`, …)',
    pattern: /^(?:(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{10,}|whsec_[0-9A-Za-z]{20,})/,
    examples: ['sk_live_4eC39HqLyjWDarjtT1zdp7dc', 'rk_test_abcdefghij12', 'whsec_abcdefghijklmnopqrstuvwx'],
  },
  { id: 'sendgrid-key', description: 'SendGrid API keys (`SG.…`)', pattern: /^SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/, examples: ['SG.abcdefghijklmnop_q.rstuvwxyz0123456789ABCD'] },
  { id: 'huggingface-token', description: 'Hugging Face tokens (`hf_`)', pattern: /^hf_[A-Za-z0-9]{30,}/, examples: ['hf_abcdefghijklmnopqrstuvwxyzABCDEF'] },
  { id: 'docker-pat', description: 'Docker Hub tokens (`dckr_pat_`)', pattern: /^dckr_pat_[A-Za-z0-9_-]{20,}/, examples: ['dckr_pat_abcdefghijklmnopqrstuvwxyz0'] },
  { id: 'digitalocean-token', description: 'DigitalOcean tokens (`dop_v1_`, `doo_v1_`, `dor_v1_`)', pattern: /^do[opr]_v1_[a-f0-9]{64}/, examples: [`dop_v1_${'a1'.repeat(32)}`] },
  { id: 'shopify-token', description: 'Shopify tokens (`shpat_`, `shpss_`, …)', pattern: /^shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}/, examples: [`shpat_${'0f'.repeat(16)}`] },
  {
    id: 'jwt',
    description: 'JSON Web Tokens (`eyJ….eyJ….…`)',
    pattern: /^eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/,
    examples: ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  },
];

/**
 * The PEM armour that starts a private-key block (and any other PEM block: over-redaction is
 * intended). Everything from `-----BEGIN` to the `-----` that closes the `-----END …` line is
 * one secret.
 */
export const PEM_BEGIN = '-----BEGIN';
export const PEM_END = '-----END';

/**
 * A name as the tables see it: camelCase boundaries become `_`, ASCII letters are lowercased,
 * and `-`, `.` and spaces become `_` (`npmAuthToken` → `npm_auth_token`, `X-Api-Key` →
 * `x_api_key`).
 */
export function normalizeSecretName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[A-Z]/g, (c) => c.toLowerCase())
    .replace(/[-. ]/g, '_');
}

/** The id of the first name rule that `name` matches, or `null`. */
export function secretNameRule(name: string): string | null {
  if (name === '') return null;
  const normalized = normalizeSecretName(name);
  for (const rule of SECRET_NAME_RULES) if (rule.pattern.test(normalized)) return rule.id;
  return null;
}

const WORD_SPLIT = /[^A-Za-z0-9_.-]+/;

/**
 * The id of the first token shape found at the start of any word of `text` (words are runs
 * of `A-Z a-z 0-9 _ . -`), or `null`.
 */
export function tokenShapeRule(text: string): string | null {
  for (const word of text.split(WORD_SPLIT)) {
    if (word.length < 6) continue;
    for (const rule of TOKEN_SHAPE_RULES) if (rule.pattern.test(word)) return rule.id;
  }
  return null;
}
