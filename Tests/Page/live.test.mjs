// The page's store, its long poll, its messages and its requests, without a browser: a fake
// machine answers (`node --test Tests/Page`, which make lint-page runs).
import test from "node:test";
import assert from "node:assert";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createStore } from "../../Sources/VoiceAlarmWeb/Page/store.mjs";
import { createLive, LOST_AFTER_MS } from "../../Sources/VoiceAlarmWeb/Page/live.mjs";
import { createMessages } from "../../Sources/VoiceAlarmWeb/Page/messages.mjs";
import { createApi } from "../../Sources/VoiceAlarmWeb/Page/api.mjs";
import { MESSAGE_SECONDS } from "../../Sources/VoiceAlarmWeb/Page/page-logic.mjs";

// The page's folder, from this file's (the test runner runs each file as `node FILE`).
const PAGE = new URL("../../Sources/VoiceAlarmWeb/Page/", pathToFileURL(process.argv[1]));

function state(version, edit) {
  const made = {
    version, serverTime: "2025-12-06T00:30:00+01:00", alarms: [], clips: [], playlists: [], manifesto: null, devices: [],
    status: { ringing: [], snoozed: [], defaultTone: [], health: [], testRing: null },
  };
  if (edit) edit(made);
  return made;
}

// A machine the test answers by hand: each request waits until the test answers it.
function machine() {
  const asked = [];
  let notify = null;
  return {
    asked,
    fetchState(after, signal) {
      return new Promise((resolve, reject) => {
        const request = { after, resolve, reject, aborted: false };
        signal.addEventListener("abort", () => { request.aborted = true; reject(Object.assign(new Error("aborted"), { name: "AbortError" })); });
        asked.push(request);
        if (notify) { const waiting = notify; notify = null; waiting(); }
      });
    },
    // The next request not yet answered, once it is asked.
    async next() {
      for (;;) {
        const open = asked.find((request) => !request.done && !request.aborted);
        if (open) { open.done = true; return open; }
        await new Promise((resolve) => { notify = resolve; });
      }
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test("the store tells which parts changed, and corrects the phone's clock by the machine's", () => {
  let phone = Date.parse("2025-12-05T23:25:00Z");
  const store = createStore(() => phone);
  const told = [];
  store.subscribe((changed) => told.push(Array.from(changed).sort()));
  store.set(state("1"));
  assert.deepStrictEqual(told.pop(), ["alarms", "clips", "devices", "manifesto", "playlists", "status"]);
  assert.strictEqual(store.now(), Date.parse("2025-12-06T00:30:00+01:00"), "the phone was 5 minutes slow");
  phone += 60000;
  assert.strictEqual(store.now(), Date.parse("2025-12-06T00:31:00+01:00"));
  store.set(state("2", (s) => { s.alarms.push({ id: "a" }); }));
  assert.deepStrictEqual(told.pop(), ["alarms"]);
  store.set(state("3"));
  assert.deepStrictEqual(told.pop(), ["alarms"]);
  store.reach("unreachable");
  assert.deepStrictEqual(told.pop(), ["connection"]);
  assert.strictEqual(store.offline, true);
});

test("the long poll asks without a version first, then after each version it holds, and stores each new state", async () => {
  const store = createStore();
  const server = machine();
  const live = createLive({ store, fetchState: server.fetchState, visible: () => true, lost: () => {} });
  const first = live.refresh();
  const asked = await server.next();
  assert.strictEqual(asked.after, null);
  asked.resolve({ status: 200, data: state("v1") });
  await first;
  assert.strictEqual(store.version, "v1");
  const held = await server.next();
  assert.strictEqual(held.after, "v1");
  held.resolve({ status: 204, data: null });
  const again = await server.next();
  assert.strictEqual(again.after, "v1", "nothing changed: asked again at once after the same version");
  again.resolve({ status: 200, data: state("v2", (s) => { s.alarms.push({ id: "from-the-terminal" }); }) });
  const third = await server.next();
  assert.strictEqual(third.after, "v2");
  assert.deepStrictEqual(store.state.alarms.map((alarm) => alarm.id), ["from-the-terminal"]);
  live.stop();
  assert.strictEqual(third.aborted, true, "a page going hidden gives up the request it holds");
});

test("an older answer never paints over a newer one: a change the page makes aborts the held request", async () => {
  const store = createStore();
  const server = machine();
  const live = createLive({ store, fetchState: server.fetchState, visible: () => true, lost: () => {} });
  live.refresh();
  (await server.next()).resolve({ status: 200, data: state("v1") });
  const held = await server.next();
  const busy = [];
  const refreshing = createLive({ store, fetchState: server.fetchState, visible: () => true, lost: () => {}, busy: (b) => busy.push(b) });
  assert.ok(refreshing);
  const after = live.refresh();
  assert.strictEqual(held.aborted, true);
  const fresh = await server.next();
  assert.strictEqual(fresh.after, null, "asked without a version: answered at once");
  fresh.resolve({ status: 200, data: state("v3", (s) => { s.playlists.push({ name: "morning", clips: [] }); }) });
  await after;
  // The held request's answer, had it come: an older generation's is dropped.
  held.resolve({ status: 200, data: state("v2") });
  await tick();
  assert.strictEqual(store.version, "v3");
  live.stop();
});

test("a hidden page asks nothing; in front again it asks at once without a version", async () => {
  const store = createStore();
  const server = machine();
  let visible = true;
  const live = createLive({ store, fetchState: server.fetchState, visible: () => visible, lost: () => {} });
  live.refresh();
  (await server.next()).resolve({ status: 200, data: state("v1") });
  const held = await server.next();
  visible = false;
  live.stop();
  assert.strictEqual(held.aborted, true);
  await tick();
  assert.strictEqual(server.asked.filter((request) => !request.aborted && !request.done).length, 0);
  visible = true;
  live.start();
  const back = await server.next();
  assert.strictEqual(back.after, null);
  live.stop();
});

test("a request held past the machine's 25 s is taken as the machine out of reach", async () => {
  const store = createStore();
  const server = machine();
  const timers = [];
  let lost = 0;
  const live = createLive({
    store, fetchState: server.fetchState, visible: () => true, lost: () => { lost++; },
    timers: { setTimeout: (f, ms) => { timers.push({ f, ms }); return timers.length; }, clearTimeout: () => {} },
  });
  const waiting = live.refresh();
  await server.next();
  assert.strictEqual(timers[0].ms, LOST_AFTER_MS);
  assert.ok(LOST_AFTER_MS > 25000);
  timers[0].f();
  await assert.rejects(waiting, (error) => error.name === "TypeError");
  assert.strictEqual(lost, 1);
});

test("a message goes when what it speaks of changes, or after the stated time", () => {
  let now = 0;
  const store = createStore();
  store.set(state("1", (s) => {
    s.alarms.push({ id: "a", time: "06:45", voice: true, next: "x" });
    s.status.health.push({ code: "noDaemon" });
  }));
  const messages = createMessages({ state: () => store.state, now: () => now });
  messages.tell("alarm-form", "Added the alarm at 06:45. Nothing will ring: the alarm service is not running.", { about: ["next:a", "health"] });
  messages.tell("alarm:a", "Voice off…", { about: ["voice:a"] });
  messages.tell("record", "Recording…", { lasting: true });
  assert.deepStrictEqual(messages.prune(), []);
  // The daemon starts: "Nothing will ring" would contradict the machine.
  store.set(state("2", (s) => { s.alarms.push({ id: "a", time: "06:45", voice: true, next: "x" }); }));
  assert.deepStrictEqual(messages.prune(), ["alarm-form"]);
  now = MESSAGE_SECONDS * 1000 - 1;
  assert.deepStrictEqual(messages.prune(), []);
  now = MESSAGE_SECONDS * 1000;
  assert.deepStrictEqual(messages.prune(), ["alarm:a"], "after the stated time");
  assert.strictEqual(messages.get("record").text, "Recording…", "work under way is said until the next message");
});

// A browser's fetch, answering from a table of (method path) → its answers in turn, each
// [status, body] or "network" (the machine cannot be reached).
function fakeFetch(table, log) {
  return async (path, init) => {
    const method = (init && init.method) || "GET";
    log.push(method + " " + path + (init && init.headers && init.headers["X-VoiceAlarm-Session"] ? " [" + init.headers["X-VoiceAlarm-Session"] + "]" : ""));
    const answer = table[method + " " + path].shift();
    if (answer === "network") throw new TypeError("Failed to fetch");
    const [status, body] = answer;
    return { status, ok: status >= 200 && status < 300, headers: { get: () => "application/json" }, text: async () => body === null ? "" : JSON.stringify(body) };
  };
}

test("a session that ended is signed for again, once; the state is asked with its version", async () => {
  const log = [];
  let sessions = 0;
  const table = {
    "POST /api/session": [[200, { challenge: "c1" }], [201, { session: "s1" }], [200, { challenge: "c2" }], [201, { session: "s2" }]],
    "GET /api/state?after=v%201": [[401, { error: { message: "session ended", input: "session", code: 1 } }], [204, null]],
  };
  const api = createApi({ fetch: fakeFetch(table, log), deviceKey: { device: async () => "d", sign: async () => { sessions++; return "sig"; } }, origin: "https://x", unpaired: () => {} });
  const answer = await api.state("v 1");
  assert.deepStrictEqual(answer, { status: 204, data: null });
  assert.strictEqual(sessions, 2);
  assert.deepStrictEqual(log.filter((line) => line.startsWith("GET")), ["GET /api/state?after=v%201 [s1]", "GET /api/state?after=v%201 [s2]"]);
});

test("out of reach, the page tries again by itself, waiting longer each time, until the machine answers", async () => {
  const log = [];
  const timers = [];
  const table = { "POST /api/session": [[200, { challenge: "c" }], [201, { session: "s" }]], "GET /api/state": ["network", "network", [200, state("v")]] };
  const api = createApi({
    fetch: fakeFetch(table, log), deviceKey: { device: async () => "d", sign: async () => "sig" }, origin: "o", unpaired: () => {}, now: () => 0,
    timers: { setTimeout: (f, ms) => { timers.push({ f, ms }); return timers.length; }, clearTimeout: () => {} },
  });
  const reaches = [];
  api.subscribe((reach) => reaches.push(reach));
  let retried = 0;
  api.onRetry(() => { retried++; });
  await assert.rejects(api.state(null), (error) => error.name === "TypeError");
  assert.strictEqual(api.offline, true);
  assert.strictEqual(timers[0].ms, 2000);
  timers[0].f();
  assert.strictEqual(retried, 1);
  await assert.rejects(api.state(null));
  assert.strictEqual(timers[1].ms, 4000, "longer each time");
  const back = await api.state(null);
  assert.strictEqual(back.data.version, "v");
  assert.strictEqual(api.offline, false);
  assert.deepStrictEqual(reaches.map((reach) => reach.offline), [true, true, true, false]);
});

test("the service worker keeps every module the page imports, and the page loads one module", () => {
  const kept = readFileSync(new URL("sw.js", PAGE), "utf8");
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name)) return;
    seen.add(name);
    const text = readFileSync(new URL(name, PAGE), "utf8");
    for (const found of text.matchAll(/^import [^;]*? from "\.\/([\w-]+\.mjs)";$/gm)) visit(found[1]);
  };
  visit("app.mjs");
  visit("pair.mjs");
  assert.ok(seen.size > 10, Array.from(seen).join(" "));
  for (const name of seen) assert.ok(kept.includes('"/' + name + '"'), name + " is not kept by sw.js");
  const html = readFileSync(new URL("app.html", PAGE), "utf8");
  assert.deepStrictEqual(html.match(/<script[^>]*>/g), ['<script type="module" src="/app.mjs">']);
});
