import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { parse, stringify } from 'smol-toml';
import { describe, expect, it } from 'vitest';
// A repository check (it reads the docs), of @codewhale/hooks-config's sources.
import { HOOK_EVENT_NAMES } from '../packages/hooks-payloads/src/index.js';
import { hookConfigJsonSchema } from '../packages/hooks-config/src/hook-config-json-schema.js';
import { buildHookSet } from '../packages/hooks-config/src/build-hook-set.js';
import { parseProjectHooks } from '../packages/hooks-config/src/parse-project-hooks.js';
import { parseUserConfig } from '../packages/hooks-config/src/parse-user-config.js';

const repo = join(import.meta.dirname, '..');
const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
const validate = { config: ajv.compile(hookConfigJsonSchema('config')), hooks: ajv.compile(hookConfigJsonSchema('hooks')) };

/** TOML values as an editor sees them: JSON (big integers become numbers, dates strings). */
const asJson = (doc: unknown): unknown => JSON.parse(JSON.stringify(doc, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)));

type Kind = 'config' | 'hooks';
/** What the loader says: does it reject anything a schema can express? */
function loaderRejects(kind: Kind, text: string): boolean {
  const user = parseUserConfig(kind === 'config' ? text : '', 'config.toml');
  if (!user.ok) throw new Error('not TOML');
  const project = kind === 'hooks' ? parseProjectHooks(new TextEncoder().encode(text), 'hooks.toml') : null;
  const { problems } = buildHookSet(user.value.hooks, project);
  // The event support matrix (a condition an event never carries) is not a shape rule.
  return problems.some((p) => p.severity === 'rejected' && p.code !== 'unsupported_condition');
}
const schemaAccepts = (kind: Kind, text: string): boolean => validate[kind](asJson(parse(text))) === true;

function kindOf(doc: Record<string, unknown>): Kind | null {
  const hooks = doc['hooks'];
  if (Array.isArray(hooks)) return 'hooks';
  if (hooks && typeof hooks === 'object') return 'config';
  return null;
}

function docTomlBlocks(): { where: string; text: string }[] {
  const files = [join(repo, 'docs/hooks-guide.md'), ...readdirSync(join(repo, 'packages')).map((d) => join(repo, 'packages', d, 'README.md')), join(repo, 'README.md')];
  const out: { where: string; text: string }[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const re = /^```toml\n([\s\S]*?)^```/gm;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const line = text.slice(0, m.index).split('\n').length;
      out.push({ where: `${file.slice(repo.length + 1)}:${line}`, text: m[1]! });
    }
  }
  out.push({ where: 'packages/cli/examples/demo/workspace/.codewhale/hooks.toml', text: readFileSync(join(repo, 'packages/cli/examples/demo/workspace/.codewhale/hooks.toml'), 'utf8') });
  return out;
}

describe('hookConfigJsonSchema', () => {
  it('is a valid draft 2020-12 schema with a title, for both files', () => {
    for (const which of ['config', 'hooks'] as const) {
      const s = hookConfigJsonSchema(which);
      expect(s['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(typeof s['title']).toBe('string');
      expect(ajv.validateSchema(s)).toBe(true);
    }
  });

  it('agrees with the loader on every TOML example in the docs', () => {
    const blocks = docTomlBlocks();
    let checked = 0;
    for (const b of blocks) {
      let doc: Record<string, unknown>;
      try {
        doc = parse(b.text) as Record<string, unknown>;
      } catch {
        continue; // a fragment (e.g. one inline table), not a file
      }
      const kind = kindOf(doc);
      if (!kind) continue;
      checked++;
      expect.soft(schemaAccepts(kind, b.text), `${b.where} (${kind}): schema vs loader`).toBe(!loaderRejects(kind, b.text));
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('rejects what the loader rejects: an unknown event, an unknown key, wrong types, a blank command, a zero timeout', () => {
    const bad = [
      '[[hooks]]\nevent = "PreToolUse"\ncommand = "true"\n',
      '[[hooks]]\nevent = "tool_call_before"\ncommand = "true"\nconditon = { type = "always" }\n',
      '[[hooks]]\nevent = "tool_call_before"\ncommand = "true"\ntimeout_secs = "30"\n',
      '[[hooks]]\nevent = "tool_call_before"\ncommand = "true"\nbackground = "yes"\n',
      '[[hooks]]\nevent = "tool_call_before"\ncommand = "   "\n',
      '[[hooks]]\nevent = "tool_call_before"\ncommand = "true"\ntimeout_secs = 0\n',
      '[[hooks]]\nevent = "tool_call_before"\n',
      '[[hooks]]\nevent = "tool_call_before"\ncommand = "true"\ncondition = { type = "tool_category", category = "network" }\n',
      '[[hooks]]\nevent = "tool_call_before"\ncommand = "true"\ncondition = { type = "all", conditions = [{ type = "mode", mode = "fast" }] }\n',
    ];
    for (const text of bad) {
      expect.soft(loaderRejects('hooks', text), text).toBe(true);
      expect.soft(schemaAccepts('hooks', text), text).toBe(false);
      const asUser = text.replaceAll('[[hooks]]', '[[hooks.hooks]]');
      expect.soft(loaderRejects('config', asUser), asUser).toBe(true);
      expect.soft(schemaAccepts('config', asUser), asUser).toBe(false);
    }
    const good =
      '[[hooks]]\nevent = "tool_call_before"\ncommand = "./gate.sh"\ntimeout_secs = 5\ncondition = { type = "any", conditions = [{ type = "mode", mode = "ACT" }, { type = "exit_code", code = -1 }] }\n';
    expect(schemaAccepts('hooks', good)).toBe(true);
    expect(loaderRejects('hooks', good)).toBe(false);
  });

  it('agrees with the loader on random hook entries (property)', () => {
    const value = fc.oneof(fc.string({ maxLength: 6 }), fc.integer({ min: -2, max: 3 }), fc.boolean(), fc.double({ min: 0.1, max: 2, noNaN: true }));
    const leaf = fc.oneof(
      fc.constant({ type: 'always' }),
      fc.record({ type: fc.constant('tool_name'), name: fc.constantFrom('', 'bash', 'read*') }),
      fc.record({ type: fc.constant('tool_category'), category: fc.constantFrom('shell', 'safe', 'net') }),
      fc.record({ type: fc.constant('mode'), mode: fc.constantFrom('plan', 'ACT', 'Yolo', 'fast') }),
      fc.record({ type: fc.constant('exit_code'), code: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant('1')) }),
      fc.record({ type: fc.constantFrom('always', 'tool_nam'), extra: value }),
    );
    const condition = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.record({ type: fc.constantFrom('all', 'any'), conditions: fc.array(tie('node'), { maxLength: 3 }) })),
    })).node;
    const entry = fc.record(
      {
        // Tool events only, so a tool condition is always supported (the matrix is not a shape rule).
        event: fc.constantFrom('tool_call_before', 'tool_call_after', 'on_error', 'PreToolUse', HOOK_EVENT_NAMES[0]!),
        command: fc.constantFrom('true', './gate.sh', '', '  '),
        name: fc.oneof(fc.string({ maxLength: 5 }), value),
        timeout_secs: value,
        background: value,
        continue_on_error: value,
        condition: fc.oneof(condition, value),
        conditon: value,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 3 }), (entries) => {
        const text = stringify({ hooks: entries });
        const user = parseUserConfig('', 'config.toml');
        const loader = user.ok ? buildHookSet(user.value.hooks, parseProjectHooks(new TextEncoder().encode(text), 'hooks.toml')).problems : [];
        fc.pre(!loader.some((p) => p.code === 'unsupported_condition'));
        expect(schemaAccepts('hooks', text), text).toBe(!loaderRejects('hooks', text));
      }),
      { numRuns: 300 },
    );
  });
});
