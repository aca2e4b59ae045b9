#!/bin/sh
# tool_call_before context: add a note to the result the model sees for `read package.json`.
case "$DEEPSEEK_TOOL_ARGS" in
  *package.json*)
    echo '{"additionalContext":"Release policy: bump versions with a changeset, never by editing package.json by hand."}'
    ;;
esac
