/** `@codewhale/tui/app`: the Ink component tree `runTui` renders (importing it loads Ink). */
export { App, type AppProps } from './components/app.js';
export { LiveStdout } from './live-stdout.js';
