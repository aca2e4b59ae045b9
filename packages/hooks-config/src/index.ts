/**
 * @codewhale/hooks-config — configuration → validated hook set, the trust and approval model,
 * and the `hooks list` model. Pure: bytes and parsed config in, verdicts out.
 */
export type {
  HookDefinition,
  HookSet,
  ConfigProblem,
  ProblemCode,
  ProblemSeverity,
  TimeoutSource,
  Origin,
  Sha256,
} from './types.js';
export { hooksForEvent, hasHooksForEvent, matchingHooks, hookIdentity } from './select.js';
