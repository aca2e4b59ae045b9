import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { shellCommandEnv, isAllowedParentVar } from './shell-command-env.js';

describe('the shell child environment', () => {
  it('keeps the allowlist, including proxies in either case, locale and toolchain keys', () => {
    const env = shellCommandEnv(
      {
        PATH: '/bin',
        HOME: '/h',
        LANG: 'C.UTF-8',
        LC_TIME: 'C',
        http_proxy: 'http://p',
        HTTPS_PROXY: 'http://q',
        CARGO_HOME: '/c',
        RUSTUP_TOOLCHAIN: 'stable',
        PYTHONUTF8: '1',
        DOTNET_ROOT: '/d',
      },
      null,
      'linux',
    );
    expect(Object.keys(env).sort()).toEqual(['CARGO_HOME', 'DOTNET_ROOT', 'HOME', 'HTTPS_PROXY', 'LANG', 'LC_TIME', 'PATH', 'PYTHONUTF8', 'RUSTUP_TOOLCHAIN', 'http_proxy']);
  });

  it('drops secrets and everything else the reference drops on Unix', () => {
    for (const key of [
      'JAVA_HOME',
      'GOPATH',
      'NVM_DIR',
      'EDITOR',
      'PAGER',
      'SSH_AUTH_SOCK',
      'DISPLAY',
      'TZ',
      'XDG_CONFIG_HOME',
      'PWD',
      'SHLVL',
      'AWS_ACCESS_KEY_ID',
      'OPENAI_API_KEY',
      'GITHUB_TOKEN',
      'SECRET_TOKEN',
    ]) {
      expect(isAllowedParentVar(key, 'linux'), key).toBe(false);
    }
  });

  it('on Windows keeps path-like toolchain roots unless they look secret', () => {
    expect(isAllowedParentVar('BIMRV_SDK_ROOT', 'win32')).toBe(true);
    expect(isAllowedParentVar('MY_SECRET_ROOT', 'win32')).toBe(false);
    expect(isAllowedParentVar('PRIVATE_KEY_PATH', 'win32')).toBe(false);
    expect(isAllowedParentVar('BIMRV_SDK_ROOT', 'linux')).toBe(false);
  });

  it('lets shell_env values win, replacing a differently-cased key', () => {
    const env = shellCommandEnv(
      { PATH: '/bin' },
      new Map([
        ['path', '/x'],
        ['TOKEN', 't'],
      ]),
      'linux',
    );
    expect(env).toEqual({ path: '/x', TOKEN: 't' });
  });

  it('keeps a shell_env variable named __proto__ as a variable (a plain assignment would drop it)', () => {
    const env = shellCommandEnv(
      { PATH: '/bin' },
      new Map([
        ['__proto__', 'kept'],
        ['A', 'b'],
      ]),
      'linux',
    );
    expect(Object.getPrototypeOf(env)).toBe(Object.prototype);
    expect(Object.entries(env)).toEqual([
      ['PATH', '/bin'],
      ['__proto__', 'kept'],
      ['A', 'b'],
    ]);
  });

  it('filters a frozen parent once per platform, and what one command gets never reaches the next', () => {
    const parent = Object.freeze({ PATH: '/bin', HOME: '/h', GITHUB_TOKEN: 'secret', BIMRV_SDK_ROOT: '/sdk' });
    const first = shellCommandEnv(
      parent,
      new Map([
        ['TOKEN', 't1'],
        ['path', '/x'],
      ]),
      'linux',
    );
    expect(first).toEqual({ HOME: '/h', TOKEN: 't1', path: '/x' });
    first['LEAK'] = 'changed by the caller';
    expect(shellCommandEnv(parent, null, 'linux')).toEqual({ PATH: '/bin', HOME: '/h' });
    expect(shellCommandEnv(parent, null, 'win32')).toEqual({ PATH: '/bin', HOME: '/h', BIMRV_SDK_ROOT: '/sdk' });
    expect(shellCommandEnv(parent, null, 'linux')).toEqual({ PATH: '/bin', HOME: '/h' });
  });

  describe('properties', () => {
    it('never passes a variable that is not allowlisted, and always passes the explicit values', () => {
      fc.assert(
        fc.property(fc.dictionary(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/), fc.string()), fc.dictionary(fc.stringMatching(/^[A-Z][A-Z0-9_]{0,8}$/), fc.string()), (parent, extra) => {
          const env = shellCommandEnv(parent, new Map(Object.entries(extra)), 'linux');
          for (const k of Object.keys(env)) {
            const explicit = Object.keys(extra).some((e) => e === k);
            expect(explicit || isAllowedParentVar(k, 'linux')).toBe(true);
          }
          for (const [k, v] of Object.entries(extra)) expect(env[k]).toBe(v);
        }),
      );
    });

    it('gives a frozen parent the same environment as a plain copy of it, call after call', () => {
      const vars = fc.dictionary(fc.constantFrom('PATH', 'HOME', 'LANG', 'LC_ALL', 'http_proxy', 'EDITOR', 'API_TOKEN', 'DOTNET_ROOT', 'X_SDK_ROOT'), fc.string({ maxLength: 8 }));
      fc.assert(
        fc.property(vars, fc.array(fc.tuple(vars, fc.constantFrom<NodeJS.Platform>('linux', 'win32')), { maxLength: 4 }), (parent, calls) => {
          const frozen = Object.freeze({ ...parent });
          for (const [extra, platform] of calls) {
            expect(shellCommandEnv(frozen, new Map(Object.entries(extra)), platform)).toEqual(shellCommandEnv({ ...parent }, new Map(Object.entries(extra)), platform));
          }
        }),
      );
    });
  });
});
