#!/bin/sh
# Recipe: a security gate (tool_call_before).
#   [[hooks.hooks]]
#   name = "deny-dangerous"
#   event = "tool_call_before"
#   command = "~/.codewhale/hooks/deny-dangerous-commands.sh"
#   condition = { type = "tool_category", category = "shell" }
#   continue_on_error = false      # if this gate cannot answer, the call is denied
#
# The tool input is JSON in $DEEPSEEK_TOOL_ARGS. Exit 2 denies whatever stdout says; the JSON
# "reason" is what the model is told (Codewhale bounds and redacts it). No output = no decision.
args=$DEEPSEEK_TOOL_ARGS
deny() {
  printf '{"decision":"deny","reason":"%s"}\n' "$1"
  exit 2
}
case "$args" in
  *"rm -rf /"* | *"rm -rf ~"* | *"rm -rf *"* | *"rm -fr "*) deny "recursive deletes are not allowed here; remove files one by one" ;;
  *"git push --force"* | *"git push -f "*) deny "force pushes are not allowed; open a pull request" ;;
  *"curl "*"| sh"* | *"curl "*"| bash"* | *"wget "*"| sh"*) deny "piping downloads into a shell is not allowed" ;;
  *sudo\ *) deny "sudo is not available to the agent" ;;
esac
# Ask a human before anything touches production.
case "$args" in
  *production*) echo '{"decision":"ask","reason":"touches production"}' ;;
esac
exit 0
