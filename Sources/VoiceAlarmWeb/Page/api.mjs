// Requests to the bedside machine: a session this page signs for with the device key (kept in
// memory only), the API's documents or its refusals as sentences, and whether the machine can be
// reached — when it cannot, the page says so and tries again by itself, waiting longer each time
// (page-logic's `retryDelay`). The browser's parts (fetch, the key, where to go when unpaired)
// are handed in, so `node --test` runs this with fakes (Tests/Page/api.test.mjs).
import { readAnswer, retryDelay } from "./page-logic.mjs";

// `fetch`, `deviceKey` ({device(), sign(text)}), `origin` (location.origin), `unpaired()` (goes to
// the pairing page), `timers` ({setTimeout, clearTimeout}) and `now()` (the phone's clock).
export function createApi({ fetch, deviceKey, origin, unpaired, timers, now }) {
  const time = timers || { setTimeout: (f, ms) => setTimeout(f, ms), clearTimeout: (t) => clearTimeout(t) };
  const clock = now || (() => Date.now());
  const listeners = new Set();
  let session = null;
  let opening = null;
  // Out of reach: since when, which attempt, when the next try is, whether one is under way.
  const reach = { offline: false, attempt: 0, retryAt: 0, trying: false };
  let retryTimer = null;
  let retry = () => {};

  function tell() { for (const listener of Array.from(listeners)) listener(Object.assign({}, reach)); }

  function notPaired() {
    unpaired();
    return new Error("This phone is not paired with the bedside machine any more.");
  }

  function unreachable() {
    if (!reach.offline) { reach.offline = true; reach.attempt = 0; }
    reach.trying = false;
    if (!retryTimer) {
      reach.retryAt = clock() + retryDelay(reach.attempt++) * 1000;
      retryTimer = time.setTimeout(() => { retryTimer = null; tryNow(); }, reach.retryAt - clock());
    }
    tell();
  }

  function reachable() {
    if (!reach.offline) return;
    reach.offline = false;
    reach.trying = false;
    if (retryTimer) time.clearTimeout(retryTimer);
    retryTimer = null;
    tell();
  }

  function tryNow() {
    if (retryTimer) time.clearTimeout(retryTimer);
    retryTimer = null;
    reach.trying = true;
    tell();
    retry();
  }

  // Cookie or not (WebKit keeps none from loopback HTTP), the session is what the key signed.
  async function openSession() {
    const device = await deviceKey.device();
    const post = (body) => fetch("/api/session", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const asked = await readAnswer(await post(device ? { device } : {}));
    if (!asked.ok) throw asked.status === 401 || asked.status === 403 ? notPaired() : new Error(asked.message);
    const signature = await deviceKey.sign("voicealarm session\n" + origin + "\n" + asked.data.challenge);
    if (!signature) throw notPaired();
    const signed = { challenge: asked.data.challenge, signature };
    const opened = await readAnswer(await post(device ? Object.assign({ device }, signed) : signed));
    if (!opened.ok) throw opened.status === 401 || opened.status === 403 ? notPaired() : new Error(opened.message);
    session = opened.data.session;
  }

  async function ensureSession() {
    if (session) return;
    if (!opening) opening = openSession().finally(() => { opening = null; });
    await opening;
  }

  // A request with this page's session; one whose session ended is signed for again, once. A
  // request that cannot reach the machine marks it out of reach (and is thrown on); an aborted
  // one is only thrown on.
  async function send(method, path, options) {
    for (let attempt = 0; ; attempt++) {
      let response;
      try {
        await ensureSession();
        const headers = Object.assign({}, options.headers, { "X-VoiceAlarm-Session": session });
        response = await fetch(path, Object.assign({}, options, { method, headers }));
      } catch (error) {
        if (error && error.name === "TypeError") unreachable();
        throw error;
      }
      if (response.status >= 502 && response.status <= 504) { unreachable(); return response; }
      if (response.status !== 401) { reachable(); return response; }
      const answer = await readAnswer(response);
      if (attempt > 0 || !answer.data || !answer.data.error || answer.data.error.input !== "session") throw notPaired();
      session = null;
    }
  }

  // The API's document for a request, or an Error carrying the machine's sentence and status.
  async function call(method, path, body, contentType) {
    const options = { headers: {} };
    if (body !== undefined) {
      options.body = contentType ? body : JSON.stringify(body);
      options.headers["Content-Type"] = contentType || "application/json";
    }
    const answer = await readAnswer(await send(method, path, options));
    if (!answer.ok) {
      const error = new Error(answer.message);
      error.status = answer.status;
      error.data = answer.data;
      throw error;
    }
    return answer.data;
  }

  return {
    call,
    send,
    // GET /api/state (after VERSION, held by the machine until something changes): {status, data}.
    async state(after, signal) {
      const path = "/api/state" + (after ? "?after=" + encodeURIComponent(after) : "");
      const answer = await readAnswer(await send("GET", path, { headers: {}, signal }));
      if (!answer.ok) {
        const error = new Error(answer.message);
        error.status = answer.status;
        if (answer.status >= 502 && answer.status <= 504) error.name = "TypeError";
        throw error;
      }
      return { status: answer.status, data: answer.data };
    },
    // Audio and pictures come through the session too: the answer's bytes.
    async blob(path) {
      const response = await send("GET", path, { headers: {} });
      if (!response.ok) throw new Error((await readAnswer(response)).message);
      return response.blob();
    },
    unreachable,
    tryNow,
    // What a retry does (the page asks for its state again).
    onRetry(work) { retry = work; },
    get offline() { return reach.offline; },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
