#!/bin/sh
# Recipe: credential injection (shell_env).
#   [[hooks.hooks]]
#   name = "gh-token"
#   event = "shell_env"
#   command = "~/.codewhale/hooks/inject-short-lived-token.sh"
#   condition = { type = "tool_category", category = "shell" }
#
# stdout is KEY=VALUE lines, added to the environment of this one shell command only. Ambient
# secrets in your terminal never reach the agent's commands; this is the supported way in.
# Codewhale's audit log records the key names, never the values.
#
# Only commands that need the token get it. Replace `mint_token` with your real source, e.g.
# `gh auth token`, `aws-vault export --format=env`, or `vault read -field=token …`.
case "$DEEPSEEK_TOOL_ARGS" in
  *"git push"* | *"gh "*) ;;
  *) exit 0 ;;
esac
mint_token() {
  if [ -n "$TOKEN_SOURCE_FILE" ] && [ -r "$TOKEN_SOURCE_FILE" ]; then
    cat "$TOKEN_SOURCE_FILE"
  else
    gh auth token 2>/dev/null
  fi
}
token=$(mint_token) || exit 1
[ -n "$token" ] || exit 1
echo "GH_TOKEN=$token"
echo "export GIT_TERMINAL_PROMPT=0"
