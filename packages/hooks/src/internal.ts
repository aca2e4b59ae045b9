/**
 * @codewhale/hooks/internal — for Codewhale's own surfaces (the engine): the pieces
 * `openHooks` is built from. No stability promise.
 */
export { configurationNotes, loadConfiguration, type HostedHooksOptions } from './hooks.js';
export { gateOf, validateInput } from './tool-gate.js';
export { toolCallAfterFacts } from './tool-rules.js';
