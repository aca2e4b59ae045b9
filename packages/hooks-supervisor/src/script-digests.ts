import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { PINNED_SCRIPT_MAX_BYTES, readRegularFile } from './read-regular-file.js';
import { sha256Hex } from './sha256-hex.js';

/**
 * SHA-256 (lowercase hex) of each workspace-relative script a project's commands name (D13):
 * the exact bytes of the file the path resolves to, symlinks followed. Only a regular file
 * (of at most 16 MiB) whose real path is inside the (canonical) workspace counts; anything
 * else — missing, a directory, a FIFO, a symlink out of the workspace — is `null` (absent). This is the one
 * implementation: the loader, `hooks review` and `hooks approve` all call it, so a pin
 * recorded by `approve` is byte for byte the digest the loader checks.
 */
export function scriptDigests(workspace: string, paths: readonly string[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const rel of paths) {
    let digest: string | null = null;
    try {
      const real = realpathSync(resolve(workspace, rel));
      if (real === workspace || real.startsWith(workspace.endsWith(sep) ? workspace : workspace + sep)) {
        // Never opened in a way that blocks: a FIFO, socket or device named as a script, or
        // one over 16 MiB, has no digest.
        const read = readRegularFile(real, PINNED_SCRIPT_MAX_BYTES);
        if (read.ok) digest = sha256Hex(read.bytes);
      }
    } catch {
      digest = null;
    }
    out.set(rel, digest);
  }
  return out;
}
