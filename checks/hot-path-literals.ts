/**
 * Object literals that add properties after a spread (`{ ...base, more: 1 }`) are a speed cliff
 * on Node 20 (V8 11.3): each property after the spread costs ~1–2 µs, ~19 µs for ten, where a
 * literal written out field by field costs ~0.04 µs. The files below build such records for
 * every hook run, observer event or gate; this finds any literal of that shape in them.
 */
import ts from 'typescript';

/** The files on the per-run path (see docs/design-notes.md, "Where one gate's time goes"). */
export const HOT_PATH_FILES = [
  'packages/hooks-supervisor/src/run-hook.ts',
  'packages/hooks-supervisor/src/spawn/run-process.ts',
  'packages/hooks-supervisor/src/hook-runtime.ts',
  'packages/hooks-payloads/src/tool-call-before.ts',
  'packages/hooks-payloads/src/lifecycle-fact.ts',
] as const;

/** 1-based lines of object literals in `text` with a property after a spread element. */
export function propertiesAfterSpread(file: string, text: string): number[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lines: number[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      let spread = false;
      for (const p of node.properties) {
        if (ts.isSpreadAssignment(p)) spread = true;
        else if (spread) {
          lines.push(src.getLineAndCharacterOfPosition(node.getStart(src)).line + 1);
          break;
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return lines;
}
