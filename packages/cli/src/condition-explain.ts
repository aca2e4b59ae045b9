import { matchCondition, summarizeCondition, toolCategory, type HookCondition } from '@codewhale/hooks-conditions';
import { normalizeExitCode, sanitizeLine, type HookContext } from '@codewhale/hooks-payloads';

const v = (s: string): string => sanitizeLine(s, 64).text;

/**
 * Why `condition` does not hold for `ctx`, in one line (`tool_name=\`write\` does not match tool
 * \`bash\``). Only meaningful when {@link matchCondition} is false: it names the first failing
 * predicate of an `all`, and every predicate of an `any`.
 */
export function explainMismatch(condition: HookCondition, ctx: HookContext): string {
  const what = summarizeCondition(condition);
  const tool = ctx.tool ?? null;
  switch (condition.type) {
    case 'always':
      return 'always matches';
    case 'tool_name':
      return tool ? `${what} does not match tool \`${v(tool.name)}\`` : `${what} needs a tool, and this firing has none`;
    case 'tool_category':
      return tool ? `${what}, but tool \`${v(tool.name)}\` is \`${toolCategory(tool.name, tool.input)}\`` : `${what} needs a tool, and this firing has none`;
    case 'mode':
      return ctx.mode == null ? `${what}, but this event carries no mode` : `${what}, but the mode is \`${v(ctx.mode)}\``;
    case 'exit_code': {
      const code = tool ? normalizeExitCode(tool.exitCode) : null;
      return code === null ? `${what}, but the tool reported no exit code` : `${what}, but the tool reported ${code.toString()}`;
    }
    case 'all': {
      const failing = condition.conditions.find((c) => !matchCondition(c, ctx));
      return failing ? explainMismatch(failing, ctx) : 'all of its conditions hold';
    }
    case 'any':
      return condition.conditions.length === 0 ? '`any of []` never matches' : `none of its conditions holds: ${condition.conditions.map((c) => explainMismatch(c, ctx)).join('; ')}`;
  }
}
