import type { Writable } from 'node:stream';

/**
 * Write a child's input and close its stdin, without waiting: a child that never reads it
 * gets no more than its pipe holds, and one that exits early is no error (EPIPE).
 */
export function writeInput(stdin: Writable, input: Uint8Array): void {
  stdin.on('error', () => {});
  stdin.end(input);
}
