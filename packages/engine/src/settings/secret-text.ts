/**
 * A secret read from a config file (an API key). The value is readable through
 * {@link SecretText.reveal} only: it is not an own enumerable property, and `JSON.stringify`,
 * spreading, `String()`, template literals and `console.log` / `util.inspect` all show
 * `[redacted]`, so a settings object can be logged or serialized without leaking it.
 */
export class SecretText {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The secret itself, for the one place that sends it. */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return '[redacted]';
  }

  toJSON(): string {
    return '[redacted]';
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return 'SecretText([redacted])';
  }
}
