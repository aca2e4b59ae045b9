#!/bin/sh
# tool_call_before gate: refuse destructive shell commands.
# The tool input arrives as JSON in $DEEPSEEK_TOOL_ARGS; exit 2 denies whatever stdout says,
# and a JSON "reason" is shown to the model (bounded and redacted by Codewhale).
case "$DEEPSEEK_TOOL_ARGS" in
  *"rm -rf"* | *"rm -fr"* | *"git push --force"* | *"mkfs"*)
    echo '{"decision":"deny","reason":"destructive commands are blocked by the demo policy; delete files one by one or ask a human"}'
    exit 2
    ;;
esac
# No output means "no decision": the call proceeds to the next hook.
exit 0
