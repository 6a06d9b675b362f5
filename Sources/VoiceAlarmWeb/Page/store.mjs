// What the bedside machine said last, in one place (GET /api/state): its alarms, recordings,
// playlists, manifesto, status and paired devices, and whether it can be reached. The views draw
// from here and nothing else; each listener is told which parts changed. No DOM here: `node
// --test` runs it (Tests/Page/store.test.mjs).
import { clockOffset } from "./page-logic.mjs";

export const PARTS = ["alarms", "clips", "playlists", "manifesto", "status", "devices"];

// `phoneNow` is the phone's clock (Date.now); `now()` is the machine's, as its last answer set it.
export function createStore(phoneNow) {
  const clock = phoneNow || (() => Date.now());
  const listeners = new Set();
  let state = null;
  let offset = 0;
  let reach = "unknown";

  function notify(changed) {
    if (!changed.size) return;
    for (const listener of Array.from(listeners)) listener(changed);
  }

  return {
    get state() { return state; },
    get version() { return state ? state.version : null; },
    // The machine cannot be reached: nothing it said is shown as current.
    get offline() { return reach === "unreachable"; },
    get ready() { return state !== null; },
    now() { return clock() + offset; },
    // A whole state: the parts that differ from the last one are told ("alarms", "status"…).
    set(fresh) {
      offset = clockOffset(fresh.serverTime, clock());
      const changed = new Set(PARTS.filter((part) => !state || JSON.stringify(state[part]) !== JSON.stringify(fresh[part])));
      state = fresh;
      notify(changed);
    },
    // "ok" or "unreachable"; a change is told as "connection" (every view draws again).
    reach(value) {
      if (value === reach) return;
      reach = value;
      notify(new Set(["connection"]));
    },
    // A minute went by on the clock: countdowns are told as "clock".
    tick() { notify(new Set(["clock"])); },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
