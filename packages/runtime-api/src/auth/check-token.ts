import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/**
 * Compare a presented token with the expected one in constant time (both are hashed first, so
 * neither the length nor a common prefix leaks through timing).
 */
export function tokensMatch(presented: string | null, expected: string): boolean {
  if (presented === null) return false;
  return timingSafeEqual(digest(presented), digest(expected));
}

/** The cookie clients (the web page) may carry the token in. */
export const TOKEN_COOKIE = 'codewhale_runtime_token';

/**
 * The token a request presents: `Authorization: Bearer`, `X-Codewhale-Runtime-Token`, the
 * legacy `X-DeepSeek-Runtime-Token`, or the cookie. Never the query string.
 */
export function presentedToken(headers: Headers): string | null {
  return presentedCredential(headers)?.token ?? null;
}

/** The presented token and how it came: a header (a program) or the cookie (a browser page, which needs the CSRF rules). */
export function presentedCredential(headers: Headers): { readonly token: string; readonly via: 'header' | 'cookie' } | null {
  const auth = headers.get('authorization');
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return { token: m[1]!, via: 'header' };
  }
  const header = headers.get('x-codewhale-runtime-token') ?? headers.get('x-deepseek-runtime-token');
  if (header?.trim()) return { token: header.trim(), via: 'header' };
  const cookie = headers.get('cookie');
  if (cookie) {
    for (const part of cookie.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === TOKEN_COOKIE) {
        const v = part.slice(eq + 1).trim();
        let token: string;
        try {
          token = decodeURIComponent(v);
        } catch {
          token = v;
        }
        return token ? { token, via: 'cookie' } : null;
      }
    }
  }
  return null;
}

/** Whether a bind address is loopback (`--insecure-no-auth` is refused otherwise). */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}
