import { useStdin } from 'ink';
import { useEffect, useRef } from 'react';
import { decodeInput, flushDecoder, INITIAL_DECODER, type Key } from '../input-decoder.js';

/**
 * Raw keys from Ink's stdin stream, decoded by our own decoder (Ink 6.8 has no paste support):
 * a bracketed paste arrives as ONE `paste` key however many chunks it spans.
 */
export function useKeys(onKey: (key: Key) => void): void {
  const {
    internal_eventEmitter: emitter,
    setRawMode,
    isRawModeSupported,
  } = useStdin() as ReturnType<typeof useStdin> & {
    internal_eventEmitter: NodeJS.EventEmitter;
  };
  const handler = useRef(onKey);
  handler.current = onKey;
  useEffect(() => {
    if (!isRawModeSupported) return;
    setRawMode(true);
    let state = INITIAL_DECODER;
    let flush: NodeJS.Immediate | null = null;
    const listener = (chunk: string | Buffer) => {
      if (flush) clearImmediate(flush);
      flush = null;
      const r = decodeInput(state, typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      state = r.state;
      for (const k of r.keys) handler.current(k);
      if (state.pending) {
        flush = setImmediate(() => {
          flush = null;
          const f = flushDecoder(state);
          state = f.state;
          for (const k of f.keys) handler.current(k);
        });
      }
    };
    emitter.on('input', listener);
    return () => {
      if (flush) clearImmediate(flush);
      emitter.off('input', listener);
      setRawMode(false);
    };
  }, [emitter, setRawMode, isRawModeSupported]);
}
