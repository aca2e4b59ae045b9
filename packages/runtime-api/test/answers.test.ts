import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerIssues } from '../src/approval-broker.js';

const question = fc.record({
  id: fc.stringMatching(/^[a-z]{1,6}$/),
  header: fc.constant('H'),
  question: fc.constant('Q?'),
  options: fc
    .uniqueArray(
      fc.stringMatching(/^[A-Za-z ]{1,10}$/).filter((s) => s.trim() !== ''),
      { minLength: 2, maxLength: 4 },
    )
    .map((ls) => ls.map((label) => ({ label }))),
  allowFreeText: fc.boolean(),
  multiSelect: fc.boolean(),
});
const questions = fc.uniqueArray(question, { minLength: 1, maxLength: 3, selector: (q) => q.id });

/** A valid answer to every question, chosen by `pick`. */
type Q = { id: string; header: string; question: string; options: { label: string }[]; allowFreeText: boolean; multiSelect: boolean };
const validAnswers = (qs: fc.Arbitrary<Q[]>) =>
  qs.chain((list) =>
    fc
      .tuple(
        ...list.map((q) =>
          q.multiSelect
            ? fc.subarray(
                q.options.map((o) => o.label),
                { minLength: 1 },
              )
            : fc.constantFrom(...q.options.map((o) => o.label)),
        ),
      )
      .map((answers) => ({ list, answers: Object.fromEntries(list.map((q, i) => [q.id, answers[i]!])) as Record<string, string | string[]> })),
  );

describe('answerIssues', () => {
  it('accepts every complete answer made of the options, in the shape each question takes', () => {
    fc.assert(
      fc.property(validAnswers(questions), ({ list, answers }) => {
        expect(answerIssues(list, answers)).toEqual([]);
      }),
    );
  });

  it('refuses a missing or unknown question, the wrong shape, and text that is no option where free text is not allowed', () => {
    fc.assert(
      fc.property(validAnswers(questions), fc.nat(), fc.constantFrom('drop', 'unknown', 'shape', 'free'), ({ list, answers }, n, how) => {
        const q = list[n % list.length]!;
        const bad: Record<string, unknown> = { ...answers };
        if (how === 'drop') delete bad[q.id];
        else if (how === 'unknown') bad[`${q.id}_x`] = 'x';
        else if (how === 'shape') bad[q.id] = q.multiSelect ? 42 : [q.options[0]!.label];
        else {
          if (q.allowFreeText) return;
          bad[q.id] = q.multiSelect ? ['not an option!'] : 'not an option!';
        }
        const issues = answerIssues(list, bad);
        expect(issues.length).toBeGreaterThan(0);
        expect(issues.every((i) => i.path.startsWith('answers.'))).toBe(true);
      }),
    );
  });
});
