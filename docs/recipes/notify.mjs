#!/usr/bin/env node
// Recipe: notifications (waiting_for_user, session_idle, session_error).
//   [[hooks.hooks]]
//   name = "notify-waiting"
//   event = "waiting_for_user"
//   command = "node ~/.codewhale/hooks/notify.mjs"
//   # the same command for event = "session_error" and event = "session_idle"
//
// Posts a short JSON message to $CODEWHALE_NOTIFY_URL (a Slack/ntfy/webhook endpoint). The
// state events carry a small JSON document on stdin: {"from","to","reason"} and friends.
// Observers cannot change what Codewhale does; a failure here is only logged.
let stdin = '';
for await (const chunk of process.stdin) stdin += chunk;
let doc = {};
try {
  doc = JSON.parse(stdin || '{}');
} catch {
  doc = {};
}
const workspace = process.env.DEEPSEEK_WORKSPACE ?? '';
const project = workspace.split('/').filter(Boolean).pop() ?? 'codewhale';
const text =
  doc.to === 'waiting'
    ? `${project}: the agent is waiting for you (${doc.reason ?? 'input'})`
    : doc.to === 'idle'
      ? `${project}: the agent finished (${doc.last_turn_status ?? 'done'})`
      : doc.error
        ? `${project}: the turn failed: ${String(doc.error).slice(0, 200)}`
        : `${project}: ${stdin.slice(0, 200)}`;
const url = process.env.CODEWHALE_NOTIFY_URL;
if (!url) {
  console.error('CODEWHALE_NOTIFY_URL is not set');
  process.exit(1);
}
const res = await fetch(url, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ text, session: process.env.DEEPSEEK_SESSION_ID }),
  signal: AbortSignal.timeout(5000),
});
process.exit(res.ok ? 0 : 1);
