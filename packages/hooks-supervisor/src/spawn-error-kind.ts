import type { SpawnErrorKind } from '@codewhale/hooks-payloads';

/**
 * The error kind a spawn failure is reported by. Never the path, the command line or the
 * resolved interpreter: only the kind, as the contract requires.
 */
export function spawnErrorKind(code: unknown): SpawnErrorKind {
  switch (code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return 'NotFound';
    case 'EACCES':
    case 'EPERM':
      return 'PermissionDenied';
    case 'EINVAL':
    case 'ERR_INVALID_ARG_VALUE':
    case 'ERR_INVALID_ARG_TYPE':
    case 'E2BIG':
    case 'ENAMETOOLONG':
      return 'InvalidInput';
    case 'EAGAIN':
    case 'EBUSY':
    case 'EMFILE':
    case 'ENFILE':
      return 'ResourceBusy';
    case 'ENOMEM':
      return 'OutOfMemory';
    case 'EINTR':
      return 'Interrupted';
    default:
      return 'Other';
  }
}

/** The contract's spawn-failure error string, e.g. `hook process could not be started (NotFound)`. */
export function spawnFailureMessage(kind: SpawnErrorKind): string {
  return `hook process could not be started (${kind})`;
}
