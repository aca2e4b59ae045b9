/**
 * The repository's layering rules, as data plus one analyzer:
 * - imports point down only (a package may import packages of a strictly lower rank);
 * - every cross-package import is a declared dependency, and the dependency graph has no cycle;
 * - pure packages import no `node:` runtime value (type-only imports are fine) and use no
 *   Node globals (`process`, `Buffer`, `require`).
 */
import { builtinModules } from 'node:module';

export const RANKS: Record<string, number> = {
  '@codewhale/hooks-payloads': 0,
  '@codewhale/hooks-conditions': 1,
  '@codewhale/hooks-config': 2,
  '@codewhale/hooks-supervisor': 3,
  '@codewhale/hooks': 3.5,
  '@codewhale/hooks-ai-sdk': 4,
  '@codewhale/engine': 4,
  // The typed HTTP client sits beside the engine: it imports no Codewhale package.
  '@codewhale/runtime-client': 4,
  '@codewhale/tui': 5,
  '@codewhale/runtime-api': 5,
  '@codewhale/cli': 6,
  // The web client: a page built from the typed client, served by the CLI's `serve`.
  '@codewhale/web': 7,
};

export const PURE = new Set(['@codewhale/hooks-payloads', '@codewhale/hooks-conditions', '@codewhale/hooks-config']);

export interface PackageInput {
  readonly name: string;
  readonly dependencies: readonly string[];
  /** Source files: path → text. */
  readonly files: ReadonlyMap<string, string>;
}

export interface Violation {
  readonly rule: 'upward-import' | 'undeclared-import' | 'cycle' | 'unknown-package' | 'pure-node-import' | 'pure-node-global';
  readonly where: string;
  readonly message: string;
}

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

interface ImportRef {
  readonly specifier: string;
  readonly typeOnly: boolean;
  readonly line: number;
}

/** Static and dynamic import / export-from / require specifiers in a TypeScript source. */
export function findImports(source: string): ImportRef[] {
  const refs: ImportRef[] = [];
  const stripped = source.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' '));
  const lines = stripped.split('\n');
  const text = lines.map((l) => l.replace(/(^|[^:'"`])\/\/.*$/, '$1')).join('\n');
  const lineOf = (index: number): number => text.slice(0, index).split('\n').length;
  const re = /\b(import|export)\s+(type\s+)?([\s\S]*?)\s*from\s*['"]([^'"]+)['"]|\bimport\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)|\brequire\(\s*['"]([^'"]+)['"]\s*\)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m[4]) {
      const clause = m[3] ?? '';
      const inlineAllTypes =
        /^\{[\s\S]*\}$/.test(clause.trim()) &&
        clause
          .replace(/[{}\s]/g, '')
          .split(',')
          .filter(Boolean)
          .every((p) => p.startsWith('type'));
      refs.push({ specifier: m[4], typeOnly: Boolean(m[2]) || inlineAllTypes, line: lineOf(m.index) });
    } else {
      const spec = m[5] ?? m[6] ?? m[7];
      if (spec) refs.push({ specifier: spec, typeOnly: false, line: lineOf(m.index) });
    }
  }
  return refs;
}

function packageOf(specifier: string): string | null {
  if (!specifier.startsWith('@codewhale/')) return null;
  return specifier.split('/').slice(0, 2).join('/');
}

/** Check a set of packages against the rules; an empty list means the layering is honest. */
export function checkLayering(packages: readonly PackageInput[]): Violation[] {
  const out: Violation[] = [];
  const byName = new Map(packages.map((p) => [p.name, p]));
  for (const pkg of packages) {
    const rank = RANKS[pkg.name];
    if (rank === undefined) {
      out.push({ rule: 'unknown-package', where: pkg.name, message: `${pkg.name} has no layer in RANKS` });
      continue;
    }
    for (const dep of pkg.dependencies) {
      const depRank = RANKS[dep];
      if (depRank === undefined) continue;
      if (depRank >= rank) out.push({ rule: 'upward-import', where: `${pkg.name}/package.json`, message: `${pkg.name} depends on ${dep}, which is not below it` });
    }
    for (const [file, source] of pkg.files) {
      const test = /\.test\.tsx?$/.test(file);
      for (const ref of findImports(source)) {
        const target = packageOf(ref.specifier);
        const where = `${file}:${ref.line}`;
        if (target && target !== pkg.name) {
          const targetRank = RANKS[target];
          if (targetRank === undefined) out.push({ rule: 'unknown-package', where, message: `imports unknown package ${target}` });
          else if (targetRank >= rank) out.push({ rule: 'upward-import', where, message: `${pkg.name} imports ${target}, which is not below it` });
          if (!pkg.dependencies.includes(target) && !test) {
            out.push({ rule: 'undeclared-import', where, message: `${pkg.name} imports ${target} without declaring it` });
          }
        }
        if (PURE.has(pkg.name) && NODE_BUILTINS.has(ref.specifier) && !ref.typeOnly) {
          out.push({ rule: 'pure-node-import', where, message: `pure package ${pkg.name} imports the Node module ${ref.specifier}` });
        }
      }
      if (PURE.has(pkg.name) && !test) {
        const code = source
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/\/\/.*$/gm, '')
          .replace(/(['"`])(?:\\.|(?!\1).)*\1/g, '""');
        const g = /\b(process|Buffer|require|__dirname|__filename|setImmediate)\b(?=\s*[.([])/.exec(code);
        if (g) out.push({ rule: 'pure-node-global', where: file, message: `pure package ${pkg.name} uses the Node global ${g[1]}` });
      }
    }
  }
  // Cycles in the declared workspace graph.
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, path: string[]): void => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      const cycle = [...path.slice(path.indexOf(name)), name];
      out.push({ rule: 'cycle', where: name, message: `dependency cycle: ${cycle.join(' -> ')}` });
      return;
    }
    state.set(name, 'visiting');
    for (const dep of byName.get(name)?.dependencies ?? []) if (byName.has(dep)) visit(dep, [...path, name]);
    state.set(name, 'done');
  };
  for (const pkg of packages) visit(pkg.name, []);
  return out;
}
