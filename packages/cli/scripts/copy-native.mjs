#!/usr/bin/env node
// Build step: ship the supervisor's codewhale-spawn (its process host's posix_spawn, built
// where a C compiler is there; see that package's README) next to the bundle, in
// dist/native/, where the bundled supervisor looks for it. Nothing to copy is not an error:
// the host then spawns through Node's handles.
import { cpSync, existsSync } from 'node:fs';

const from = new URL('../../hooks-supervisor/dist/native/', import.meta.url);
if (existsSync(from)) cpSync(from, new URL('../dist/native/', import.meta.url), { recursive: true });
