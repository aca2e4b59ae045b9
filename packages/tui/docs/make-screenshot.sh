#!/bin/sh
# Makes docs/tui-session.png from a real session: tmux (100x28) runs the built `codewhale`
# against a replay script, with a tool_call_before hook that asks before `rm`; the screen is
# read with `tmux capture-pane -p` and drawn to PNG by ImageMagick in DejaVu Sans Mono (text
# only: the colours are not kept). Needs tmux, ImageMagick and a built cli
# (pnpm turbo run build --filter=@codewhale/cli...). Run from packages/tui.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin="$here/../../cli/dist/bin.cjs"
dir=$(mktemp -d)
trap 'tmux -S "$dir/sock" kill-server 2>/dev/null || true; rm -rf "$dir"' EXIT
mkdir -p "$dir/home" "$dir/ws"
cat > "$dir/guard.sh" <<'HOOK'
#!/bin/sh
case "$DEEPSEEK_TOOL_ARGS" in *rm\ -rf*) echo '{"decision":"ask","reason":"removes the build output"}';; esac
HOOK
chmod +x "$dir/guard.sh"
cat > "$dir/home/config.toml" <<TOML
[projects."$dir/ws"]
trust_level = "trusted"

[[hooks.hooks]]
name = "guard"
event = "tool_call_before"
command = "$dir/guard.sh"
TOML
cat > "$dir/script.jsonl" <<'JSONL'
{"text":"The build directory holds stale outputs. I will count what is there first, then remove it so the next build starts clean.\n","tool_calls":[{"id":"c1","name":"bash","arguments":{"command":"seq -f 'build/out-%03g.o' 1 60"}}]}
{"text":"Sixty stale object files. Removing the directory now.\n","tool_calls":[{"id":"c2","name":"bash","arguments":{"command":"rm -rf build && mkdir build"}}]}
{"text":"Done."}
JSONL
tmux -S "$dir/sock" -f /dev/null new-session -d -s shot -x 100 -y 28 \
  "cd '$dir/ws' && env -i PATH='$PATH' HOME='$dir' TERM=xterm-256color LANG=C.UTF-8 CODEWHALE_HOME='$dir/home' node '$bin' --replay '$dir/script.jsonl'; sleep 60"
wait_for() { i=0; until tmux -S "$dir/sock" capture-pane -p -t shot | grep -q "$1"; do i=$((i + 1)); [ $i -gt 200 ] && { echo "timed out waiting for $1" >&2; exit 1; }; sleep 0.1; done; }
wait_for 'idle · Work · Ask'
tmux -S "$dir/sock" send-keys -t shot -l 'clean the build directory'
tmux -S "$dir/sock" send-keys -t shot Enter
wait_for 'Approve this tool call'
tmux -S "$dir/sock" send-keys -t shot -l y
wait_for 'asks for approval'
sleep 0.3
tmux -S "$dir/sock" capture-pane -p -t shot > "$dir/screen.txt"
# (label: reads % as an escape; the text is passed inline, as a file it is refused by the default policy)
convert -background '#1d1f21' -fill '#d8d8d8' -font DejaVu-Sans-Mono -pointsize 15 -border 16 -bordercolor '#1d1f21' "label:$(sed 's/%/%%/g' "$dir/screen.txt")" "$here/tui-session.png"
echo "wrote $here/tui-session.png"
