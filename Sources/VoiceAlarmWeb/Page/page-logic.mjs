// What the page decides without the page: words for days, times and answers, read from the
// API's documents. No DOM here, so `node --test` runs it (Tests/Page/*.test.mjs).
export const WEEK = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];
export const SHORT = { mon: "Mon", tue: "Tue", wed: "Wed", thu: "Thu", fri: "Fri", sat: "Sat", sun: "Sun" };
export const LONG = { mon: "Monday", tue: "Tuesday", wed: "Wednesday", thu: "Thursday", fri: "Friday", sat: "Saturday", sun: "Sunday" };
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const SHORTCUTS = { weekdays: WEEK.slice(0, 5), weekends: ["sat", "sun"], daily: WEEK.slice(), "": [] };

// A sentence as a person reads it: capital first, a full stop last.
export function sentence(text) {
  const said = String(text || "").trim();
  if (!said) return "";
  const capital = said.charAt(0).toUpperCase() + said.slice(1);
  return /[.!?…]$/.test(capital) ? capital : capital + ".";
}

// Days in the week's order, each once.
function ordered(days) { return WEEK.filter((day) => days.includes(day)); }

function sameDays(a, b) { return a.length === b.length && a.every((day) => b.includes(day)); }

// The days the shortcut names, as the command line's `weekdays`, `weekends` and `daily` do.
export function daysFor(shortcut) { return (SHORTCUTS[shortcut] || []).slice(); }

// Which shortcut the chosen days are, if any ("" for none: once).
export function shortcutOf(days) {
  return Object.keys(SHORTCUTS).find((name) => sameDays(SHORTCUTS[name], days));
}

// "Mon 3 Dec" for "2025-12-01" (the date as the machine's calendar has it).
export function dateText(date) {
  const [year, month, day] = date.split("-").map(Number);
  const weekday = WEEK[(new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7];
  return SHORT[weekday] + " " + day + " " + MONTHS[month - 1];
}

// "Weekdays", "Weekends", "Every day", "Mon, Wed, Fri", or "Once, Mon 1 Dec".
export function daysText(days, date) {
  const chosen = ordered(days || []);
  if (chosen.length === 0) return date ? "Once, " + dateText(date) : "Once";
  if (chosen.length === 7) return "Every day";
  if (sameDays(chosen, SHORTCUTS.weekdays)) return "Weekdays";
  if (sameDays(chosen, SHORTCUTS.weekends)) return "Weekends";
  return chosen.map((day) => SHORT[day]).join(", ");
}

// What the chosen days mean, said under the day buttons.
export function daysSaid(days) {
  const chosen = ordered(days);
  if (chosen.length === 0) return "Rings once, the next time the clock says this time.";
  if (chosen.length === 7) return "Rings every day.";
  if (sameDays(chosen, SHORTCUTS.weekdays)) return "Rings on weekdays, Monday to Friday.";
  if (sameDays(chosen, SHORTCUTS.weekends)) return "Rings on Saturday and Sunday.";
  return "Rings on " + chosen.map((day) => LONG[day]).join(", ") + ".";
}

// An ISO 8601 time with offset, read as the bedside machine's wall clock says it.
export function wallClock(iso) {
  const found = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso || "");
  if (!found) return null;
  const [, year, month, day, hour, minute] = found;
  return { date: year + "-" + month + "-" + day, time: hour + ":" + minute, at: Date.parse(iso), offset: offsetMinutes(iso) };
}

function offsetMinutes(iso) {
  const found = /([+-])(\d{2}):?(\d{2})$/.exec(iso);
  if (!found) return 0;
  return (found[1] === "-" ? -1 : 1) * (Number(found[2]) * 60 + Number(found[3]));
}

// "in 45 min", "in 7 h 12 min", "in 3 days".
export function inText(milliseconds) {
  const minutes = Math.max(0, Math.floor(milliseconds / 60000));
  if (minutes < 1) return "in under a minute";
  if (minutes < 60) return "in " + minutes + " min";
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return "in " + hours + " h" + (minutes % 60 ? " " + (minutes % 60) + " min" : "");
  return "in " + Math.round(hours / 24) + " days";
}

// "today at 06:45", "tomorrow at 06:45" or "Wed 3 Dec at 06:45", by the machine's calendar.
export function whenText(iso, now) {
  const next = wallClock(iso);
  if (!next) return "";
  const here = new Date(now + next.offset * 60000);
  const today = here.toISOString().slice(0, 10);
  const tomorrow = new Date(here.getTime() + 86400000).toISOString().slice(0, 10);
  const day = next.date === today ? "today" : next.date === tomorrow ? "tomorrow" : dateText(next.date);
  return day + " at " + next.time;
}

// "Rings tomorrow at 06:45 (in 9 h 2 min)", or that it will not ring again.
export function nextText(iso, now) {
  if (!iso) return "Will not ring again";
  return "Rings " + whenText(iso, now) + " (" + inText(Date.parse(iso) - now) + ")";
}

// An alarm as a button's label names it: "07:30, Run".
export function alarmName(alarm) {
  return (alarm.time || "alarm") + (alarm.label ? ", " + alarm.label : "");
}

// What rings, for the banner: its time and label, or that the library does not know it.
export function ringingWhat(rings) {
  if (!rings.length) return "";
  const known = rings.filter((ring) => ring.time);
  if (!known.length) return "An alarm";
  return known.map((ring) => ring.time + (ring.label ? " · " + ring.label : "")).join(", ");
}

// The soonest ring of all the alarms, or null.
export function soonest(alarms) {
  return alarms.filter((alarm) => alarm.next).sort((a, b) => Date.parse(a.next) - Date.parse(b.next))[0] || null;
}

// Problems that stop alarms ringing first; the server's order otherwise.
export function healthOrder(health) {
  return health.map((item, index) => ({ item, index }))
    .sort((a, b) => Number(b.item.stopsRinging) - Number(a.item.stopsRinging) || a.index - b.index)
    .map((entry) => entry.item);
}

// "4.4 s", "1 min 05 s".
export function duration(seconds) {
  if (seconds < 60) return seconds.toFixed(1) + " s";
  const whole = Math.round(seconds);
  return Math.floor(whole / 60) + " min " + String(whole % 60).padStart(2, "0") + " s";
}

// "0:04": the recording's clock.
export function clock(seconds) {
  const whole = Math.floor(seconds);
  return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
}

// The first type this browser records in: Opus in WebM (Chromium, Firefox), else MP4/AAC (Safari, WebKit).
export function recordingType(isTypeSupported) {
  return ["audio/webm;codecs=opus", "audio/webm", "audio/mp4", "audio/ogg;codecs=opus"].find((type) => isTypeSupported(type)) || "";
}

// The playlist's clips with the one at `from` moved to `to`, or taken out: what its PUT sends.
export function moved(ids, from, to) {
  const order = ids.slice();
  order.splice(to, 0, order.splice(from, 1)[0]);
  return order;
}
export function without(ids, index) { return ids.filter((id, at) => at !== index); }

// An MP4 recording without a top-level box that repeats the box right before it, byte for byte.
// WebKitGTK's MediaRecorder (2.50) writes its `ftyp` twice and, at stop, its last fragment's
// `moof` twice, so that fragment's data offset points into the copy and FFmpeg reads noise from
// there on. A well-formed file never repeats a box so (each `moof` has its own sequence
// number); anything that does not parse as boxes is given back as it came.
export function withoutRepeatedBoxes(bytes) {
  const boxes = [];
  for (let at = 0; at < bytes.length;) {
    if (bytes.length - at < 8) return bytes;
    let size = ((bytes[at] << 24) >>> 0) + (bytes[at + 1] << 16) + (bytes[at + 2] << 8) + bytes[at + 3];
    if (size === 0) size = bytes.length - at;
    if (size === 1) {
      if (bytes.length - at < 16) return bytes;
      size = (((bytes[at + 8] << 24) >>> 0) + (bytes[at + 9] << 16) + (bytes[at + 10] << 8) + bytes[at + 11]) * 2 ** 32 +
        ((bytes[at + 12] << 24) >>> 0) + (bytes[at + 13] << 16) + (bytes[at + 14] << 8) + bytes[at + 15];
    }
    if (size < 8 || at + size > bytes.length) return bytes;
    boxes.push([at, size]);
    at += size;
  }
  const same = (a, b) => a[1] === b[1] && bytes.subarray(a[0], a[0] + a[1]).every((byte, i) => byte === bytes[b[0] + i]);
  const kept = boxes.filter((box, index) => index === 0 || !same(box, boxes[index - 1]));
  if (kept.length === boxes.length) return bytes;
  const out = new Uint8Array(kept.reduce((total, box) => total + box[1], 0));
  let to = 0;
  for (const [at, size] of kept) { out.set(bytes.subarray(at, at + size), to); to += size; }
  return out;
}

// Seconds to wait before trying the bedside machine again.
export function retryDelay(attempt) { return Math.min(30, 2 ** Math.min(attempt + 1, 5)); }

// An answer of the API, read without trusting it to be JSON: a proxy, a crash or a captive
// portal answers with HTML. Only an `application/json` answer is parsed.
export function reading(status, contentType, text) {
  const json = /^application\/(.+\+)?json\b/i.test(contentType || "");
  let data = null;
  if (json && text) {
    try { data = JSON.parse(text); } catch (error) { data = null; }
  }
  const ok = status >= 200 && status < 300;
  if (ok) return { ok, status, data, message: "" };
  if (data && data.error && data.error.message) return { ok, status, data, message: sentence(data.error.message) };
  return { ok, status, data, message: statusSentence(status) };
}

function statusSentence(status) {
  if (status === 401) return "This phone is not paired with the bedside machine any more.";
  if (status === 413) return "That is too large for the bedside machine.";
  if (status === 404) return "The bedside machine does not have that any more.";
  if (status >= 502 && status <= 504) return "The bedside machine did not answer (error " + status + "). It is tried again in a moment.";
  if (status >= 500) return "The bedside machine could not do that (error " + status + ").";
  return "The bedside machine refused that (error " + status + ").";
}

export async function readAnswer(response) {
  return reading(response.status, response.headers.get("Content-Type"), await response.text());
}

// What a failed request says: the machine's own sentence, or that it cannot be reached.
export function failureSentence(error) {
  if (error && error.name === "TypeError") return "The bedside machine cannot be reached from this phone right now.";
  return sentence(error && error.message ? error.message : String(error));
}


// "1 alarm", "2 alarms", "0 recordings": the count and its word, `many` where the plural is not
// the word with an "s".
export function plural(count, one, many) {
  return count + " " + (count === 1 ? one : many || one + "s");
}

// A time typed on the 24-hour clock, as "HH:MM", or null when it is not one. A phone's number
// pad has no colon, so "0645", "645" and "6" are read too, as are "6:45", "6.45" and "6 45".
export function parseTime(text) {
  const said = String(text || "").trim();
  const found = /^(\d{1,2})(?:[:.h ]?(\d{2}))?$/.exec(said);
  if (!found) return null;
  const hour = Number(found[1]);
  const minute = found[2] === undefined ? 0 : Number(found[2]);
  if (hour > 23 || minute > 59) return null;
  return String(hour).padStart(2, "0") + ":" + String(minute).padStart(2, "0");
}

// The phone's clock set right by the machine's (`serverTime` of its last answer): milliseconds
// to add to the phone's `Date.now()`. A phone a few minutes off still counts down right.
export function clockOffset(serverTime, phoneNow) {
  const at = Date.parse(serverTime || "");
  return Number.isFinite(at) ? at - phoneNow : 0;
}

// An alarm without days rings once.
export function isOnce(alarm) { return !alarm.days || alarm.days.length === 0; }

// The alarms a person still expects to ring or to change: a one-off whose time has passed has
// rung and leaves the list at once (the machine's list drops it too, at its next answer).
export function current(alarms, now) {
  return alarms.filter((alarm) => !(isOnce(alarm) && alarm.next && Date.parse(alarm.next) <= now));
}

// Whether some alarm's next ring is now in the past: what the machine holds has moved on.
export function passed(alarms, now) {
  return alarms.some((alarm) => alarm.next && Date.parse(alarm.next) <= now);
}

// The top of the alarm view: "Alarm in 6 h 29 min", large, and under it when and which.
export function headline(alarms, now, stopsRinging) {
  if (!alarms.length) return { big: "No alarm set", small: "" };
  const next = soonest(current(alarms, now));
  if (!next) return { big: "No alarm will ring", small: "Every alarm is off or has rung." };
  const when = whenText(next.next, now);
  const small = when.charAt(0).toUpperCase() + when.slice(1) + (next.label ? " · " + next.label : "") +
    (stopsRinging ? ". It will not ring until the problem above is solved." : "");
  return { big: "Alarm " + inText(Date.parse(next.next) - now), small };
}

// One ring, by its alarm and when it started: a ring that starts again is another ring.
export function ringKey(ring) { return ring.alarm + "@" + (ring.since || ""); }
export function ringsKey(rings) { return rings.map(ringKey).sort().join(" "); }

// The banner's title: a test ring says so.
export function ringingTitle(rings) {
  return rings.length && rings.every((ring) => ring.test) ? "Test ring on the bedside speaker" : "Ringing now";
}

// The health items for the phone's views (what anyone can act on), in order; and those only the
// machine's owner can fix, shown on the Machine view.
export function phoneHealth(health) { return healthOrder(health.filter((item) => !item.owner)); }
export function ownerHealth(health) { return healthOrder(health.filter((item) => item.owner)); }

// What a switched voice means, in the words a person reads at bedtime.
export function voiceSaid(alarm) {
  return alarm.voice ? "Voice on: the alarm at " + alarm.time + " wakes you with your voice."
    : "Voice off: the alarm at " + alarm.time + " plays the standard sound; your recordings are kept.";
}

function deviceName(device) { return device ? "'" + device + "'" : "the bedside speaker"; }

// A test ring under way ("Ringing on 'default' now…"), or null once it is over.
export function testRingUnderWay(testRing) {
  if (!testRing) return null;
  if (testRing.state === "asked") return "Asked the bedside machine to ring it…";
  if (testRing.state === "ringing") return "Ringing on " + deviceName(testRing.device) + " now…";
  return null;
}

// How a test ring ended: which device rang, for how long, and whether it made sound.
export function testRingResult(testRing) {
  if (!testRing || (testRing.state !== "rang" && testRing.state !== "failed")) return null;
  if (testRing.state === "failed") return { text: sentence(testRing.problem || "it did not ring"), error: true };
  const seconds = typeof testRing.seconds === "number" ? " for " + Math.round(testRing.seconds) + " s" : "";
  const rang = "Rang on " + deviceName(testRing.device) + seconds + ".";
  if (testRing.problem) return { text: rang + " " + sentence(testRing.problem), error: true };
  const sound = testRing.sound === "voice" ? " It played your voice." : testRing.sound === "standard" ? " It played the standard sound." : "";
  return { text: rang + sound, error: false };
}

// How long a result message stays at most; it goes sooner when what it speaks of changes.
export const MESSAGE_SECONDS = 20;

// What a message speaks of (`alarm:ID`, `alarms`, `next:ID` and `voice:ID` (of an alarm), `clip:ID`, `clips`, `playlist:NAME`,
// `playlists`, `manifesto`, `device:ID`, `health`, `ringing`, `testRing`), as a text that
// changes exactly when that part of the machine's state does.
export function facet(state, name) {
  if (!state) return "";
  const split = name.indexOf(":");
  const kind = split < 0 ? name : name.slice(0, split);
  const key = split < 0 ? null : name.slice(split + 1);
  const one = (list, field) => JSON.stringify(list.find((item) => item[field] === key) || null);
  const status = state.status || {};
  switch (kind) {
  case "alarm": return one(state.alarms, "id");
  case "alarms": return state.alarms.map((alarm) => alarm.id).join(" ");
  case "next": return JSON.stringify((state.alarms.find((alarm) => alarm.id === key) || { next: "gone" }).next);
  case "voice": return JSON.stringify((state.alarms.find((alarm) => alarm.id === key) || { voice: "gone" }).voice);
  case "clip": return one(state.clips, "id");
  case "clips": return state.clips.map((clip) => clip.id).join(" ");
  case "playlist": return one(state.playlists, "name");
  case "playlists": return JSON.stringify(state.playlists.map((playlist) => playlist.name));
  case "manifesto": return JSON.stringify(state.manifesto || null);
  case "device": return one(state.devices, "id");
  case "health": return (status.health || []).map((item) => item.code).join(" ");
  case "ringing": return ringsKey(status.ringing || []);
  case "testRing": return JSON.stringify(status.testRing || null);
  default: return "";
  }
}

// ---------------------------------------------------------------------------------------------
// An alarm a person lives with: on or off, a ring skipped, a pause, a one-off on its date.

// "2026-12-09" for "2026-12-08" and 1.
export function addDays(date, days) {
  const [year, month, day] = date.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

// The bedside machine's date and time now ({date: "2026-12-07", time: "06:05"}), by the offset of
// its last `serverTime` and the clock the store keeps (`now`, set right by that answer).
export function machineClock(serverTime, now) {
  const here = new Date(now + offsetMinutes(serverTime || "") * 60000).toISOString();
  return { date: here.slice(0, 10), time: here.slice(11, 16) };
}

// The date a one-off at `time` rings by default: today while the clock has not yet shown that
// time, else tomorrow (the next time the clock shows it).
export function onceDate(time, machine) {
  return time > machine.time ? machine.date : addDays(machine.date, 1);
}

// "Tue 8 Dec", "Tue 8 Dec and Wed 9 Dec", "Tue 8 Dec, Wed 9 Dec and Thu 10 Dec".
export function datesText(dates) {
  const said = dates.map(dateText);
  return said.length < 2 ? said.join("") : said.slice(0, -1).join(", ") + " and " + said[said.length - 1];
}

// The day of an alarm's next ring ("2026-12-08"), or null.
export function nextDate(alarm) {
  const next = wallClock(alarm.next);
  return next ? next.date : null;
}

// The next ring, said after a change: "it rings tomorrow at 07:30 (in 1 h)", or that it will not.
export function ringsNext(alarm, now) {
  if (!alarm.next) return "it will not ring again until you change it";
  return "it " + nextText(alarm.next, now).replace(/^Rings/, "rings");
}

// "Once, tue 8 dec" read inside a sentence: only its first letter lowered.
export function lowerFirst(text) { return text.charAt(0).toLowerCase() + text.slice(1); }

// What the on/off switch did, in the words of a phone's clock.
export function onSaid(alarm, now) {
  if (alarm.on === false) return "Off: the alarm at " + alarmName(alarm) + " does not ring until you turn it on again.";
  return "On: the alarm at " + alarmName(alarm) + " is on again; " + ringsNext(alarm, now) + ".";
}

// An edit of `alarm` as the page sends it (PUT /api/alarms/ID): only what the person changed.
// `draft`: {time, days, date, label, snooze ("" for none), target, holidays}. Null when nothing
// changed; {error, input} when the draft cannot be sent.
export function editBody(alarm, draft) {
  const body = {};
  const time = parseTime(draft.time);
  if (!time) return { error: "Write the time on the 24-hour clock, as 06:45 or 21:30.", input: "time" };
  if (time !== alarm.time) body.at = time;
  const days = ordered(draft.days);
  if (days.length) {
    if (!sameDays(days, alarm.days || []) || alarm.date) body.days = days.join(",");
  } else {
    if (!draft.date) return { error: "Choose the day it rings once.", input: "date" };
    if ((alarm.days || []).length || draft.date !== alarm.date) body.date = draft.date;
  }
  const label = draft.label.trim();
  if (label !== (alarm.label || "")) body.label = label || null;
  if (String(draft.snooze) !== String(alarm.snooze || "")) body.snooze = draft.snooze ? Number(draft.snooze) : null;
  if (draft.target !== alarm.target) body.target = draft.target;
  if (draft.holidays !== undefined && draft.holidays !== Boolean(alarm.skipsHolidays)) body.skipHolidays = draft.holidays;
  return Object.keys(body).length ? { body } : null;
}

// The file name a download's `Content-Disposition` gives (`attachment; filename="x.tar"`), kept to
// a plain name (no folder, no quote); `fallback` when there is none.
export function attachmentName(disposition, fallback) {
  const match = /filename="?([^";]+)"?/i.exec(disposition || "");
  const name = match ? match[1].split(/[\\/]/).pop().trim() : "";
  return name && !name.startsWith(".") ? name : fallback;
}
