#!/usr/bin/env node
// Build step: ship the hook-writing guide and its recipes in the package (docs/), so the path
// `codewhale --help` prints exists in an installed copy too.
import { cpSync, mkdirSync, rmSync } from 'node:fs';

const from = new URL('../../../docs/', import.meta.url);
const to = new URL('../docs/', import.meta.url);
rmSync(to, { recursive: true, force: true });
mkdirSync(to, { recursive: true });
cpSync(new URL('hooks-guide.md', from), new URL('hooks-guide.md', to));
cpSync(new URL('recipes/', from), new URL('recipes/', to), { recursive: true });
