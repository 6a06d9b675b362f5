// The page kept live: a long poll of GET /api/state. The first request (and the first after the
// page comes back in front, or after a change the page made) asks without `after` and is answered
// at once; each later one names the version it holds, and the machine answers when something
// changes (200, the new state) or after 25 s with 204 (nothing changed). The next request leaves
// as soon as an answer is in, and only while the page is visible: a hidden page asks nothing.
// One request at a time: a new start aborts the one held, and an answer from an older start is
// never stored over a newer one. No DOM here: `node --test` runs it with a fake fetch.
import { retryDelay } from "./page-logic.mjs";

// The machine holds a request at most 25 s; past this the connection is taken for lost.
export const LOST_AFTER_MS = 40000;

// `fetchState(after, signal)` answers {status, data} (and throws on a network failure, with
// `name` "TypeError", or on a refusal); `visible()` whether the page is in front; `lost()` is
// called when a request outlives LOST_AFTER_MS (the machine is out of reach); `busy(waiting)`
// when the page starts and stops waiting for a state it asked for after its own change.
export function createLive({ store, fetchState, visible, lost, busy, timers }) {
  const time = timers || { setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (t) => clearTimeout(t) };
  let generation = 0;
  let controller = null;
  let waiters = [];
  let failures = 0;

  function settle(error) {
    const waiting = waiters;
    if (!waiting.length) return;
    waiters = [];
    if (busy) busy(false);
    for (const waiter of waiting) if (error) waiter.reject(error); else waiter.resolve();
  }

  function pause(ms) { return new Promise((resolve) => time.setTimeout(resolve, ms)); }

  async function loop(mine) {
    let after = null;
    while (mine === generation) {
      if (!visible()) { settle(new Error("The page is not in front: it asks again when it is.")); return; }
      const control = new AbortController();
      controller = control;
      let timedOut = false;
      const timer = time.setTimeout(() => { timedOut = true; control.abort(); }, LOST_AFTER_MS);
      let answer;
      try {
        answer = await fetchState(after, control.signal);
      } catch (error) {
        time.clearTimeout(timer);
        if (mine !== generation) return;
        if (timedOut) {
          const gone = new TypeError("The bedside machine stopped answering.");
          settle(gone);
          lost();
          return;
        }
        settle(error);
        // Out of reach: the retry of the connection starts again. Any other failure: try again soon.
        if (error && error.name === "TypeError") return;
        await pause(retryDelay(failures++) * 1000);
        continue;
      }
      time.clearTimeout(timer);
      if (mine !== generation) return;
      failures = 0;
      if (answer.status === 200 && answer.data) {
        store.set(answer.data);
        after = answer.data.version;
        settle(null);
      }
    }
  }

  // Starts asking afresh (without `after`); what a page coming back in front and a retry do.
  function start() {
    generation++;
    if (controller) controller.abort();
    controller = null;
    loop(generation);
  }

  return {
    start,
    // Stops asking (the page went hidden); the request held is given up.
    stop() {
      generation++;
      if (controller) controller.abort();
      controller = null;
      settle(new Error("The page is hidden."));
    },
    // The machine's state after a change the page made: asked at once, resolved once stored.
    refresh() {
      if (!waiters.length && busy) busy(true);
      const stored = new Promise((resolve, reject) => waiters.push({ resolve, reject }));
      start();
      return stored;
    },
  };
}
