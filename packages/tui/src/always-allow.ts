// The rule "always allow" writes is the engine's (one place for every surface).
export { alwaysRuleFor, type AlwaysRule } from '@codewhale/engine';
