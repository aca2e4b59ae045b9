/**
 * `env[name] = value` as an own, enumerable property, for every name a shell can export,
 * `__proto__` included: a plain assignment of that name would try to set the object's
 * prototype instead (and, with a string, silently do nothing), so the variable would be lost.
 * Every environment Codewhale builds for a child process sets its variables through this.
 */
export function setEnvVar(env: Record<string, string>, name: string, value: string): void {
  if (name === '__proto__') Object.defineProperty(env, name, { value, enumerable: true, writable: true, configurable: true });
  else env[name] = value;
}
