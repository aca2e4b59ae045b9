import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backspace, composerLines, emptyComposer, historyDown, historyUp, HISTORY_LIMIT, insertText, moveCursor, takeSubmission } from './composer.js';

describe('composer', () => {
  it('edits at the cursor, multi-line', () => {
    let s = insertText(emptyComposer(), 'helo');
    s = moveCursor(s, 'left');
    s = insertText(s, 'l');
    s = moveCursor(s, 'end');
    s = insertText(s, '\nworld');
    expect(s.text).toBe('hello\nworld');
    expect(composerLines(s)).toEqual({ lines: ['hello', 'world'], line: 1, column: 5 });
    expect(moveCursor(s, 'home').cursor).toBe(6);
  });

  it('backspace removes a whole emoji (surrogate pair)', () => {
    const s = backspace(insertText(emptyComposer(), 'a\ud83d\udc33'));
    expect(s.text).toBe('a');
  });

  it('walks the history and comes back to the draft', () => {
    let s = emptyComposer(['one', 'two']);
    s = insertText(s, 'draft');
    s = historyUp(s);
    expect(s.text).toBe('two');
    s = historyUp(s);
    expect(s.text).toBe('one');
    s = historyUp(s);
    expect(s.text).toBe('one');
    s = historyDown(historyDown(s));
    expect(s.text).toBe('draft');
  });

  it('submission empties the composer and records history without blanks or repeats', () => {
    let { state } = takeSubmission(insertText(emptyComposer(), 'x'));
    ({ state } = takeSubmission(insertText(state, 'x')));
    ({ state } = takeSubmission(insertText(state, '   ')));
    expect(state.history).toEqual(['x']);
    expect(state.text).toBe('');
  });

  it('property: history stays bounded and the cursor stays within the text', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom('<BS>', '<L>', '<R>', '<UP>', '<DOWN>', '<SUBMIT>')), { maxLength: 400 }), (ops) => {
        let s = emptyComposer();
        for (const op of ops) {
          if (op === '<BS>') s = backspace(s);
          else if (op === '<L>') s = moveCursor(s, 'left');
          else if (op === '<R>') s = moveCursor(s, 'right');
          else if (op === '<UP>') s = historyUp(s);
          else if (op === '<DOWN>') s = historyDown(s);
          else if (op === '<SUBMIT>') s = takeSubmission(s).state;
          else s = insertText(s, op);
          expect(s.cursor).toBeGreaterThanOrEqual(0);
          expect(s.cursor).toBeLessThanOrEqual(s.text.length);
          expect(s.history.length).toBeLessThanOrEqual(HISTORY_LIMIT);
        }
      }),
      { numRuns: 200 },
    );
  });
});
