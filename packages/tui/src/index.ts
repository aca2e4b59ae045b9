/**
 * @codewhale/tui — the interactive terminal UI (`codewhale` with no subcommand): Ink, a
 * transcript and composer, approval and question modals, slash commands, toasts kept apart
 * from the status line, a control socket. It drives one `SessionHost` (profile `tui`); the
 * hook rules live in the engine and supervisor, never here.
 */
export { runTui, terminalProblem, TUI_EXIT, type RunTuiOptions } from './run-tui.js';
export { TuiController, QUIT_WINDOW_MS, type ControllerOptions, type RunCommand } from './tui-controller.js';
export { TuiStore, type Modal, type StoreSnapshot, type AlwaysAllow, type TrustGate } from './tui-store.js';
export { reduceTui, INITIAL_STATE, visibleToast, decisionLines, inputSummary, type TuiState, type TuiAction, type TranscriptItem, type Toast, type ToolCallView, OUTPUTS_KEPT } from './tui-state.js';
export { decodeInput, decodeAll, INITIAL_DECODER, type Key, type DecoderState } from './input-decoder.js';
export { cutText, proseLines, oneLine, DEFAULT_CUT, type CutLimits, type CutText } from './text-bounds.js';
export { layoutLive, liveHeight, liveWidth, type LiveInput, type Row } from './live-layout.js';
export { frameDiff, redraw, reflowedRows, rowText, itemText } from './live-region.js';
export { Screen, type ScreenOptions } from './screen.js';
export { screenInput, modalRows, nextWake, type ScreenFacts } from './screen-model.js';
export { wrapRows, hardWrap, fitRow, displayWidth } from './rows.js';
export { parseSlash, completeSlash, SLASH_COMMANDS, splitArgs, type SlashCommandSpec, type SlashParse } from './slash-commands.js';
export type { ComposerState } from './composer.js';
export { statusLine, hookActivity, agentRows, HOOK_SHOW_AFTER_MS } from './view-models.js';
export { openControlSocket, answerControlLine, controlSocketPath, statusReply, type ControlSocket, type StatusReply } from './control-socket.js';
// The Ink component tree is `@codewhale/tui/app` (it loads Ink; the pure parts above do not).
