import type { ErrorCategory } from './provider/types.js';
import { ProviderError } from './provider/types.js';

/** An engine failure with a category from the shared taxonomy. */
export class EngineError extends Error {
  readonly category: ErrorCategory;
  constructor(category: ErrorCategory, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineError';
    this.category = category;
  }
  static isInstance(e: unknown): e is EngineError {
    return e instanceof EngineError;
  }
}

/** The category of any thrown value. */
export function errorCategory(e: unknown): ErrorCategory {
  if (ProviderError.isInstance(e) || EngineError.isInstance(e)) return e.category;
  if (e instanceof Error && e.name === 'AbortError') return 'cancelled';
  return 'internal';
}

/** A one-line, bounded message for any thrown value. */
export function errorMessage(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 2_000 ? `${line.slice(0, 2_000)}…` : line || 'unknown error';
}
