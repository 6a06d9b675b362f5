// The Alarms view: when the next alarm rings, large at the top; each alarm's card (its countdown
// ticking, its voice switch, Listen, a test ring on the bedside speaker, Remove); and the form
// that adds one, its time on the 24-hour clock as everywhere on the page.
import { $, el, focusKey, redraw } from "./dom.mjs";
import * as L from "./page-logic.mjs";
import { store, api, live, messages } from "./page.mjs";
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

// The card's main control: the alarm on or off (off keeps it, and it rings nowhere). Apart from
// the voice switch: beside the time, its name the alarm's.
function onSwitch(alarm, card) {
  const key = card + ":on";
  const on = alarm.on !== false;
  const node = el("button", {
    type: "button", className: "switch alarm-on", role: "switch", "aria-checked": String(on), "data-key": key,
    "aria-label": "Alarm at " + L.alarmName(alarm),
  }, el("span", { className: "state" }, on ? "On" : "Off"), el("span", { className: "track", "aria-hidden": "true" }));
  node.addEventListener("click", () => run(node, key, card, async () => {
    const wanted = node.getAttribute("aria-checked") !== "true";
    node.setAttribute("aria-checked", String(wanted));
    try {
      const changed = await api.call("PUT", "/api/alarms/" + alarm.id + "/on", { on: wanted });
      await live.refresh();
      return { text: L.onSaid(changed, store.now()), about: ["next:" + alarm.id] };
    } catch (error) {
      node.setAttribute("aria-checked", String(!wanted));
      throw error;
    }
  }));
  return node;
}

// Skip the next ring (naming its day), what is skipped with Undo, a pause with Resume; and "I'm
// up" while a snooze of this alarm waits.
function skipRows(alarm, card) {
  const name = L.alarmName(alarm);
  const rows = [];
  const changed = (text) => async (body, path) => {
    const after = await api.call("POST", "/api/alarms/" + alarm.id + path, body);
    await live.refresh();
    return { text: text(after) + ": " + L.ringsNext(after, store.now()) + ".", about: ["next:" + alarm.id] };
  };
  const snoozed = (store.state.status.snoozed || []).find((snooze) => snooze.alarm === alarm.id);
  if (snoozed) {
    const again = L.wallClock(snoozed.ringAt);
    rows.push(el("div", { className: "row skip" }, el("p", {}, "Snoozed: rings again at " + (again ? again.time : "a moment") + "."),
      actionButton("I'm up", card + ":up", card, async () => {
        await api.call("DELETE", "/api/snooze");
        await live.refresh();
        const after = store.state.alarms.find((one) => one.id === alarm.id) || alarm;
        return { text: "The snooze is cancelled; " + L.ringsNext(after, store.now()) + ".", about: ["next:" + alarm.id] };
      }, { aria: "I'm up: cancel the snooze of the alarm at " + name })));
  }
  if (alarm.on === false) return rows;
  if (alarm.pausedThrough) {
    const until = L.dateText(alarm.pausedThrough);
    rows.push(el("div", { className: "row skip" }, el("p", {}, "Paused until " + until + "."),
      actionButton("Resume", card + ":resume", card, () => changed(() => "Resumed")({}, "/unskip"),
        { aria: "Resume the alarm at " + name + ", paused until " + until })));
  }
  const skipped = alarm.skipped || [];
  if (skipped.length) {
    rows.push(el("div", { className: "row skip" }, el("p", {}, "Skipped " + L.datesText(skipped) + "."),
      actionButton("Undo", card + ":undo", card, () => changed(() => "Undone, " + L.dateText(skipped[0]) + " rings again")({ date: skipped[0] }, "/unskip"),
        { aria: "Undo: ring on " + L.dateText(skipped[0]) + " again, alarm at " + name })));
  }
  const day = L.nextDate(alarm);
  if (day && !L.isOnce(alarm)) {
    rows.push(el("div", { className: "row" }, actionButton("Skip " + L.dateText(day), card + ":skip", card,
      () => changed(() => "Skipped " + L.dateText(day))({ date: day }, "/skip"),
      { aria: "Skip the ring on " + L.dateText(day) + ", alarm at " + name })));
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Edit in place: a draft per card, kept across the list's redraws (the page is live), sent as
// one change under the same alarm.
const editing = new Map();

function keyed(key) { return Array.from(document.querySelectorAll("[data-key]")).find((node) => node.dataset.key === key) || null; }

// The form closes and the card shrinks: the page moves so that what follows the card's buttons,
// where its result is said, is where Save (or Pause: `tapped`) was; the focus goes back to Edit.
function closeEdit(card, tapped) {
  const save = keyed(card + (tapped || ":save"));
  const was = save ? save.getBoundingClientRect().top : null;
  editing.delete(card);
  drawAlarms();
  const edit = keyed(card + ":edit");
  if (edit) edit.focus({ preventScroll: true });
  const remove = keyed(card + ":remove");
  if (was !== null && remove) window.scrollBy(0, remove.getBoundingClientRect().bottom - was);
}

function draftOf(alarm) {
  const clock = L.machineClock(store.state.serverTime, store.now());
  return {
    time: alarm.time, days: (alarm.days || []).slice(), date: alarm.date || L.onceDate(alarm.time, clock),
    label: alarm.label || "", snooze: alarm.snooze ? String(alarm.snooze) : "", target: alarm.target,
    holidays: Boolean(alarm.skipsHolidays), pause: L.addDays(clock.date, 7),
  };
}

function draftField(draft, name, attributes, card) {
  const node = el("input", Object.assign({ value: draft[name], "data-key": card + ":edit-" + name, autocomplete: "off" }, attributes));
  node.addEventListener("input", () => { draft[name] = node.value; });
  return node;
}

function editForm(alarm, card) {
  const draft = editing.get(card);
  const id = (name) => "edit-" + name + "-" + alarm.id;
  const name = L.alarmName(alarm);
  const redrawn = () => drawAlarms();
  const days = el("div", { className: "days", role: "group", "aria-labelledby": id("days") }, ...L.WEEK.map((day) => el("button", {
    type: "button", "aria-pressed": String(draft.days.includes(day)), "aria-label": L.LONG[day], "data-key": card + ":edit-day-" + day,
    onclick: () => { draft.days = draft.days.includes(day) ? draft.days.filter((d) => d !== day) : draft.days.concat([day]); redrawn(); },
  }, L.SHORT[day].slice(0, 2))));
  const once = !draft.days.length;
  const snooze = el("select", { id: id("snooze"), "data-key": card + ":edit-snooze" },
    ...[["", "No snooze: rings until Stop"], ["5", "5 minutes"], ["9", "9 minutes"], ["10", "10 minutes"], ["15", "15 minutes"]]
      .map(([value, text]) => el("option", { value }, text)));
  snooze.value = draft.snooze;
  if (snooze.value !== draft.snooze) { snooze.append(el("option", { value: draft.snooze }, draft.snooze + " minutes")); snooze.value = draft.snooze; }
  snooze.addEventListener("change", () => { draft.snooze = snooze.value; });
  const target = el("select", { id: id("target"), "data-key": card + ":edit-target" },
    ...store.state.playlists.map((playlist) => el("option", { value: playlist.name }, playlist.name)), el("option", { value: "manifesto" }, "The manifesto"));
  target.value = draft.target;
  target.addEventListener("change", () => { draft.target = target.value; });
  const time = draftField(draft, "time", { id: id("time"), type: "text", inputmode: "numeric", maxlength: "5", className: "edit-time" }, card);
  time.addEventListener("blur", () => { const read = L.parseTime(time.value); if (read) { draft.time = read; time.value = read; } });
  const parts = [
    el("label", { for: id("time") }, "Time"), time,
    el("span", { className: "label", id: id("days") }, "Days"), days,
    el("p", { className: "muted small" }, once ? "No day chosen: it rings once, on the date below." : L.daysSaid(draft.days)),
  ];
  if (once) parts.push(el("label", { for: id("date") }, "Date"), draftField(draft, "date", { id: id("date"), type: "date", min: L.machineClock(store.state.serverTime, store.now()).date }, card));
  parts.push(el("label", { for: id("label") }, "Label (optional)"), draftField(draft, "label", { id: id("label"), maxlength: "100" }, card),
    el("label", { for: id("target") }, "Plays"), target, el("label", { for: id("snooze") }, "Snooze"), snooze);
  if ((store.state.holidays || []).length) {
    const holidays = el("button", {
      type: "button", className: "switch", role: "switch", "aria-checked": String(draft.holidays), "data-key": card + ":edit-holidays",
      onclick: () => { draft.holidays = !draft.holidays; redrawn(); },
    }, el("span", {}, "Not on holidays ", el("span", { className: "state" }, draft.holidays ? "On" : "Off")), el("span", { className: "track", "aria-hidden": "true" }));
    parts.push(holidays, el("p", { className: "muted small" }, "Holidays imported on the bedside machine: " + L.plural(store.state.holidays.length, "day") + " ahead."));
  }
  parts.push(el("div", { className: "row" },
    actionButton("Save", card + ":save", card, async () => {
      const edit = L.editBody(alarm, draft);
      if (edit && edit.error) throw new Error(edit.error);
      if (!edit) { closeEdit(card); return "Nothing changed."; }
      const changed = await api.call("PUT", "/api/alarms/" + alarm.id, edit.body);
      await live.refresh();
      closeEdit(card);
      return { text: "Saved: the alarm at " + L.alarmName(changed) + " (" + L.lowerFirst(L.daysText(changed.days, changed.date)) + "); " + L.ringsNext(changed, store.now()) + ".",
        about: ["next:" + alarm.id] };
    }, { className: "primary", aria: "Save the alarm at " + name }),
    el("button", { type: "button", "data-key": card + ":edit-cancel", onclick: () => closeEdit(card) }, "Cancel")));
  if (!L.isOnce(alarm)) {
    parts.push(el("label", { for: id("pause") }, "Pause until"), draftField(draft, "pause", { id: id("pause"), type: "date", min: L.machineClock(store.state.serverTime, store.now()).date }, card),
      el("div", { className: "row" }, actionButton("Pause", card + ":pause", card, async () => {
        if (!draft.pause) throw new Error("Choose the last day it stays quiet.");
        const after = await api.call("POST", "/api/alarms/" + alarm.id + "/skip", { until: draft.pause });
        await live.refresh();
        closeEdit(card, ":pause");
        return { text: "Paused until " + L.dateText(draft.pause) + ": " + L.ringsNext(after, store.now()) + ".", about: ["next:" + alarm.id] };
      }, { aria: "Pause the alarm at " + name + " until the date above" })));
  }
  return el("div", { className: "edit", role: "group", "aria-label": "Edit the alarm at " + name }, ...parts);
}

function alarmCard(alarm) {
  const card = "alarm:" + alarm.id;
  const name = L.alarmName(alarm);
  const status = store.state.status;
  const on = alarm.on !== false;
  const item = el("li", { className: "card alarm" + (alarm.next ? "" : " off"), "data-card": card },
    el("div", { className: "alarm-head" }, el("span", { className: "alarm-time" }, alarm.time), alarm.label ? el("span", { className: "alarm-label" }, alarm.label) : null, onSwitch(alarm, card)),
    el("p", {}, L.daysText(alarm.days, alarm.date) + " · plays " + (alarm.target === "manifesto" ? "the manifesto" : alarm.target)),
    !on ? el("p", { className: "muted" }, "Off: kept, and it does not ring until it is on again.")
      : el("p", { className: "muted countdown", "data-next": alarm.next || "" }, L.nextText(alarm.next, store.now()) + "."),
    ...skipRows(alarm, card),
    el("p", { className: "muted small" }, soundLine(alarm) + (alarm.snooze ? " Snooze " + alarm.snooze + " min." : " No snooze.") + (alarm.skipsHolidays ? " Not on holidays." : "")),
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
    }, { aria: "Ring the alarm at " + name + " on the bedside speaker now, for 10 seconds" }),
    editing.has(card) ? null : el("button", {
      type: "button", "data-key": card + ":edit", "aria-label": "Edit the alarm at " + name,
      onclick: () => { editing.set(card, draftOf(alarm)); messages.drop(card); drawAlarms(); focusKey(card + ":edit-time"); },
    }, "Edit")));
  if (editing.has(card)) item.append(editForm(alarm, card));
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
  drawOnceDate();
  for (const shortcut of document.querySelectorAll(".shortcuts button")) {
    shortcut.setAttribute("aria-pressed", String(L.shortcutOf(chosenDays) === shortcut.dataset.days));
  }
}

// Once: on a date, by default the next time the clock shows the time in the form; a date the
// person chose stays.
function drawOnceDate() {
  const once = chosenDays.length === 0;
  const date = $("alarm-date");
  $("alarm-date-row").hidden = !once;
  if (store.state) {
    const clock = L.machineClock(store.state.serverTime, store.now());
    date.min = clock.date;
    if (!date.dataset.chosen) date.value = L.onceDate(L.parseTime($("alarm-time").value) || "00:00", clock);
  }
  $("days-said").textContent = once && date.value ? "Rings once, on " + L.dateText(date.value) + "." : L.daysSaid(chosenDays);
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
  delete $("alarm-date").dataset.chosen;
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
  $("alarm-time").addEventListener("blur", () => { if ($("alarm-time").value.trim()) readTime(); drawOnceDate(); });
  $("alarm-time").addEventListener("input", drawOnceDate);
  for (const type of ["input", "change"]) $("alarm-date").addEventListener(type, () => { $("alarm-date").dataset.chosen = "yes"; drawOnceDate(); });
  $("alarm-target").addEventListener("change", () => { $("alarm-target").dataset.chosen = $("alarm-target").value; });
  $("alarm-form").addEventListener("submit", (event) => {
    event.preventDefault();
    run($("alarm-add"), "alarm-add", "alarm-form", async () => {
      const time = readTime();
      if (!time) { $("alarm-time").focus(); throw new Error("Write the time on the 24-hour clock, as 06:45 or 21:30."); }
      const snooze = $("alarm-snooze").value;
      const added = await api.call("POST", "/api/alarms", {
        target: $("alarm-target").value, at: time, days: L.WEEK.filter((day) => chosenDays.includes(day)).join(","),
        date: chosenDays.length ? null : $("alarm-date").value || null,
        label: $("alarm-label").value.trim() || null, voice: $("alarm-voice").getAttribute("aria-checked") === "true",
        snooze: snooze ? Number(snooze) : null,
      });
      clearForm();
      await live.refresh();
      const alarm = added.alarm;
      const notes = added.notes.map((note) => L.sentence(note.replace(/^warning: /, "")));
      return {
        text: ["Added the alarm at " + alarm.time + " (" + L.lowerFirst(L.daysText(alarm.days, alarm.date)) + "): it " + L.nextText(alarm.next, store.now()).toLowerCase() + "."]
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
    if (changed.has("connection") || changed.has("clock")) drawOnceDate();
    if (store.state && !store.offline && changed.has("status")) sayTestRing();
  });
}
