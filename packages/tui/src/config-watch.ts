import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * Watch files (config.toml, the workspace's hooks.toml) by watching their directories (editors
 * replace files by renaming), and call `onChange` once per burst of changes (debounced).
 * Directories that do not exist are skipped.
 */
export function watchFiles(files: readonly string[], onChange: (file: string) => void, debounceMs = 150): { close(): void } {
  const watchers: FSWatcher[] = [];
  let timer: NodeJS.Timeout | null = null;
  let last = '';
  const byDir = new Map<string, Set<string>>();
  for (const f of files) {
    const d = dirname(f);
    if (!byDir.has(d)) byDir.set(d, new Set());
    byDir.get(d)!.add(basename(f));
  }
  for (const [dir, names] of byDir) {
    try {
      const w = watch(dir, { persistent: false }, (_event, name) => {
        if (name !== null && !names.has(String(name))) return;
        last = `${dir}/${name ?? ''}`;
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => {
          timer = null;
          onChange(last);
        }, debounceMs);
      });
      w.on('error', () => w.close());
      watchers.push(w);
    } catch {
      // A missing directory: nothing to watch (created later → picked up by /reload).
    }
  }
  return {
    close() {
      if (timer) clearTimeout(timer);
      for (const w of watchers) w.close();
    },
  };
}
