// The Alarms view: when the next alarm rings, large at the top; each alarm's card (its countdown
// ticking, its voice switch, Listen, a test ring on the bedside speaker, Remove); and the form
// that adds one, its time on the 24-hour clock as everywhere on the page.
import { $, el, redraw } from "./dom.mjs";
import * as L from "./page-logic.mjs";
import { store, api, live } from "./page.mjs";
import { actionButton, removal, resultLine, run, tell } from "./ui.mjs";
import { play, reattachPlayer } from "./player.mjs";

function alarms() { return store.state ? L.current(store.state.alarms, store.now()) : []; }
function health() { return store.state ? store.state.status.health : []; }

// "Alarm in 6 h 29 min", and when and which under it.
function drawHeadline() {
  const big = $("next-big");
  const small = $("next-small");
  if (!store.state || store.offline) { big.textContent = ""; small.textContent = ""; return; }
  const line = L.headline(store.state.alarms, store.now(), L.phoneHealth(health()).some((item) => item.stopsRinging));
  big.textContent = line.big;
  small.textContent = line.small;
}

function voiceSwitch(alarm, card) {
  const key = card + ":voice";
  const node = el("button", {
    type: "button", className: "switch", role: "switch", "aria-checked": String(alarm.voice),
    "data-key": key, "aria-label": "Wake up to my voice, alarm at " + L.alarmName(alarm),
  }, el("span", {}, "Wake up to my voice ", el("span", { className: "state" }, alarm.voice ? "On" : "Off")), el("span", { className: "track", "aria-hidden": "true" }));
  node.addEventListener("click", () => run(node, key, card, async () => {
    const on = node.getAttribute("aria-checked") !== "true";
    node.setAttribute("aria-checked", String(on));
    try {
      const changed = await api.call("PUT", "/api/alarms/" + alarm.id + "/voice", { on });
      await live.refresh();
      return { text: L.voiceSaid(changed), about: ["voice:" + alarm.id] };
    } catch (error) {
      node.setAttribute("aria-checked", String(!on));
      throw error;
    }
  }));
  return node;
}

// What the alarm plays, in a person's words.
function soundLine(alarm) {
  if (!alarm.voice) return "Plays the standard sound.";
  if (alarm.soundReason) return L.sentence("Plays the standard sound: " + alarm.soundReason);
  return "Your voice" + (alarm.spokenStandIns && alarm.spokenStandIns.length ? ", with a spoken stand-in" : "") + ".";
}

function alarmCard(alarm) {
  const card = "alarm:" + alarm.id;
  const name = L.alarmName(alarm);
  const status = store.state.status;
  const item = el("li", { className: "card alarm" + (alarm.next ? "" : " off"), "data-card": card },
    el("div", { className: "alarm-head" }, el("span", { className: "alarm-time" }, alarm.time), alarm.label ? el("span", { className: "alarm-label" }, alarm.label) : null),
    el("p", {}, L.daysText(alarm.days, alarm.date) + " · plays " + (alarm.target === "manifesto" ? "the manifesto" : alarm.target)),
    alarm.on === false ? el("p", { className: "muted" }, "Off: kept, and it does not ring until it is on again.")
      : el("p", { className: "muted countdown", "data-next": alarm.next || "" }, L.nextText(alarm.next, store.now()) + "."),
    el("p", { className: "muted small" }, soundLine(alarm) + (alarm.snooze ? " Snooze " + alarm.snooze + " min." : " No snooze.")),
    voiceSwitch(alarm, card));
  const testRing = status.testRing && status.testRing.alarm === alarm.id ? L.testRingUnderWay(status.testRing) : null;
  if (testRing) item.append(el("p", { className: "result test-ring", role: "status" }, testRing));
  item.append(el("div", { className: "row" },
    // With the voice off the machine answers the standard sound: it can be heard too.
    actionButton("Listen", card + ":listen", card, () => play("/api/alarms/" + alarm.id + "/ringtone", card),
      { aria: "Listen to the alarm at " + name + " on this phone" }),
    actionButton("Ring it here now", card + ":ring", card, async () => {
      await api.call("POST", "/api/alarms/" + alarm.id + "/ring");
      await live.refresh();
    }, { aria: "Ring the alarm at " + name + " on the bedside speaker now, for 10 seconds" })));
  item.append(...removal(card, {
    label: "Remove", aria: "Remove the alarm at " + name, question: "Remove the alarm at " + alarm.time + "?",
    yes: "Remove", yesAria: "Yes, remove the alarm at " + name,
    act: () => api.call("DELETE", "/api/alarms/" + alarm.id),
    list: "alarms", done: { text: "Removed the alarm at " + name + ".", about: ["alarms"] }, draw: drawAlarms,
  }));
  reattachPlayer(item, card);
  item.append(resultLine(card));
  return item;
}

export function drawAlarms() {
  drawHeadline();
  if (!store.state || store.offline) {
    redraw($("alarms"), store.offline ? [el("li", { className: "stale" }, "Not shown while the bedside machine cannot be reached: what it holds may have changed.")] : []);
    return;
  }
  const nodes = alarms().map(alarmCard);
  if (!nodes.length) nodes.push(el("li", { className: "empty" }, "No alarms yet: add one below."));
  redraw($("alarms"), nodes);
}

// A test ring that ended is said on its alarm's card once, as a message (it goes after the
// stated time, or when another test ring starts).
let toldTestRing = null;
function sayTestRing() {
  const testRing = store.state.status.testRing;
  const result = L.testRingResult(testRing);
  if (!result) return;
  const key = testRing.alarm + "@" + testRing.at + "@" + testRing.state;
  if (key === toldTestRing) return;
  toldTestRing = key;
  const age = store.now() - Date.parse(testRing.at);
  if (!(age < L.MESSAGE_SECONDS * 1000 + 60000)) return;
  tell("alarm:" + testRing.alarm, result.text, { error: result.error, about: ["testRing"] });
}

// Each minute: the countdowns in place; a one-off that has rung leaves the list; an alarm whose
// time has passed is asked for again (its next ring is the machine's to say).
let askedAfterPassing = 0;
function tick() {
  if (!store.state || store.offline) return;
  const now = store.now();
  const shownIDs = Array.from($("alarms").querySelectorAll("[data-card^='alarm:']")).map((node) => node.dataset.card.slice(6));
  const currentIDs = alarms().map((alarm) => alarm.id);
  if (shownIDs.join(" ") !== currentIDs.join(" ")) { drawAlarms(); } else {
    for (const line of $("alarms").querySelectorAll("[data-next]")) line.textContent = L.nextText(line.dataset.next || null, now) + ".";
    drawHeadline();
  }
  if (L.passed(store.state.alarms, now) && Date.now() - askedAfterPassing > 60000) {
    askedAfterPassing = Date.now();
    live.refresh().catch(() => {});
  }
}

// ---------------------------------------------------------------------------------------------
// The form: the time on the 24-hour clock, the days as seven buttons and the shortcuts a person says.

let chosenDays = [];
function drawDays() {
  const nodes = L.WEEK.map((day) => el("button", {
    type: "button", "aria-pressed": String(chosenDays.includes(day)), "aria-label": L.LONG[day], "data-key": "day:" + day,
    onclick: () => {
      chosenDays = chosenDays.includes(day) ? chosenDays.filter((d) => d !== day) : chosenDays.concat([day]);
      drawDays();
    },
  }, L.SHORT[day].slice(0, 2)));
  redraw($("alarm-days"), nodes);
  $("days-said").textContent = L.daysSaid(chosenDays);
  for (const shortcut of document.querySelectorAll(".shortcuts button")) {
    shortcut.setAttribute("aria-pressed", String(L.shortcutOf(chosenDays) === shortcut.dataset.days));
  }
}

function drawSwitch(node, on) {
  node.setAttribute("aria-checked", String(on));
  node.querySelector(".state").textContent = on ? "On" : "Off";
}

function clearForm() {
  $("alarm-time").value = "07:00";
  $("alarm-time").removeAttribute("aria-invalid");
  $("alarm-label").value = "";
  $("alarm-snooze").value = "";
  chosenDays = [];
  drawSwitch($("alarm-voice"), true);
  drawDays();
}

// What an alarm plays: the person's own choice stays; else the first playlist.
function drawTargets() {
  if (!store.state) return;
  const target = $("alarm-target");
  const chosen = target.dataset.chosen;
  target.replaceChildren(...store.state.playlists.map((playlist) => el("option", { value: playlist.name }, playlist.name)),
    el("option", { value: "manifesto" }, "The manifesto"));
  if (chosen && Array.from(target.options).some((option) => option.value === chosen)) target.value = chosen;
}

// The time as typed, read on the 24-hour clock: "0645" becomes 06:45 when the field is left.
function readTime() {
  const field = $("alarm-time");
  const time = L.parseTime(field.value);
  if (time) { field.value = time; field.removeAttribute("aria-invalid"); } else field.setAttribute("aria-invalid", "true");
  return time;
}

function setUpForm() {
  for (const shortcut of document.querySelectorAll(".shortcuts button")) {
    shortcut.addEventListener("click", () => { chosenDays = L.daysFor(shortcut.dataset.days); drawDays(); });
  }
  $("alarm-voice").addEventListener("click", () => drawSwitch($("alarm-voice"), $("alarm-voice").getAttribute("aria-checked") !== "true"));
  $("alarm-time").addEventListener("blur", () => { if ($("alarm-time").value.trim()) readTime(); });
  $("alarm-target").addEventListener("change", () => { $("alarm-target").dataset.chosen = $("alarm-target").value; });
  $("alarm-form").addEventListener("submit", (event) => {
    event.preventDefault();
    run($("alarm-add"), "alarm-add", "alarm-form", async () => {
      const time = readTime();
      if (!time) { $("alarm-time").focus(); throw new Error("Write the time on the 24-hour clock, as 06:45 or 21:30."); }
      const snooze = $("alarm-snooze").value;
      const added = await api.call("POST", "/api/alarms", {
        target: $("alarm-target").value, at: time, days: L.WEEK.filter((day) => chosenDays.includes(day)).join(","),
        label: $("alarm-label").value.trim() || null, voice: $("alarm-voice").getAttribute("aria-checked") === "true",
        snooze: snooze ? Number(snooze) : null,
      });
      clearForm();
      await live.refresh();
      const alarm = added.alarm;
      const notes = added.notes.map((note) => L.sentence(note.replace(/^warning: /, "")));
      return {
        text: ["Added the alarm at " + alarm.time + " (" + L.daysText(alarm.days, alarm.date).toLowerCase() + "): it " + L.nextText(alarm.next, store.now()).toLowerCase() + "."]
          .concat(notes).join(" "),
        // It speaks of this alarm's next ring and of what stops alarms ringing ("Nothing will ring…").
        about: ["next:" + alarm.id, "health"],
      };
    });
  });
  $("add-jump").addEventListener("click", () => { $("alarm-form").scrollIntoView({ block: "start" }); $("alarm-time").focus({ preventScroll: true }); });
  clearForm();
}

export function startAlarms() {
  setUpForm();
  store.subscribe((changed) => {
    if (changed.has("connection") || changed.has("alarms") || changed.has("status")) drawAlarms();
    else if (changed.has("clock")) tick();
    if (changed.has("connection") || changed.has("playlists")) drawTargets();
    if (store.state && !store.offline && changed.has("status")) sayTestRing();
  });
}
