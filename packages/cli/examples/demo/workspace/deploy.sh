#!/bin/sh
# The demo's deploy script. It shows which credentials it can see.
target=${1:-staging}
mode="LIVE"
for arg in "$@"; do [ "$arg" = "--dry-run" ] && mode="DRY RUN"; done
echo "deploy ($mode) to $target"
if [ -n "$DEPLOY_TOKEN" ]; then
  echo "  DEPLOY_TOKEN: present (${#DEPLOY_TOKEN} chars, injected by the shell_env hook)"
else
  echo "  DEPLOY_TOKEN: missing"
fi
if [ -n "$AWS_SECRET_ACCESS_KEY" ]; then
  echo "  AWS_SECRET_ACCESS_KEY: VISIBLE (this should never happen)"
else
  echo "  AWS_SECRET_ACCESS_KEY: not visible (ambient secrets never reach a command)"
fi
