import { describe, expect, it } from 'vitest';
import { PROJECT_HOOKS_RELATIVE_PATH, projectHooksFile } from './project-hooks-path.js';

describe('projectHooksFile', () => {
  it('is <workspace>/.codewhale/hooks.toml, whatever trailing separators the workspace has', () => {
    expect(PROJECT_HOOKS_RELATIVE_PATH).toBe('.codewhale/hooks.toml');
    expect(projectHooksFile('/w/app')).toBe('/w/app/.codewhale/hooks.toml');
    expect(projectHooksFile('/w/app//')).toBe('/w/app/.codewhale/hooks.toml');
  });
});
