"use strict";
/* global DeviceKey, PageLogic */
// The page: everything it shows comes from the JSON API, everything it changes goes through it.
// No framework, nothing from elsewhere; text is set with `textContent`, never as HTML. What it
// decides without the DOM (words for days and times, reading answers) is in page-logic.js.
const L = PageLogic;
const $ = (id) => document.getElementById(id);
const MAX_RECORDING = 600;
const POLL_SECONDS = 3;

// ---------------------------------------------------------------------------------------------
// Requests: a session this page signed for with the device key, kept in memory only.

let session = null;
let opening = null;

function unpaired() {
  location.replace("/pair");
  return new Error("This phone is not paired with the bedside machine any more.");
}

// Cookie or not (WebKit keeps none from loopback HTTP), the session is what the key signed.
async function openSession() {
  const device = await DeviceKey.device();
  const post = (body) => fetch("/api/session", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const asked = await L.readAnswer(await post(device ? { device } : {}));
  if (!asked.ok) throw asked.status === 401 || asked.status === 403 ? unpaired() : new Error(asked.message);
  const signature = await DeviceKey.sign("voicealarm session\n" + location.origin + "\n" + asked.data.challenge);
  if (!signature) throw unpaired();
  const opened = await L.readAnswer(await post(device ? { device, challenge: asked.data.challenge, signature } : { challenge: asked.data.challenge, signature }));
  if (!opened.ok) throw opened.status === 401 || opened.status === 403 ? unpaired() : new Error(opened.message);
  session = opened.data.session;
}

async function ensureSession() {
  if (session) return;
  if (!opening) opening = openSession().finally(() => { opening = null; });
  await opening;
}

// A request with this page's session; one whose session ended is signed for again, once. A
// request that cannot reach the machine marks the page unreachable (and is thrown on).
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
    if (response.status >= 502 && response.status <= 504) unreachable();
    if (response.status !== 401) { reachable(); return response; }
    const answer = await L.readAnswer(response);
    if (attempt > 0 || !answer.data || !answer.data.error || answer.data.error.input !== "session") throw unpaired();
    session = null;
  }
}

// The API's document for a request, or an Error carrying the machine's sentence and status.
async function api(method, path, body, contentType) {
  const options = { headers: {} };
  if (body !== undefined) {
    options.body = contentType ? body : JSON.stringify(body);
    options.headers["Content-Type"] = contentType || "application/json";
  }
  const answer = await L.readAnswer(await send(method, path, options));
  if (!answer.ok) {
    const error = new Error(answer.message);
    error.status = answer.status;
    throw error;
  }
  return answer.data;
}

// Audio and pictures come through the session too: fetched, then shown from memory.
const shown = [];
async function media(path) {
  const response = await send("GET", path, { headers: {} });
  if (!response.ok) throw new Error((await L.readAnswer(response)).message);
  const url = URL.createObjectURL(await response.blob());
  shown.push(url);
  if (shown.length > 16) URL.revokeObjectURL(shown.shift());
  return url;
}

// ---------------------------------------------------------------------------------------------
// Reaching the bedside machine: when it cannot be reached the page says so, shows no list as
// current, and tries again by itself.

let offline = false;
let retryAttempt = 0;
let retryTimer = null;
let retryAt = 0;

function unreachable() {
  if (!offline) {
    offline = true;
    retryAttempt = 0;
    document.body.dataset.connection = "unreachable";
    for (const id of ["alarms", "clips", "playlists", "devices"]) {
      const list = $(id);
      list.replaceChildren(el("li", { className: "stale" }, "Not shown while the bedside machine cannot be reached: what it holds may have changed."));
    }
    $("next-alarm").textContent = "";
    $("machine").replaceChildren(el("p", { className: "stale" }, "Not known while the bedside machine cannot be reached."));
    $("ringing").hidden = true;
    document.body.classList.remove("is-ringing");
    announce("The bedside machine cannot be reached.");
  }
  $("connection").hidden = false;
  scheduleRetry();
}

function reachable() {
  if (!offline) return;
  offline = false;
  document.body.dataset.connection = "ok";
  clearTimeout(retryTimer);
  retryTimer = null;
  $("connection").hidden = true;
  announce("The bedside machine answers again.");
  refreshAll();
}

function scheduleRetry() {
  if (retryTimer) return;
  retryAt = Date.now() + L.retryDelay(retryAttempt++) * 1000;
  const tick = () => {
    const left = Math.max(0, Math.ceil((retryAt - Date.now()) / 1000));
    $("connection-text").textContent = "The bedside machine cannot be reached from this phone (is it on, and this phone on its network?). Trying again in " + left + " s.";
    if (left > 0) { retryTimer = setTimeout(tick, 1000); return; }
    retryTimer = null;
    $("connection-text").textContent = "Trying to reach the bedside machine…";
    refreshStatus().catch(() => {});
  };
  tick();
}

// ---------------------------------------------------------------------------------------------
// Drawing: small helpers, and redraws that keep focus and each card's state.

function el(tag, properties, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(properties || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "className" || name === "hidden" || name === "disabled" || name === "type" || name === "value" || name === "id") node[name] = value;
    else if (name === "onclick") node.addEventListener("click", value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

function announce(text) {
  // Emptied first, so the same words said twice are announced twice.
  const region = $("announce");
  region.textContent = "";
  setTimeout(() => { region.textContent = text; }, 30);
}

// Each card's last result, which buttons wait for the machine, and which card asks to confirm.
const results = new Map();
const inflight = new Set();
const confirming = new Set();
const editing = new Set();

// Replaces a list's children and puts focus back where it was (by `data-key`).
function redraw(container, nodes) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.key : null;
  container.replaceChildren(...nodes);
  if (key) {
    const again = Array.from(container.querySelectorAll("[data-key]")).find((node) => node.dataset.key === key);
    if (again) again.focus({ preventScroll: true });
  }
}

// A card's result line, when it has one.
function resultLine(card) {
  const said = results.get(card);
  return el("p", { className: "result" + (said && said.error ? " error" : ""), "data-result": card }, said ? said.text : "");
}

function tell(card, text, error) {
  results.set(card, { text, error: Boolean(error) });
  for (const node of document.querySelectorAll("[data-result]")) {
    if (node.dataset.result !== card) continue;
    node.textContent = text;
    node.classList.toggle("error", Boolean(error));
    node.scrollIntoView({ block: "nearest" });
  }
  announce(text);
}

// A button that waits for the machine: disabled and busy-looking until its work is done, and
// its result said on its card (`card`). `work` returns the sentence to say, or nothing.
function actionButton(label, key, card, work, options) {
  const settings = options || {};
  const busy = inflight.has(key);
  const node = el("button", {
    type: "button", className: (settings.className || "") + (busy ? " busy" : ""), "aria-disabled": busy ? "true" : null,
    "data-key": key, "aria-label": settings.aria, "aria-describedby": settings.describedBy,
  }, label);
  node.addEventListener("click", () => run(node, key, card, work));
  return node;
}

async function run(node, key, card, work) {
  if (inflight.has(key)) return;
  inflight.add(key);
  // Waiting looks disabled (aria-disabled, greyed and dashed) but keeps the focus where it was:
  // a disabled button would drop it, and a keyboard or screen reader user would be lost.
  const mark = (waiting) => {
    for (const button of document.querySelectorAll("[data-key]")) {
      if (button.dataset.key !== key) continue;
      if (waiting) button.setAttribute("aria-disabled", "true"); else button.removeAttribute("aria-disabled");
      button.classList.toggle("busy", waiting);
    }
  };
  mark(true);
  if (node) { node.setAttribute("aria-disabled", "true"); node.classList.add("busy"); }
  try {
    const said = await work();
    if (said) tell(card, said, false);
  } catch (error) {
    tell(card, L.failureSentence(error), true);
  } finally {
    inflight.delete(key);
    mark(false);
    if (node) { node.removeAttribute("aria-disabled"); node.classList.remove("busy"); }
  }
}

// ---------------------------------------------------------------------------------------------
// Lists are redrawn from the API, and redraws overlap: the refresh an import starts may still be
// under way when the next change starts its own. Each part is drawn from its newest request
// only, and is aria-busy until that answer is drawn: an older answer that arrives late never
// paints over a newer one.

const turns = {};
async function newest(part, read) {
  const turn = (turns[part] || 0) + 1;
  turns[part] = turn;
  $(part).setAttribute("aria-busy", "true");
  try {
    const data = await read();
    return turn === turns[part] ? data : undefined;
  } finally {
    if (turn === turns[part]) $(part).removeAttribute("aria-busy");
  }
}

let alarms = [];
let clips = [];
let playlists = [];
let health = [];
let thisDevice = null;

// ---------------------------------------------------------------------------------------------
// Views: alarms first, then the voice (recordings and playlists), then the machine.

const VIEWS = ["alarms", "voice", "machine"];

function showView(view, moveFocus) {
  const chosen = VIEWS.includes(view) ? view : "alarms";
  for (const name of VIEWS) $("view-" + name).hidden = name !== chosen;
  for (const tab of document.querySelectorAll("nav.tabs button")) {
    if (tab.dataset.view === chosen) tab.setAttribute("aria-current", "page"); else tab.removeAttribute("aria-current");
  }
  document.body.dataset.view = chosen;
  if (moveFocus) {
    const heading = document.querySelector("#view-" + chosen + " h2");
    heading.setAttribute("tabindex", "-1");
    heading.focus();
    window.scrollTo(0, 0);
  }
}

for (const tab of document.querySelectorAll("nav.tabs button")) {
  tab.addEventListener("click", () => {
    history.replaceState(null, "", "#" + tab.dataset.view);
    showView(tab.dataset.view, true);
  });
}
window.addEventListener("hashchange", () => showView(location.hash.slice(1), false));

// ---------------------------------------------------------------------------------------------
// Ringing now, and the machine's health: the status poll.

function drawRinging(status) {
  const rings = status.ringing;
  const banner = $("ringing");
  banner.hidden = rings.length === 0;
  document.body.classList.toggle("is-ringing", rings.length > 0);
  document.body.dataset.ringing = rings.length ? "yes" : "no";
  if (!rings.length) return;
  const what = $("ringing-what");
  what.replaceChildren("Ringing now", el("strong", {}, L.ringingWhat(rings)));
  const snooze = rings.find((ring) => ring.snooze !== null);
  $("snooze").hidden = !snooze;
  if (snooze) $("snooze").textContent = "Snooze " + snooze.snooze + " min";
  document.body.style.setProperty("--ringing-height", banner.offsetHeight + "px");
}

function drawHealth() {
  // Every problem, in the phone's words; what stops alarms ringing first and loudest.
  const nodes = L.healthOrder(health).map((item) => {
    const card = "health:" + item.code;
    const box = el("div", { className: "problem" + (item.stopsRinging ? "" : " minor"), "data-code": item.code, "data-card": card },
      item.stopsRinging ? el("strong", {}, L.sentence(item.sentence)) : el("span", {}, L.sentence(item.sentence)));
    if (item.action === "startService") {
      box.append(actionButton("Start the alarm service", card + ":start", card, async () => {
        const status = await api("POST", "/api/service/start");
        drawStatus(status);
        return "The alarm service started: alarms ring again.";
      }, { className: "primary wide" }));
    }
    box.append(resultLine(card));
    return box;
  });
  redraw($("health"), nodes);
}

function drawMachine(status) {
  const doctor = status.doctor;
  const facts = el("dl", { className: "facts" });
  const fact = (term, text) => facts.append(el("dt", {}, term), el("dd", {}, text));
  fact("Alarms", doctor.alarms + " set, " + doctor.live + " still to ring, " + doctor.withVoice + " with your voice");
  fact("Rings through", doctor.scheduler === "systemd" ? "the machine's own timers" : doctor.scheduler ? "VoiceAlarm's alarm service" : "nothing yet");
  if (doctor.daemonService) fact("Alarm service", doctor.daemonService);
  fact("Sound", doctor.device + (status.deviceChecked ? (doctor.deviceOpens ? " (opens)" : " (does not open)") : " (not tried from the phone: it could hold the speaker when an alarm starts)"));
  fact("Waking from sleep", doctor.wake.canWake ? "Alarms can wake the machine from sleep." : "Alarms cannot wake the machine from sleep" + (doctor.wake.reason ? ": " + doctor.wake.reason : "."));
  fact("Library folder", doctor.dataDir);
  const byID = new Map(alarms.map((alarm) => [alarm.id, alarm]));
  const notes = el("ul", { className: "items" });
  for (const fallback of status.defaultTone) {
    const alarm = byID.get(fallback.id);
    notes.append(el("li", { className: "problem minor" }, L.sentence((alarm ? "The alarm at " + L.alarmName(alarm) : "An alarm") + " plays the standard sound: " + fallback.reason)));
  }
  for (const snoozed of status.snoozed) {
    const alarm = byID.get(snoozed.alarm);
    notes.append(el("li", {}, (alarm ? "The alarm at " + L.alarmName(alarm) : "An alarm") + " is snoozed: it rings again " + L.whenText(snoozed.ringAt, Date.now()) + "."));
  }
  const all = [el("p", {}, health.length === 0 ? "Everything is set to ring." : "What needs doing is said at the top of the page.")];
  redraw($("machine"), all.concat([notes, facts]));
}

let lastStatus = null;
function drawStatus(status) {
  lastStatus = status;
  health = status.health;
  drawRinging(status);
  drawHealth();
  drawMachine(status);
  drawNext();
}

async function refreshStatus() {
  const status = await newest("health", () => api("GET", "/api/status"));
  if (status === undefined) return;
  drawStatus(status);
}

async function stopRinging() {
  const stopped = await api("POST", "/api/stop");
  await refreshStatus().catch(() => {});
  const said = stopped.stopped.length ? "Stopped." : "Nothing was ringing any more.";
  notice(said);
  return said;
}

async function snoozeRinging() {
  const snoozed = await api("POST", "/api/snooze");
  await refreshStatus().catch(() => {});
  const said = snoozed.map((item) => "Snoozed: it rings again " + L.whenText(item.ringAt, Date.now()) + ".").join(" ");
  notice(said);
  return said;
}

// Nothing else waits in front of Stop: it is sent at once, whatever else is under way.
$("stop").addEventListener("click", () => run($("stop"), "stop", "ringing", stopRinging));
$("snooze").addEventListener("click", () => run($("snooze"), "snooze", "ringing", snoozeRinging));
$("ringing-result").dataset.result = "ringing";

// What Stop or Snooze did, shown in the header once the banner has gone.
let noticeTimer = null;
function notice(text) {
  let line = $("notice");
  if (!line) {
    line = el("p", { id: "notice", className: "result", role: "status" });
    $("health").before(line);
  }
  line.textContent = text;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { line.textContent = ""; }, 15000);
}

// ---------------------------------------------------------------------------------------------
// Alarms.

function drawNext() {
  const next = L.soonest(alarms);
  const line = $("next-alarm");
  if (!next) { line.textContent = alarms.length ? "No alarm is set to ring again." : ""; return; }
  const stops = health.some((item) => item.stopsRinging);
  line.textContent = "Next: " + L.nextText(next.next, Date.now()).replace(/^Rings /, "") + (next.label ? " · " + next.label : "") +
    (stops ? ". It will not ring until the problem above is solved." : "");
}

function voiceSwitch(alarm, card) {
  const key = card + ":voice";
  const busy = inflight.has(key);
  const node = el("button", {
    type: "button", className: "switch" + (busy ? " busy" : ""), role: "switch", "aria-checked": String(alarm.voice), "aria-disabled": busy ? "true" : null,
    "data-key": key, "aria-label": "Wake up to my voice, alarm at " + L.alarmName(alarm),
  }, el("span", {}, "Wake up to my voice ", el("span", { className: "state" }, alarm.voice ? "On" : "Off")), el("span", { className: "track", "aria-hidden": "true" }));
  node.addEventListener("click", () => run(node, key, card, async () => {
    const on = node.getAttribute("aria-checked") !== "true";
    node.setAttribute("aria-checked", String(on));
    try {
      const changed = await api("PUT", "/api/alarms/" + alarm.id + "/voice", { on });
      await refreshAlarms();
      return changed.voice ? "Voice on: the alarm at " + changed.time + " wakes you with your voice."
        : "Voice off: the alarm at " + changed.time + " plays the standard sound; its voice recording is deleted.";
    } catch (error) {
      node.setAttribute("aria-checked", String(!on));
      throw error;
    }
  }));
  return node;
}

function alarmCard(alarm) {
  const card = "alarm:" + alarm.id;
  const name = L.alarmName(alarm);
  const sound = alarm.soundReason ? "Plays the standard sound: " + alarm.soundReason
    : alarm.voice ? "Your voice" + (alarm.spokenStandIns && alarm.spokenStandIns.length ? ", with a spoken stand-in" : "") : "Plays the standard sound";
  const item = el("li", { className: "card alarm" + (alarm.next ? "" : " off"), "data-card": card },
    el("div", { className: "alarm-head" }, el("span", { className: "alarm-time" }, alarm.time), alarm.label ? el("span", { className: "alarm-label" }, alarm.label) : null),
    el("p", {}, L.daysText(alarm.days, alarm.date) + " · plays " + (alarm.target === "manifesto" ? "the manifesto" : alarm.target)),
    el("p", { className: "muted" }, L.nextText(alarm.next, Date.now()) + "."),
    el("p", { className: "muted small" }, sound + (alarm.snooze ? " · snooze " + alarm.snooze + " min" : " · no snooze")),
    voiceSwitch(alarm, card));
  const actions = el("div", { className: "row" });
  if (alarm.sound !== "default") {
    actions.append(actionButton("Listen", card + ":listen", card, async () => {
      await play("/api/alarms/" + alarm.id + "/ringtone", card);
    }, { aria: "Listen to the alarm at " + name }));
  }
  actions.append(el("button", {
    type: "button", className: "danger", "data-key": card + ":remove", "aria-label": "Remove the alarm at " + name,
    onclick: () => { confirming.add(card); drawAlarms(); focusKey(card + ":confirm"); },
  }, "Remove"));
  item.append(actions);
  if (confirming.has(card)) {
    item.append(el("p", { className: "confirm" }, "Remove the alarm at " + alarm.time + "?"), el("div", { className: "row" },
      actionButton("Remove", card + ":confirm", card, async () => {
        await api("DELETE", "/api/alarms/" + alarm.id);
        confirming.delete(card);
        results.delete(card);
        await refreshAlarms();
        tell("alarms", "Removed the alarm at " + name + ".", false);
      }, { className: "danger primary", aria: "Yes, remove the alarm at " + name }),
      el("button", { type: "button", "data-key": card + ":keep", onclick: () => { confirming.delete(card); drawAlarms(); focusKey(card + ":remove"); } }, "Keep it")));
  }
  reattachPlayer(item, card);
  item.append(resultLine(card));
  return item;
}

function focusKey(key) {
  const node = Array.from(document.querySelectorAll("[data-key]")).find((candidate) => candidate.dataset.key === key);
  if (node) node.focus();
}

function drawAlarms() {
  const nodes = alarms.map(alarmCard);
  if (!nodes.length) nodes.push(el("li", { className: "empty" }, "No alarms yet: add one below."));
  redraw($("alarms"), nodes);
  drawNext();
  if (lastStatus) drawMachine(lastStatus);
}

async function refreshAlarms() {
  const fresh = await newest("alarms", () => api("GET", "/api/alarms"));
  if (fresh === undefined) return;
  alarms = fresh;
  drawAlarms();
}

// The add-alarm form: the days as seven buttons and the shortcuts a person says.
let chosenDays = [];
function drawDays() {
  const box = $("alarm-days");
  const nodes = L.WEEK.map((day) => el("button", {
    type: "button", "aria-pressed": String(chosenDays.includes(day)), "aria-label": L.LONG[day], "data-key": "day:" + day,
    onclick: () => {
      chosenDays = chosenDays.includes(day) ? chosenDays.filter((d) => d !== day) : chosenDays.concat([day]);
      drawDays();
    },
  }, L.SHORT[day].slice(0, 2)));
  redraw(box, nodes);
  $("days-said").textContent = L.daysSaid(chosenDays);
  for (const shortcut of document.querySelectorAll(".shortcuts button")) {
    shortcut.setAttribute("aria-pressed", String(L.shortcutOf(chosenDays) === shortcut.dataset.days));
  }
}
for (const shortcut of document.querySelectorAll(".shortcuts button")) {
  shortcut.addEventListener("click", () => { chosenDays = L.daysFor(shortcut.dataset.days); drawDays(); });
}

function drawSwitch(node, on) {
  node.setAttribute("aria-checked", String(on));
  node.querySelector(".state").textContent = on ? "On" : "Off";
}
$("alarm-voice").addEventListener("click", () => drawSwitch($("alarm-voice"), $("alarm-voice").getAttribute("aria-checked") !== "true"));

function clearAlarmForm() {
  $("alarm-time").value = "07:00";
  $("alarm-label").value = "";
  $("alarm-snooze").value = "";
  chosenDays = [];
  drawSwitch($("alarm-voice"), true);
  drawDays();
}

$("alarm-form").dataset.card = "alarm-form";
$("alarm-target").addEventListener("change", () => { $("alarm-target").dataset.chosen = $("alarm-target").value; });
$("alarm-form-result").dataset.result = "alarm-form";
$("alarm-form").addEventListener("submit", (event) => {
  event.preventDefault();
  run($("alarm-add"), "alarm-add", "alarm-form", async () => {
    if (!$("alarm-time").value) { $("alarm-time").focus(); throw new Error("Choose the time it rings."); }
    const snooze = $("alarm-snooze").value;
    const added = await api("POST", "/api/alarms", {
      target: $("alarm-target").value, at: $("alarm-time").value, days: L.WEEK.filter((day) => chosenDays.includes(day)).join(","),
      label: $("alarm-label").value.trim() || null, voice: $("alarm-voice").getAttribute("aria-checked") === "true",
      snooze: snooze ? Number(snooze) : null,
    });
    clearAlarmForm();
    await refreshAlarms();
    const alarm = added.alarm;
    const notes = added.notes.map((note) => L.sentence(note.replace(/^warning: /, "")));
    return ["Added the alarm at " + alarm.time + " (" + L.daysText(alarm.days, alarm.date).toLowerCase() + "): it " + L.nextText(alarm.next, Date.now()).toLowerCase() + "."]
      .concat(notes).join(" ");
  });
});

$("add-jump").addEventListener("click", () => { $("alarm-form").scrollIntoView({ block: "start" }); $("alarm-time").focus({ preventScroll: true }); });

// ---------------------------------------------------------------------------------------------
// Listening: one player, shown in the card whose Listen or Play was pressed. It is held, not
// looked up: while a redraw carries it into a card not yet on the page, getElementById finds nothing.
const player = $("player");

async function play(path, card) {
  player.controls = true;
  player.hidden = false;
  player.dataset.card = card;
  const holder = document.querySelector('[data-card="' + card + '"]');
  if (holder) holder.append(player);
  player.onended = null;
  player.src = await media(path);
  await player.play();
}

function playAll(paths, card) {
  let index = 0;
  const next = async () => {
    if (index >= paths.length) { player.onended = null; return; }
    await play(paths[index++], card);
    player.onended = () => next().catch((error) => tell(card, L.failureSentence(error), true));
  };
  return next();
}

// A redrawn card takes the player back, so what plays stays under its button.
function reattachPlayer(item, card) {
  if (player.dataset.card === card) item.append(player);
}

// ---------------------------------------------------------------------------------------------
// Recordings.

function clipCard(clip) {
  const card = "clip:" + clip.id;
  const item = el("li", { className: "card", "data-card": card },
    el("p", { className: "alarm-label" }, clip.title),
    el("p", { className: "muted small" }, L.duration(clip.duration) + (clip.spokenText !== null ? " · spoken stand-in, until you record it" : "")));
  const actions = el("div", { className: "row" },
    actionButton("Play", card + ":play", card, () => play("/api/clips/" + clip.id + "/audio", card), { aria: "Play " + clip.title }),
    el("button", { type: "button", "data-key": card + ":rename", "aria-label": "Rename " + clip.title, onclick: () => { editing.add(card); drawClips(); focusKey(card + ":title"); } }, "Rename"),
    el("button", { type: "button", className: "danger", "data-key": card + ":remove", "aria-label": "Remove " + clip.title, onclick: () => { confirming.add(card); drawClips(); focusKey(card + ":confirm"); } }, "Remove"));
  item.append(actions);
  if (editing.has(card)) {
    const field = el("input", { value: clip.title, maxlength: "200", "data-key": card + ":title", "aria-label": "New title for " + clip.title });
    const form = el("form", { className: "row" }, field,
      actionButton("Save", card + ":save", card, async () => {
        const title = field.value.trim();
        if (!title) throw new Error("A title cannot be empty.");
        await api("PUT", "/api/clips/" + clip.id, { title });
        editing.delete(card);
        await refreshAll();
        return "Renamed to '" + title + "'.";
      }, { className: "primary", aria: "Save the new title of " + clip.title }),
      el("button", { type: "button", onclick: () => { editing.delete(card); drawClips(); focusKey(card + ":rename"); } }, "Cancel"));
    form.addEventListener("submit", (event) => { event.preventDefault(); form.querySelector("button").click(); });
    item.append(form);
  }
  if (confirming.has(card)) {
    const said = results.get(card);
    const force = said && said.force;
    item.append(el("p", { className: "confirm" }, force ? "Remove it anyway? The alarms that play it get new ringtones." : "Remove '" + clip.title + "' from the library and every playlist?"),
      el("div", { className: "row" },
        actionButton(force ? "Remove anyway" : "Remove", card + ":confirm", card, async () => {
          try {
            await api("DELETE", "/api/clips/" + clip.id + (force ? "?force=true" : ""));
          } catch (error) {
            if (error.status !== 409) throw error;
            results.set(card, { text: error.message, error: true, force: true });
            drawClips();
            focusKey(card + ":confirm");
            announce(error.message);
            return undefined;
          }
          confirming.delete(card);
          results.delete(card);
          await refreshAll();
          tell("clips", "Removed '" + clip.title + "'.", false);
          return undefined;
        }, { className: "danger primary", aria: (force ? "Remove anyway: " : "Yes, remove ") + clip.title }),
        el("button", { type: "button", "data-key": card + ":keep", onclick: () => { confirming.delete(card); results.delete(card); drawClips(); focusKey(card + ":remove"); } }, "Keep it")));
  }
  reattachPlayer(item, card);
  item.append(resultLine(card));
  return item;
}

function drawClips() {
  const nodes = clips.map(clipCard);
  if (!nodes.length) nodes.push(el("li", { className: "empty" }, "No recordings yet: record one above."));
  redraw($("clips"), nodes);
}

async function refreshClips() {
  const fresh = await newest("clips", () => api("GET", "/api/clips"));
  if (fresh === undefined) return;
  clips = fresh;
  drawClips();
}

// ---------------------------------------------------------------------------------------------
// Playlists and the manifesto. What the cap leaves out is the machine's word (`capNote`).

function clipSelect(label, key) {
  const select = el("select", { "aria-label": label, "data-key": key });
  for (const clip of clips) select.append(el("option", { value: clip.id }, clip.title + " (" + L.duration(clip.duration) + ")"));
  return select;
}

async function savePlaylist(playlist, ids, said) {
  await api("PUT", "/api/playlists/" + encodeURIComponent(playlist.name), { clips: ids });
  await refreshAll();
  return said;
}

function playlistCard(playlist) {
  const card = "playlist:" + playlist.name;
  const ids = playlist.clips.map((clip) => clip.id);
  const item = el("li", { className: "card", "data-card": card },
    el("p", { className: "alarm-label" }, playlist.name),
    el("p", { className: "muted small" }, playlist.clips.length + (playlist.clips.length === 1 ? " recording, " : " recordings, ") + L.duration(playlist.duration)));
  if (playlist.capNote) item.append(el("p", { className: "result error" }, L.sentence(playlist.capNote)));
  const order = el("ol", { className: "clips" });
  playlist.clips.forEach((clip, index) => {
    const row = el("li", {}, el("span", {}, clip.title + " (" + L.duration(clip.duration) + ")"));
    const actions = el("div", { className: "row" });
    const where = " in " + playlist.name;
    const at = card + ":" + index;
    if (index > 0) {
      actions.append(actionButton("Up", at + ":up", card, () => savePlaylist(playlist, L.moved(ids, index, index - 1), "Moved '" + clip.title + "' up."),
        { aria: "Move " + clip.title + " up" + where }));
    }
    if (index < ids.length - 1) {
      actions.append(actionButton("Down", at + ":down", card, () => savePlaylist(playlist, L.moved(ids, index, index + 1), "Moved '" + clip.title + "' down."),
        { aria: "Move " + clip.title + " down" + where }));
    }
    actions.append(actionButton("Take out", at + ":out", card, () => {
      return savePlaylist(playlist, L.without(ids, index), "Took '" + clip.title + "' out of " + playlist.name + ".");
    }, { className: "danger", aria: "Take " + clip.title + " out of " + playlist.name }));
    row.append(actions);
    order.append(row);
  });
  if (playlist.clips.length) item.append(order);
  if (clips.length) {
    const select = clipSelect("Recording to add to " + playlist.name, card + ":choice");
    item.append(el("div", { className: "row" }, select, actionButton("Add to playlist", card + ":add", card, () => {
      const chosen = clips.find((clip) => clip.id === select.value);
      return savePlaylist(playlist, ids.concat([select.value]), "Added a clip to " + playlist.name + ": '" + (chosen ? chosen.title : "") + "'.");
    }, { aria: "Add the chosen recording to " + playlist.name })));
  }
  const actions = el("div", { className: "row" });
  if (playlist.clips.length) {
    actions.append(actionButton("Play whole", card + ":play", card, () => playAll(playlist.clips.map((clip) => "/api/clips/" + clip.id + "/audio"), card),
      { aria: "Play " + playlist.name + " whole" }));
    actions.append(actionButton("Picture", card + ":picture", card, async () => {
      const picture = el("img", { className: "picture", alt: "The ringtone of " + playlist.name + ": each recording's waveform, the cap, and what is left out" });
      picture.src = await media("/api/picture/" + encodeURIComponent(playlist.name));
      const holder = document.querySelector('[data-card="' + CSS.escape(card) + '"]');
      if (holder) holder.append(picture);
    }, { aria: "Picture of " + playlist.name + "'s ringtone" }));
  }
  actions.append(el("button", { type: "button", className: "danger", "data-key": card + ":delete", "aria-label": "Delete the playlist " + playlist.name,
    onclick: () => { confirming.add(card); drawPlaylists(); focusKey(card + ":confirm"); } }, "Delete"));
  item.append(actions);
  if (confirming.has(card)) {
    const said = results.get(card);
    const withAlarms = said && said.withAlarms;
    item.append(el("p", { className: "confirm" }, withAlarms ? "Delete it with the alarms that play it?" : "Delete the playlist " + playlist.name + "? Its recordings stay."),
      el("div", { className: "row" },
        actionButton(withAlarms ? "Delete with its alarms" : "Delete", card + ":confirm", card, async () => {
          try {
            await api("DELETE", "/api/playlists/" + encodeURIComponent(playlist.name) + (withAlarms ? "?withAlarms=true" : ""));
          } catch (error) {
            if (error.status !== 409) throw error;
            results.set(card, { text: error.message, error: true, withAlarms: true });
            drawPlaylists();
            focusKey(card + ":confirm");
            announce(error.message);
            return undefined;
          }
          confirming.delete(card);
          results.delete(card);
          await refreshAll();
          tell("playlists", "Deleted " + playlist.name + ".", false);
          return undefined;
        }, { className: "danger primary", aria: (withAlarms ? "Delete with its alarms: " : "Yes, delete ") + playlist.name }),
        el("button", { type: "button", "data-key": card + ":keep", onclick: () => { confirming.delete(card); results.delete(card); drawPlaylists(); focusKey(card + ":delete"); } }, "Keep it")));
  }
  reattachPlayer(item, card);
  item.append(resultLine(card));
  return item;
}

function drawPlaylists() {
  const nodes = playlists.map(playlistCard);
  if (!nodes.length) nodes.push(el("li", { className: "empty" }, "No playlists yet: make one below, then add recordings to it."));
  redraw($("playlists"), nodes);
  // What an alarm plays: the person's own choice stays; else the first playlist.
  const target = $("alarm-target");
  const chosen = target.dataset.chosen;
  target.replaceChildren(...playlists.map((playlist) => el("option", { value: playlist.name }, playlist.name)), el("option", { value: "manifesto" }, "The manifesto"));
  if (chosen && Array.from(target.options).some((option) => option.value === chosen)) target.value = chosen;
}

async function refreshPlaylists() {
  const fresh = await newest("playlists", () => api("GET", "/api/playlists"));
  if (fresh === undefined) return;
  playlists = fresh;
  drawPlaylists();
  const current = await newest("manifesto", () => api("GET", "/api/manifesto").catch(() => null));
  if (current === undefined) return;
  const card = "manifesto";
  const nodes = [el("p", {}, current && current.clips.length ? "Now: " + current.clips[0].title + " (" + L.duration(current.duration) + ")" : "No manifesto recording yet.")];
  if (current && current.capNote) nodes.push(el("p", { className: "result error" }, L.sentence(current.capNote)));
  if (clips.length) {
    const select = clipSelect("Manifesto recording", "manifesto:choice");
    nodes.push(select, el("div", { className: "row" }, actionButton("Make it the manifesto", "manifesto:set", card, async () => {
      await api("PUT", "/api/manifesto", { clip: select.value });
      await refreshAll();
      return "The manifesto is set.";
    })));
  }
  nodes.push(resultLine(card));
  redraw($("manifesto"), nodes);
}

// ---------------------------------------------------------------------------------------------
// Paired devices.

async function refreshDevices() {
  const devices = await newest("devices", () => api("GET", "/api/devices"));
  if (devices === undefined) return;
  redraw($("devices"), devices.map((device) => {
    const card = "device:" + device.id;
    const mine = device.id === thisDevice;
    const item = el("li", { className: "card", "data-card": card },
      el("p", { className: "alarm-label" }, device.name + (mine ? " (this phone)" : "")),
      el("p", { className: "muted small" }, (device.kind === "token" ? "A script" : "A phone or browser") + ", paired " +
        L.whenText(device.created, Date.now()) + (device.lastSeen ? "; last seen " + L.whenText(device.lastSeen, Date.now()) : "")));
    if (confirming.has(card)) {
      item.append(el("p", { className: "confirm" }, "Revoke " + device.name + "? It will have to pair again."), el("div", { className: "row" },
        actionButton("Revoke", card + ":confirm", card, async () => {
          await api("DELETE", "/api/devices/" + device.id);
          confirming.delete(card);
          await refreshDevices();
          return "Revoked " + device.name + ".";
        }, { className: "danger primary", aria: "Yes, revoke " + device.name }),
        el("button", { type: "button", onclick: () => { confirming.delete(card); refreshDevices(); } }, "Keep it")));
    } else {
      item.append(el("div", { className: "row" }, el("button", { type: "button", className: "danger", "data-key": card + ":revoke", "aria-label": "Revoke " + device.name,
        onclick: () => { confirming.add(card); refreshDevices().then(() => focusKey(card + ":confirm")); } }, "Revoke")));
    }
    item.append(resultLine(card));
    return item;
  }));
}

// ---------------------------------------------------------------------------------------------
// Everything, after a change or when the page comes back.

async function refreshAll() {
  try {
    // The alarms and what rings first; the playlists need the recordings drawn before them.
    await Promise.all([refreshAlarms(), refreshStatus(), refreshClips().then(refreshPlaylists), refreshDevices()]);
  } catch (error) {
    if (!offline) tell("alarm-form", L.failureSentence(error), true);
  }
}

// ---------------------------------------------------------------------------------------------
// Recording: the phone's microphone through MediaRecorder, a live level, stopped by the button or
// at 10 minutes; the upload is imported as any recording is.

async function upload(blob, type, card) {
  const title = $("record-title-input").value.trim();
  tell(card, "Sending the recording to the bedside machine…", false);
  const clip = await api("POST", "/api/clips" + (title ? "?title=" + encodeURIComponent(title) : ""), blob, type || "application/octet-stream");
  $("record-title-input").value = "";
  await refreshAll();
  // A take that stopped in the middle of a frame is kept up to its last whole frame: say so.
  const cut = clip.cutOff ? " Note: " + clip.cutOff.note + "." : "";
  return "Imported '" + clip.title + "' (" + L.duration(clip.duration) + "): add it to a playlist below." + cut;
}

$("recorder").dataset.card = "record";
$("record-result").dataset.result = "record";
$("upload-result").dataset.result = "upload";

let recorder = null;
async function startRecording() {
  if (!navigator.mediaDevices || !window.MediaRecorder) throw new Error("This browser cannot record here: send a recording from the phone instead.");
  // The voice as it is: the ringtone's loudness is set when it is built, and a call's echo
  // cancelling, noise gate and gain riding would only colour a recording made to keep.
  const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
  const chunks = [];
  const type = L.recordingType((candidate) => MediaRecorder.isTypeSupported(candidate));
  recorder = type ? new MediaRecorder(stream, { mimeType: type }) : new MediaRecorder(stream);
  const context = new (window.AudioContext || window.webkitAudioContext)();
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  // The clock counts from the recorder's own start, not from the press: on a busy machine WebKit's
  // recorder began a second late, and a take the clock called 3 s held 2 s.
  let started = null;
  recorder.addEventListener("start", () => { started = Date.now(); });
  const timer = setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    let peak = 0;
    for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
    $("level").value = peak;
    const elapsed = started === null ? 0 : (Date.now() - started) / 1000;
    $("record-time").textContent = L.clock(elapsed);
    if (elapsed >= MAX_RECORDING && recorder && recorder.state === "recording") recorder.stop();
  }, 100);
  // The recording is whole once the recorder has stopped and handed over its last data. The spec
  // hands it over before "stop"; WebKit's MP4 recorder can hand it over after, so both are waited
  // for (the last at most 15 s, which a busy machine's recorder may need): a fragmented MP4 cut
  // short does not import.
  const taking = recorder;
  const finished = new Promise((resolve) => {
    let stopped = false;
    let last = false;
    let given = false;
    const give = () => {
      if (!stopped || !last || given) return;
      given = true;
      resolve(new Blob(chunks, { type: (taking.mimeType || type || "audio/webm").split(";")[0] }));
    };
    taking.addEventListener("dataavailable", (event) => {
      if (event.data.size > 0) chunks.push(event.data);
      if (taking.state === "inactive") { last = true; give(); }
    });
    taking.addEventListener("stop", () => {
      clearInterval(timer);
      stream.getTracks().forEach((track) => track.stop());
      context.close();
      $("level").value = 0;
      recorder = null;
      stopped = true;
      if (!last) tell("record", "Finishing the recording…", false);
      setTimeout(() => { last = true; give(); }, 15000);
      give();
    });
  });
  recorder.start(1000);
  $("record").disabled = true;
  $("record").setAttribute("aria-disabled", "true");
  $("record-stop").disabled = false;
  $("record-stop").classList.add("primary");
  $("record-stop").focus();
  tell("record", "Recording… press Stop recording when you are done.", false);
  return finished;
}

$("record").addEventListener("click", async () => {
  if (recorder) return;
  let blob;
  try {
    blob = await startRecording();
  } catch (error) {
    $("record").disabled = false;
    tell("record", L.sentence("Recording is not possible here (" + L.failureSentence(error).replace(/\.$/, "") + "): send a recording instead"), true);
    return;
  }
  $("record-stop").disabled = true;
  $("record-stop").classList.remove("primary");
  if (blob.type === "audio/mp4") blob = new Blob([L.withoutRepeatedBoxes(new Uint8Array(await blob.arrayBuffer()))], { type: blob.type });
  await run(null, "record-upload", "record", () => upload(blob, blob.type, "record"));
  $("record-time").textContent = "0:00";
  $("record").disabled = false;
  $("record").removeAttribute("aria-disabled");
});
$("record-stop").addEventListener("click", () => { if (recorder && recorder.state === "recording") recorder.stop(); });
$("upload-send").addEventListener("click", () => run($("upload-send"), "upload-send", "upload", async () => {
  const file = $("upload").files[0];
  if (!file) throw new Error("Choose an audio file first.");
  const said = await upload(file, file.type, "upload");
  $("upload").value = "";
  return said;
}));

$("say-form").dataset.card = "say";
$("say-result").dataset.result = "say";
$("say-form").addEventListener("submit", (event) => {
  event.preventDefault();
  run($("say-send"), "say-send", "say", async () => {
    if (!$("say-text").value.trim()) throw new Error("Write what the stand-in says first.");
    const clip = await api("POST", "/api/clips/say", { text: $("say-text").value });
    $("say-text").value = "";
    await refreshAll();
    return "Made a spoken stand-in '" + clip.title + "': record it in your own voice later.";
  });
});

$("playlist-form").dataset.card = "playlist-form";
$("playlist-form-result").dataset.result = "playlist-form";
$("playlist-form").addEventListener("submit", (event) => {
  event.preventDefault();
  run($("playlist-create"), "playlist-create", "playlist-form", async () => {
    if (!$("playlist-name").value.trim()) throw new Error("Name the playlist first.");
    const playlist = await api("POST", "/api/playlists", { name: $("playlist-name").value.trim(), clips: [] });
    $("playlist-name").value = "";
    await refreshAll();
    return "Created " + playlist.name + ": add recordings to it above.";
  });
});

$("retry").addEventListener("click", () => {
  clearTimeout(retryTimer);
  retryTimer = null;
  $("connection-text").textContent = "Trying to reach the bedside machine…";
  refreshStatus().catch(() => {});
});

// ---------------------------------------------------------------------------------------------
// Start: the view in the address, the lists, the poll while the page is in front, and the
// service worker that keeps the page's own files for the home screen.

async function poll() {
  if (document.visibilityState === "visible" && !offline) {
    try { await refreshStatus(); } catch (error) { /* said by the connection line, or the next poll */ }
  }
  setTimeout(poll, POLL_SECONDS * 1000);
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && !offline) refreshAll();
});

showView(location.hash.slice(1), false);
clearAlarmForm();
DeviceKey.device().then((id) => { thisDevice = id; }).catch(() => {});
refreshAll().then(() => { document.body.dataset.ready = "yes"; });
setTimeout(poll, POLL_SECONDS * 1000);

if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").then(() => { document.body.dataset.worker = "registered"; },
    (error) => { document.body.dataset.worker = "failed: " + error.message; });
}
