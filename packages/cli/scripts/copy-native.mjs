#!/usr/bin/env node
// Build step: ship the supervisor's prebuilt codewhale-spawn files (posix_spawn through
// Node-API; see that package's README) next to the bundle, in dist/native/, where the bundled
// supervisor looks for them. Nothing to copy is not an error: processes are then started with
// child_process.
import { cpSync, existsSync } from 'node:fs';

const from = new URL('../../hooks-supervisor/dist/native/', import.meta.url);
if (existsSync(from)) cpSync(from, new URL('../dist/native/', import.meta.url), { recursive: true });
