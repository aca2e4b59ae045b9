import { describe, expect, it } from 'vitest';
import { LIMITS } from '@codewhale/hooks-payloads';
import { decodeProjectFile, PROJECT_FILE_NOT_UTF8, PROJECT_FILE_TOO_LARGE } from './decode-project-file.js';

describe('decodeProjectFile', () => {
  it('project_hook_file_read_is_bounded_before_toml_parse: 1 MiB + 1 byte is a read error mentioning 1 MiB', () => {
    const r = decodeProjectFile(new Uint8Array(LIMITS.projectHooksFileMaxBytes + 1).fill(0x23), 'hooks.toml');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues[0]!.code).toBe('file_too_large');
    expect(r.issues[0]!.message).toBe(PROJECT_FILE_TOO_LARGE);
    expect(r.issues[0]!.message).toContain('1 MiB');
  });

  it('accepts exactly 1 MiB', () => {
    expect(decodeProjectFile(new Uint8Array(LIMITS.projectHooksFileMaxBytes).fill(0x23), 'hooks.toml').ok).toBe(true);
  });

  it('rejects invalid UTF-8', () => {
    const r = decodeProjectFile(new Uint8Array([0x61, 0xff, 0xfe, 0x62]), 'hooks.toml');
    expect(r.ok ? null : r.issues[0]!).toMatchObject({ code: 'invalid_utf8', message: PROJECT_FILE_NOT_UTF8 });
  });

  it('decodes UTF-8 and drops a leading BOM from the text', () => {
    const r = decodeProjectFile(new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xc3, 0xa9]), 'hooks.toml');
    expect(r.ok ? r.value : null).toBe('aé');
  });
});
