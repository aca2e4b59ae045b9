import { styleText } from 'node:util';

/** The styles the CLI uses. */
export type Style = 'bold' | 'dim' | 'red' | 'yellow' | 'green' | 'cyan';

/**
 * Whether to colour a stream, by the usual conventions: `FORCE_COLOR` (any value but `0` or
 * `false`) forces colour on, `FORCE_COLOR=0` off, and it wins over `NO_COLOR` as in Node
 * itself; a non-empty `NO_COLOR` turns colour off; `TERM=dumb` too; otherwise colour only on a
 * terminal.
 */
export function colorEnabled(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['TERM'] === 'dumb') return false;
  return isTTY;
}

/** `text` in `style` when `enabled`, else unchanged. */
export function paint(enabled: boolean, style: Style | readonly Style[], text: string): string {
  if (!enabled || text === '') return text;
  return styleText(style as Parameters<typeof styleText>[0], text, { validateStream: false } as Parameters<typeof styleText>[2]);
}
