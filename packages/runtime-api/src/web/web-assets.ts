import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';

/**
 * The web client's files (the `@codewhale/web` build output), read once when the server starts:
 * only these paths are ever served, so no request path can reach another file.
 */
export interface WebAsset {
  readonly body: Uint8Array;
  readonly type: string;
  /** Hashed file names (`/assets/…`) never change; the page itself is revalidated. */
  readonly immutable: boolean;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The security headers of every page and asset: a Content-Security-Policy that allows only this
 * server's own scripts, styles and connections (no inline script or style, no eval, no frames),
 * and the usual hardening headers.
 */
export const WEB_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

/** Every file under `root` by URL path (`/index.html` also as `/`). Throws when `root` has no index.html. */
export function loadWebAssets(root: string): ReadonlyMap<string, WebAsset> {
  const assets = new Map<string, WebAsset>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile() && statSync(p).size <= 8 * 1024 * 1024) {
        const path = `/${relative(root, p).split(sep).join('/')}`;
        assets.set(path, { body: readFileSync(p), type: TYPES[extname(p).toLowerCase()] ?? 'application/octet-stream', immutable: path.startsWith('/assets/') });
      }
    }
  };
  walk(root);
  const index = assets.get('/index.html');
  if (!index) throw new Error(`${root} has no index.html (build @codewhale/web first)`);
  assets.set('/', index);
  return assets;
}
