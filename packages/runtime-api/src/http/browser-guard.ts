import { hostname as machineName, networkInterfaces } from 'node:os';

/**
 * What a browser may do, decided from the request alone (every mode, `--insecure-no-auth`
 * included):
 *
 * - **Host** must name this server (DNS rebinding: a page on `evil.example` whose name now
 *   resolves to 127.0.0.1 sends `Host: evil.example:7878`).
 * - **Origin**, when present, must be one of the `--cors` origins or this server itself; so must
 *   a `Sec-Fetch-Site: cross-site` request's. A page elsewhere cannot drive the API even when
 *   its request carries no credential (`--insecure-no-auth`).
 * - CORS headers are sent only to the `--cors` origins.
 */
export interface BrowserPolicy {
  /** Lower-case `host` or `host:port` forms the `Host` header may take. */
  readonly hosts: ReadonlySet<string>;
  /** Exact origins (`scheme://host[:port]`) allowed to call the API from a browser. */
  readonly corsOrigins: ReadonlySet<string>;
}

const WILDCARD = new Set(['0.0.0.0', '::', '[::]', '']);

function bracket(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** Normalize an origin as browsers send it (`scheme://host[:port]`, lower case, default ports dropped). */
export function normalizeOrigin(origin: string): string | null {
  let u: URL;
  try {
    u = new URL(origin);
  } catch {
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || (u.pathname !== '/' && u.pathname !== '') || u.search || u.hash) return null;
  return u.origin.toLowerCase();
}

/**
 * The policy of a server bound to `bindHost:port`: its own name, the loopback names, and for a
 * wildcard bind this machine's addresses and host name; plus `extraHosts` (`--allow-host`).
 */
export function browserPolicy(bindHost: string, port: number, options: { corsOrigins?: readonly string[]; extraHosts?: readonly string[] } = {}): BrowserPolicy {
  const names = new Set<string>(['localhost', '127.0.0.1', '[::1]']);
  const bind = bindHost.trim().toLowerCase();
  if (WILDCARD.has(bind)) {
    for (const list of Object.values(networkInterfaces())) for (const i of list ?? []) names.add(bracket(i.address.toLowerCase()));
    names.add(machineName().toLowerCase());
  } else names.add(bracket(bind));
  for (const h of options.extraHosts ?? []) names.add(bracket(h.trim().toLowerCase()));
  const hosts = new Set<string>();
  for (const n of names) {
    hosts.add(`${n}:${port}`);
    if (port === 80) hosts.add(n);
  }
  const corsOrigins = new Set<string>();
  for (const o of options.corsOrigins ?? []) {
    const n = normalizeOrigin(o);
    if (n) corsOrigins.add(n);
  }
  return { hosts, corsOrigins };
}

export type BrowserVerdict = { readonly ok: true; readonly cors: string | null } | { readonly ok: false; readonly reason: string };

/** Whether a request's `Host`, `Origin` and `Sec-Fetch-Site` are acceptable, and which origin gets CORS headers. */
export function checkBrowser(policy: BrowserPolicy, headers: Headers, urlHost = ''): BrowserVerdict {
  // Browsers always send Host; a program that sends none is judged by the URL it asked for.
  const host = (headers.get('host') ?? urlHost).trim().toLowerCase();
  if (!policy.hosts.has(host)) {
    return { ok: false, reason: 'the Host header does not name this server (DNS rebinding protection); connect to the address it listens on, or start it with --allow-host NAME' };
  }
  const rawOrigin = headers.get('origin');
  const crossSite = headers.get('sec-fetch-site')?.toLowerCase() === 'cross-site';
  if (rawOrigin === null) {
    // A browser request without Origin (a plain GET) that says it is cross-site.
    return crossSite ? { ok: false, reason: 'cross-site browser requests are refused' } : { ok: true, cors: null };
  }
  const origin = normalizeOrigin(rawOrigin);
  if (origin !== null && policy.corsOrigins.has(origin)) return { ok: true, cors: origin };
  // Same origin: a page served under one of this server's own names.
  const sameOrigin = origin?.startsWith('http://') === true && policy.hosts.has(origin.slice('http://'.length));
  if (sameOrigin && !crossSite) return { ok: true, cors: null };
  return { ok: false, reason: 'the Origin is not allowed; start the server with --cors ORIGIN to let that web client call it' };
}

/** Media types a cookie-authenticated write may carry: only JSON, which a foreign page cannot send without a preflight. */
export function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  return /^application\/json\s*(?:;|$)/i.test(value.trim());
}
