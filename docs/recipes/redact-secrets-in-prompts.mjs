#!/usr/bin/env node
// Recipe: redact secrets before they reach the model (message_submit).
//   [[hooks.hooks]]
//   name = "redact-prompts"
//   event = "message_submit"
//   command = "node ~/.codewhale/hooks/redact-secrets-in-prompts.mjs"
//
// stdin: {"event":"message_submit","text":…}. Printing {"text": …} replaces the message;
// printing nothing leaves it unchanged; exit 2 with {"reason": …} blocks it.
let stdin = '';
for await (const chunk of process.stdin) stdin += chunk;
const { text } = JSON.parse(stdin);
if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) {
  console.log(JSON.stringify({ reason: 'the message contains a private key; remove it and send again' }));
  process.exit(2);
}
const redacted = text
  .replace(/\bAKIA[0-9A-Z]{16}\b/g, '[redacted AWS key]')
  .replace(/\bgh[pousr]_[A-Za-z0-9]{36,}\b/g, '[redacted GitHub token]')
  .replace(/\bsk-[A-Za-z0-9_-]{20,}\b/g, '[redacted API key]');
if (redacted !== text) console.log(JSON.stringify({ text: redacted }));
