// The page's one store, its requests, its long poll and its messages, made once for every view.
import { createStore } from "./store.mjs";
import { createApi } from "./api.mjs";
import { createLive } from "./live.mjs";
import { createMessages } from "./messages.mjs";
import { DeviceKey } from "./device.mjs";

export const store = createStore();

export const api = createApi({
  // Looked up at each request, not kept: whatever wraps the browser's fetch is used.
  fetch: (input, init) => window.fetch(input, init),
  deviceKey: DeviceKey,
  origin: location.origin,
  unpaired: () => location.replace("/pair"),
});

export const live = createLive({
  store,
  fetchState: (after, signal) => api.state(after, signal),
  visible: () => document.visibilityState === "visible",
  lost: () => api.unreachable(),
  // Each list is busy (aria-busy) from a change the page made until the state after it is drawn.
  busy: (waiting) => {
    for (const id of ["alarms", "clips", "playlists", "devices", "health", "manifesto"]) {
      if (waiting) document.getElementById(id).setAttribute("aria-busy", "true"); else document.getElementById(id).removeAttribute("aria-busy");
    }
  },
});

export const messages = createMessages({ state: () => store.state, now: () => Date.now() });

api.onRetry(() => live.start());
api.subscribe((reach) => store.reach(reach.offline ? "unreachable" : "ok"));
