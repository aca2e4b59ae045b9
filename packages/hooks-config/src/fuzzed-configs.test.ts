/**
 * Hostile set: fuzzed `config.toml` files with an answer key per entry. Each generated entry
 * is either valid or carries one known defect; the loader must accept exactly the valid
 * ones (in order) and reject each defective one alone, with the defect's code — never
 * crashing, never taking another entry or the file down.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildHookSet } from './build-hook-set.js';
import { parseUserConfig } from './parse-user-config.js';

type Answer = { readonly accepted: true } | { readonly accepted: false; readonly code: string };

interface Entry {
  readonly toml: (name: string) => string;
  readonly answer: Answer;
}

const str = (s: string): string => JSON.stringify(s); // a TOML basic string is a JSON string for these
// Names are arbitrary text: quotes, backslashes, controls, astral characters.
const nameText = fc.string({ unit: 'grapheme', maxLength: 30 });
const glob = fc.stringMatching(/^[a-z_*.]{1,12}$/);

const valid: fc.Arbitrary<Entry> = fc.oneof(
  fc.constantFrom('turn_end', 'session_start', 'on_error', 'tool_call_after').map((event) => ({
    toml: (n: string) => `name = ${n}\nevent = "${event}"\ncommand = "true"\n`,
    answer: { accepted: true } as const,
  })),
  glob.map((g) => ({
    toml: (n: string) => `name = ${n}\nevent = "tool_call_before"\ncommand = "echo hi"\ncondition = { type = "tool_name", name = ${str(g)} }\n`,
    answer: { accepted: true } as const,
  })),
  fc.constantFrom('plan', 'act', 'Agent', 'operate').map((m) => ({
    toml: (n: string) => `name = ${n}\nevent = "turn_end"\ncommand = "true"\ntimeout_secs = 5\ncondition = { type = "mode", mode = "${m}" }\n`,
    answer: { accepted: true } as const,
  })),
  fc.integer({ min: -3, max: 300 }).map((code) => ({
    toml: (n: string) =>
      `name = ${n}\nevent = "tool_call_after"\ncommand = "true"\ncondition = { type = "all", conditions = [{ type = "exit_code", code = ${code} }, { type = "tool_category", category = "shell" }] }\n`,
    answer: { accepted: true } as const,
  })),
);

const defective: fc.Arbitrary<Entry> = fc.oneof(
  fc.constantFrom('turn_ended', 'ToolCallBefore', '', 'session-start').map((event) => ({
    toml: (n: string) => `name = ${n}\nevent = ${str(event)}\ncommand = "true"\n`,
    answer: { accepted: false, code: 'unknown_event' } as const,
  })),
  fc.constant({ toml: (n: string) => `name = ${n}\nevent = "turn_end"\n`, answer: { accepted: false, code: 'missing_command' } as const }),
  fc.constantFrom('""', '"   "').map((c) => ({ toml: (n: string) => `name = ${n}\nevent = "turn_end"\ncommand = ${c}\n`, answer: { accepted: false, code: 'empty_command' } as const })),
  fc.constantFrom('command = 42', 'command = ["ls"]', 'background = "yes"', 'continue_on_error = 1').map((bad) => ({
    toml: (n: string) => `name = ${n}\nevent = "turn_end"\n${bad.startsWith('command') ? '' : 'command = "true"\n'}${bad}\n`,
    answer: { accepted: false, code: 'invalid_type' } as const,
  })),
  fc.constantFrom('conditon', 'comand_x', 'timeout', 'evnt_name').map((key) => ({
    toml: (n: string) => `name = ${n}\nevent = "turn_end"\ncommand = "true"\n${key} = "x"\n`,
    answer: { accepted: false, code: 'unknown_key' } as const,
  })),
  fc.constantFrom('tool', 'toolname', 'never', 'regex').map((t) => ({
    toml: (n: string) => `name = ${n}\nevent = "turn_end"\ncommand = "true"\ncondition = { type = "${t}" }\n`,
    answer: { accepted: false, code: 'unknown_condition_type' } as const,
  })),
);

const config = fc.array(fc.tuple(fc.oneof(valid, defective), nameText), { maxLength: 10 });

describe('fuzzed configs with an answer key per entry', { timeout: 120_000 }, () => {
  it('accepts exactly the valid entries, in order, and rejects each defective one alone with its code', () => {
    let configs = 0;
    let entries = 0;
    fc.assert(
      fc.property(config, fc.boolean(), (items, withSettings) => {
        configs++;
        entries += items.length;
        let text = `# fuzzed\nmodel = "m"\n\n[hooks]\n${withSettings ? 'enabled = true\ndefault_timeout_secs = 7\n' : ''}`;
        items.forEach(([entry, label], i) => {
          // A unique marker per entry, after arbitrary text, so the answer key can find it.
          text += `\n[[hooks.hooks]]\n${entry.toml(str(`${label}#${i}`))}`;
        });
        const parsed = parseUserConfig(text, 'config.toml');
        expect(parsed.ok, text).toBe(true);
        if (!parsed.ok) return;
        const set = buildHookSet(parsed.value.hooks);
        const expectedAccepted = items.flatMap(([e, label], i) => (e.answer.accepted ? [`${label}#${i}`] : []));
        expect(set.hooks.map((h) => h.name)).toEqual(expectedAccepted);
        items.forEach(([e], i) => {
          const rejected = set.problems.filter((p) => p.severity === 'rejected' && p.entry === i);
          if (e.answer.accepted) expect(rejected, `entry ${i}`).toEqual([]);
          else
            expect(
              rejected.map((p) => p.code),
              `entry ${i}:\n${text}`,
            ).toContain(e.answer.code);
        });
        // Summaries are single lines that never quote a command.
        for (const p of set.problems) expect(p.summary).not.toMatch(/[\n\r]/);
      }),
      { numRuns: 500 },
    );
    expect(configs).toBeGreaterThanOrEqual(500);
    expect(entries).toBeGreaterThan(1500);
  });

  it('random bytes never crash the parser: a file is either parsed or one syntax error with a line', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (junk) => {
        const parsed = parseUserConfig(`[hooks]\n${junk}`, 'config.toml');
        if (!parsed.ok) {
          expect(parsed.issues).toHaveLength(1);
          expect(parsed.issues[0]!.summary.startsWith('config.toml')).toBe(true);
        } else {
          expect(() => buildHookSet(parsed.value.hooks)).not.toThrow();
        }
      }),
      { numRuns: 500 },
    );
  });
});
