import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolCallAssembler } from './tool-call-assembler.js';

describe('ToolCallAssembler', () => {
  it('assembles one call streamed the OpenAI way', () => {
    const a = new ToolCallAssembler();
    a.pushAll([{ index: 0, id: 'call_abc', type: 'function', function: { name: 'bash', arguments: '' } }]);
    a.pushAll([{ index: 0, function: { arguments: '{"comm' } }]);
    a.pushAll([{ index: 0, function: { arguments: 'and":"ls"}' } }]);
    expect(a.finish()).toEqual([{ id: 'call_abc', name: 'bash', arguments: '{"command":"ls"}' }]);
  });

  it('orders calls by index whatever the arrival order, and interleaves arguments correctly', () => {
    const a = new ToolCallAssembler();
    a.push({ index: 1, id: 'b', function: { name: 'write', arguments: '{"p' } });
    a.push({ index: 0, id: 'a', function: { name: 'read', arguments: '{"x' } });
    a.push({ index: 1, function: { arguments: '":2}' } });
    a.push({ index: 0, function: { arguments: '":1}' } });
    expect(a.finish()).toEqual([
      { id: 'a', name: 'read', arguments: '{"x":1}' },
      { id: 'b', name: 'write', arguments: '{"p":2}' },
    ]);
  });

  it('synthesizes call_<index> for a call without an id', () => {
    const a = new ToolCallAssembler();
    a.push({ index: 0, function: { name: 'read', arguments: '{}' } });
    a.push({ index: 3, function: { name: 'grep', arguments: '{}' } });
    expect(a.finish().map((c) => c.id)).toEqual(['call_0', 'call_3']);
    const b = new ToolCallAssembler({ syntheticIdPrefix: 'x_' });
    b.push({ index: 2, function: { name: 'read' } });
    expect(b.finish()[0]?.id).toBe('x_2');
  });

  it('keeps the first id and name when a server repeats them on every fragment', () => {
    const a = new ToolCallAssembler();
    a.push({ index: 0, id: 'c1', function: { name: 'bash', arguments: '{"a"' } });
    a.push({ index: 0, id: 'c1', function: { name: 'bash', arguments: ':1}' } });
    expect(a.finish()).toEqual([{ id: 'c1', name: 'bash', arguments: '{"a":1}' }]);
  });

  it('turns empty arguments into {} and drops empty trailing fragments', () => {
    const a = new ToolCallAssembler();
    a.push({ index: 0, id: 'c', function: { name: 'todo_write' } });
    a.push({ index: 1 });
    expect(a.finish()).toEqual([{ id: 'c', name: 'todo_write', arguments: '{}' }]);
  });

  it('without `index`, continues the last call or starts a new one on a different id', () => {
    const a = new ToolCallAssembler();
    a.push({ id: 'x', function: { name: 'read', arguments: '{"pa' } });
    a.push({ function: { arguments: 'th":"a"}' } });
    a.push({ id: 'y', function: { name: 'read', arguments: '{"path":"b"}' } });
    expect(a.finish()).toEqual([
      { id: 'x', name: 'read', arguments: '{"path":"a"}' },
      { id: 'y', name: 'read', arguments: '{"path":"b"}' },
    ]);
  });

  it('ignores malformed fragments and never throws', () => {
    const a = new ToolCallAssembler();
    for (const junk of [null, 3, 'x', [], { index: -1 }, { index: 0, function: 'nope' }, { index: 0, function: { arguments: 5 } }]) {
      expect(() => a.push(junk)).not.toThrow();
    }
    a.pushAll('not an array');
    expect(a.finish()).toEqual([]);
    expect(a.isEmpty).toBe(false);
    expect(new ToolCallAssembler().isEmpty).toBe(true);
  });

  describe('properties', () => {
    const callArb = fc.record({
      name: fc.stringMatching(/^[a-z_]{1,12}$/),
      args: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== ''),
      withId: fc.boolean(),
    });

    /** Split `s` at the given code-unit cut points (any place, surrogate halves included). */
    function fragments(s: string, cuts: readonly number[]): string[] {
      const points = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((x, y) => x - y);
      const out: string[] = [];
      let start = 0;
      for (const p of points) {
        out.push(s.slice(start, p));
        start = p;
      }
      out.push(s.slice(start));
      return out;
    }

    it('any fragmentation and interleaving of N calls reassembles them exactly, in index order', () => {
      fc.assert(
        fc.property(
          fc.array(fc.tuple(callArb, fc.array(fc.nat(), { maxLength: 8 })), { minLength: 1, maxLength: 5 }),
          fc.uniqueArray(fc.nat({ max: 50 }), { minLength: 5, maxLength: 5 }),
          fc.array(fc.nat(), { maxLength: 80 }),
          (calls, indexPool, schedule) => {
            const indices = calls.map((_, i) => indexPool[i]!);
            const queues = calls.map(([call, cuts], i) => {
              const index = indices[i]!;
              const [firstArgs, ...rest] = fragments(call.args, cuts);
              const head = { index, ...(call.withId ? { id: `id_${index}` } : {}), type: 'function', function: { name: call.name, arguments: firstArgs } };
              return [head, ...rest.map((arguments_) => ({ index, function: { arguments: arguments_ } }))];
            });
            const a = new ToolCallAssembler();
            let step = 0;
            for (;;) {
              const live = queues.filter((q) => q.length > 0);
              if (live.length === 0) break;
              const q = live[(schedule[step++] ?? 0) % live.length]!;
              a.push(q.shift());
            }
            const expected = calls
              .map(([call], i) => ({ index: indices[i]!, call }))
              .sort((x, y) => x.index - y.index)
              .map(({ index, call }) => ({ id: call.withId ? `id_${index}` : `call_${index}`, name: call.name, arguments: call.args }));
            expect(a.finish()).toEqual(expected);
          },
        ),
      );
    });
  });
});
