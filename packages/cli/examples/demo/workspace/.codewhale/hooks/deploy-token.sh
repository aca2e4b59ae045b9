#!/bin/sh
# shell_env: KEY=VALUE lines are added to the environment of this one shell command.
# Only deploys get the token. Codewhale's audit log records the key name, never the value.
case "$DEEPSEEK_TOOL_ARGS" in
  *deploy.sh*)
    now=$(date +%s)
    echo "DEPLOY_TOKEN=demo-$(printf '%s' "$now" | cksum | cut -d' ' -f1)"
    echo "DEPLOY_TOKEN_EXPIRES=$((now + 300))"
    ;;
esac
