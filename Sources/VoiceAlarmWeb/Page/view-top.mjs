// What stays at the top whatever the view: the ringing banner (each ring a fresh banner), what
// Stop or Snooze did, the problems anyone can act on from the phone, and the line saying the
// machine cannot be reached.
import { $, el, redraw, announce } from "./dom.mjs";
import * as L from "./page-logic.mjs";
import { store, api, live, messages } from "./page.mjs";
import { actionButton, resultLine, run, tell } from "./ui.mjs";

function rings() { return store.state && !store.offline ? store.state.status.ringing : []; }

// The ring a result speaks of: Stop's or Snooze's words belong to the rings they ended, and a new
// ring (another alarm, or the same alarm ringing again: its `since` differs) is shown without them.
let shownRings = "";
function drawRinging() {
  const now = rings();
  const banner = $("ringing");
  const key = L.ringsKey(now);
  for (const card of ["ringing", "notice"]) {
    const message = messages.get(card);
    if (message && now.length && message.extra.rings !== undefined && message.extra.rings !== key) messages.drop(card);
  }
  banner.hidden = now.length === 0;
  document.body.classList.toggle("is-ringing", now.length > 0);
  document.body.dataset.ringing = now.length ? "yes" : "no";
  if (key !== shownRings) banner.dataset.ring = key;
  shownRings = key;
  if (!now.length) return;
  $("ringing-what").replaceChildren(L.ringingTitle(now), el("strong", {}, L.ringingWhat(now)));
  const snooze = now.find((ring) => ring.snooze !== null && ring.snooze !== undefined && !ring.test);
  $("snooze").hidden = !snooze;
  if (snooze) $("snooze").textContent = "Snooze " + snooze.snooze + " min";
  document.body.style.setProperty("--ringing-height", banner.offsetHeight + "px");
}

// Stop's or Snooze's result: on the banner, and in the header once the banner has gone; both
// belong to the rings they ended. Drawn again at once: a new ring that showed while the request
// was answered (the same alarm ringing again) is shown without them.
function said(text, ended) {
  tell("ringing", text, { extra: { rings: ended } });
  messages.tell("notice", text, { extra: { rings: ended } });
  drawRinging();
}

async function stopRinging() {
  const ended = L.ringsKey(rings());
  const stopped = await api.call("POST", "/api/stop");
  await live.refresh().catch(() => {});
  said(stopped.stopped.length ? "Stopped." : "Nothing was ringing any more.", ended);
}

async function snoozeRinging() {
  const ended = L.ringsKey(rings());
  const snoozed = await api.call("POST", "/api/snooze");
  await live.refresh().catch(() => {});
  said(snoozed.map((item) => "Snoozed: it rings again " + L.whenText(item.ringAt, store.now()) + ".").join(" "), ended);
}

// Every problem anyone can act on from the phone, in its words; what stops alarms ringing first
// and loudest. What only the machine's owner can fix is on the Machine view.
function drawHealth() {
  if (!store.state || store.offline) { redraw($("health"), []); return; }
  const nodes = L.phoneHealth(store.state.status.health).map((item) => {
    const card = "health:" + item.code;
    const box = el("div", { className: "problem" + (item.stopsRinging ? "" : " minor"), "data-code": item.code, "data-card": card },
      item.stopsRinging ? el("strong", {}, L.sentence(item.sentence)) : el("span", {}, L.sentence(item.sentence)));
    if (item.action === "startService") {
      box.append(actionButton("Start the alarm service", card + ":start", card, async () => {
        await api.call("POST", "/api/service/start");
        await live.refresh();
        return { text: "The alarm service started: alarms ring again.", about: ["health"] };
      }, { className: "primary wide" }));
    }
    box.append(resultLine(card));
    return box;
  });
  redraw($("health"), nodes);
}

// Out of reach: said just above the bar of views, with a countdown to the next try.
let countdown = null;
function drawConnection(reach) {
  clearTimeout(countdown);
  $("connection").hidden = !reach.offline;
  document.body.dataset.connection = reach.offline ? "unreachable" : "ok";
  if (!reach.offline) return;
  const text = $("connection-text");
  if (reach.trying) { text.textContent = "Trying to reach the bedside machine…"; return; }
  const tick = () => {
    const left = Math.max(0, Math.ceil((reach.retryAt - Date.now()) / 1000));
    text.textContent = "The bedside machine cannot be reached from this phone (is it on, and this phone on its network?). Trying again in " + left + " s.";
    if (left > 0) countdown = setTimeout(tick, 1000);
  };
  tick();
}

export function startTop() {
  $("stop").addEventListener("click", () => run($("stop"), "stop", "ringing", stopRinging));
  $("snooze").addEventListener("click", () => run($("snooze"), "snooze", "ringing", snoozeRinging));
  $("retry").addEventListener("click", () => api.tryNow());
  let offline = false;
  api.subscribe((reach) => {
    drawConnection(reach);
    if (reach.offline !== offline) announce(reach.offline ? "The bedside machine cannot be reached." : "The bedside machine answers again.");
    offline = reach.offline;
  });
  store.subscribe((changed) => {
    if (changed.has("connection") || changed.has("status")) { drawRinging(); drawHealth(); }
  });
}
