import { renderHookEvents } from '@codewhale/hooks-config';
import { HOOK_EVENT_CATALOGUE, STEERING_EVENTS } from '@codewhale/hooks-payloads';
import { EXIT } from '../exit-codes.js';
import type { Io } from '../io.js';
import { printJson } from '../render.js';

/**
 * `codewhale hooks events`: the 15 events in documented order, from the event catalogue.
 * JSON: per event its name, steering class, who fires it, description, the environment
 * variables it can set and the stdin document kind (`none` = EOF at once).
 */
export async function runHooksEvents(opts: { json?: boolean }, io: Io): Promise<number> {
  if (!opts.json) {
    io.stdout(`${renderHookEvents()}\n`);
    return EXIT.ok;
  }
  printJson(io, {
    events: HOOK_EVENT_CATALOGUE.map((e) => ({
      name: e.name,
      steering: e.steering,
      fired_by: e.firedBy,
      description: e.description,
      env: [...e.env],
      stdin: e.stdin,
    })),
    steering_events: [...STEERING_EVENTS],
  });
  return EXIT.ok;
}
