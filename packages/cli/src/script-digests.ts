import { realpathSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { PINNED_SCRIPT_MAX_BYTES, readRegularFile, sha256Hex } from '@codewhale/hooks-supervisor';

/**
 * SHA-256 of each workspace-relative script a project's commands name (D13), the same way the
 * loader hashes them: symlinks resolved, only regular files inside the workspace count;
 * anything else is `null` (absent).
 */
export function scriptDigests(workspace: string, paths: readonly string[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const rel of paths) {
    let digest: string | null = null;
    try {
      const real = realpathSync(resolve(workspace, rel));
      if (real === workspace || real.startsWith(workspace + sep)) {
        // Never opened in a way that blocks: a FIFO or device named as a script has no digest.
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
