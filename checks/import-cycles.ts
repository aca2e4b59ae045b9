/**
 * File-level import cycles: two source files of a package that import each other, directly or
 * through others. A cycle means neither file can be read, tested or loaded without the other;
 * the layering check (layering.ts) already keeps packages acyclic, this keeps files so too.
 * Only relative imports are followed (a package's files reach other packages through their
 * entry points, which the layering check covers); `import type` counts like any other import.
 */
import ts from 'typescript';

/** The relative module specifiers `text` imports or re-exports. */
export function relativeImports(text: string): string[] {
  return ts
    .preProcessFile(text, true, false)
    .importedFiles.map((f) => f.fileName)
    .filter((name) => name.startsWith('./') || name.startsWith('../'));
}

/** `from` resolved against the importing file `file` (posix paths; `.js` → `.ts`/`.tsx`, or a directory's index). */
export function resolveImport(file: string, spec: string, exists: (path: string) => boolean): string | null {
  const dir = file.slice(0, file.lastIndexOf('/'));
  const parts = `${dir}/${spec}`.split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '.' || p === '') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  const base = out.join('/').replace(/\.(m?js|jsx)$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`]) if (exists(candidate)) return candidate;
  return null;
}

/** Every elementary cycle's files, each listed once (Tarjan's strongly connected components of size > 1, or a file importing itself). */
export function importCycles(files: ReadonlyMap<string, string>): string[][] {
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    graph.set(
      file,
      relativeImports(text)
        .map((spec) => resolveImport(file, spec, (p) => files.has(p)))
        .filter((t): t is string => t !== null),
    );
  }
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}
