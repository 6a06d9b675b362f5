// The page's own logic, without a browser: `node --test Tests/Page` (make lint-page runs it).
import test from "node:test";
import assert from "node:assert";
import * as L from "../../Sources/VoiceAlarmWeb/Page/page-logic.mjs";

test("days read as a person says them", () => {
  assert.strictEqual(L.daysText(["mon", "tue", "wed", "thu", "fri"]), "Weekdays");
  assert.strictEqual(L.daysText(["sun", "sat"]), "Weekends");
  assert.strictEqual(L.daysText(L.WEEK), "Every day");
  assert.strictEqual(L.daysText(["fri", "mon", "wed"]), "Mon, Wed, Fri");
  assert.strictEqual(L.daysText([], "2025-12-01"), "Once, Mon 1 Dec");
  assert.strictEqual(L.daysText([], null), "Once");
});

test("the shortcuts choose the command line's weekdays, weekends and daily", () => {
  assert.deepStrictEqual(L.daysFor("weekdays"), ["mon", "tue", "wed", "thu", "fri"]);
  assert.deepStrictEqual(L.daysFor("weekends"), ["sat", "sun"]);
  assert.deepStrictEqual(L.daysFor("daily"), L.WEEK);
  assert.deepStrictEqual(L.daysFor(""), []);
  assert.strictEqual(L.shortcutOf(["fri", "thu", "wed", "tue", "mon"]), "weekdays");
  assert.strictEqual(L.shortcutOf([]), "");
  assert.strictEqual(L.shortcutOf(["mon"]), undefined);
  assert.strictEqual(L.daysSaid(["sat", "sun"]), "Rings on Saturday and Sunday.");
  assert.strictEqual(L.daysSaid(["tue", "mon"]), "Rings on Monday, Tuesday.");
});

test("the next ring reads by the bedside machine's calendar, not the phone's", () => {
  // 23:00 on Friday 5 December at the machine (UTC+1); the alarm is at 06:45 the next morning.
  const now = Date.parse("2025-12-05T22:00:00Z");
  assert.strictEqual(L.nextText("2025-12-06T06:45:00+01:00", now), "Rings tomorrow at 06:45 (in 7 h 45 min)");
  assert.strictEqual(L.whenText("2025-12-05T23:30:00+01:00", now), "today at 23:30");
  assert.strictEqual(L.whenText("2025-12-09T06:45:00+01:00", now), "Tue 9 Dec at 06:45");
  assert.strictEqual(L.nextText(null, now), "Will not ring again");
  assert.strictEqual(L.inText(30 * 1000), "in under a minute");
  assert.strictEqual(L.inText(3 * 86400000), "in 3 days");
});

test("only a JSON answer is parsed; any other failure is a sentence, never a parser's error", () => {
  const proxy = L.reading(502, "text/html", "<html><body>Bad gateway</body></html>");
  assert.strictEqual(proxy.ok, false);
  assert.match(proxy.message, /^The bedside machine did not answer \(error 502\)/);
  assert.doesNotMatch(proxy.message, /Unexpected token|JSON/);
  const refused = L.reading(409, "application/json; charset=utf-8", '{"error": {"message": "the alarm at 06:45 mon-fri (morning) rings in the same minute", "input": "at", "code": 1}}');
  assert.strictEqual(refused.message, "The alarm at 06:45 mon-fri (morning) rings in the same minute.");
  const mislabelled = L.reading(500, "text/plain", '{"error": {"message": "not for the page"}}');
  assert.strictEqual(mislabelled.data, null);
  assert.strictEqual(mislabelled.message, "The bedside machine could not do that (error 500).");
  const broken = L.reading(400, "application/json", "{not json");
  assert.strictEqual(broken.message, "The bedside machine refused that (error 400).");
  const fine = L.reading(201, "application/json", '{"id": "x"}');
  assert.deepStrictEqual([fine.ok, fine.data.id], [true, "x"]);
  assert.strictEqual(L.reading(204, "", "").data, null);
});

test("a request that cannot reach the machine says so in the phone's words", () => {
  assert.strictEqual(L.failureSentence(new TypeError("Failed to fetch")), "The bedside machine cannot be reached from this phone right now.");
  assert.strictEqual(L.failureSentence(new Error("this clip: 2 alarms play it")), "This clip: 2 alarms play it.");
});

test("the banner names what rings: its time and label", () => {
  assert.strictEqual(L.ringingWhat([{ time: "06:45", label: "Run" }]), "06:45 · Run");
  assert.strictEqual(L.ringingWhat([{ time: "07:00", label: null }]), "07:00");
  assert.strictEqual(L.ringingWhat([{ time: null, label: null }]), "An alarm");
  assert.strictEqual(L.ringingWhat([]), "");
});

test("problems that stop alarms ringing come first", () => {
  const health = [{ code: "lingeringOff", stopsRinging: false }, { code: "noDaemon", stopsRinging: true }, { code: "drift", stopsRinging: false }];
  assert.deepStrictEqual(L.healthOrder(health).map((item) => item.code), ["noDaemon", "lingeringOff", "drift"]);
});

test("the soonest alarm is the next to ring", () => {
  const alarms = [{ id: "a", next: "2025-12-08T07:00:00+01:00" }, { id: "b", next: null }, { id: "c", next: "2025-12-06T06:45:00+01:00" }];
  assert.strictEqual(L.soonest(alarms).id, "c");
  assert.strictEqual(L.soonest([{ id: "b", next: null }]), null);
});

test("a playlist's order after Up, Down and Take out", () => {
  assert.deepStrictEqual(L.moved(["a", "b", "c"], 2, 1), ["a", "c", "b"]);
  assert.deepStrictEqual(L.moved(["a", "b", "c"], 0, 1), ["b", "a", "c"]);
  assert.deepStrictEqual(L.without(["a", "b", "a"], 2), ["a", "b"]);
});

test("a browser records in the first type it can: WebM/Opus, else MP4 as Safari does", () => {
  assert.strictEqual(L.recordingType((type) => type.startsWith("audio/webm")), "audio/webm;codecs=opus");
  assert.strictEqual(L.recordingType((type) => type === "audio/mp4"), "audio/mp4");
  assert.strictEqual(L.recordingType(() => false), "");
});

test("lengths, the recording clock, sentences and the wait before trying again", () => {
  assert.strictEqual(L.duration(4.389), "4.4 s");
  assert.strictEqual(L.duration(65.2), "1 min 05 s");
  assert.strictEqual(L.clock(4.9), "0:04");
  assert.strictEqual(L.clock(600), "10:00");
  assert.strictEqual(L.sentence("nothing of ours is ringing"), "Nothing of ours is ringing.");
  assert.strictEqual(L.sentence("Stopped."), "Stopped.");
  assert.deepStrictEqual([0, 1, 2, 3, 4, 9].map(L.retryDelay), [2, 4, 8, 16, 30, 30]);
});

test("an alarm is named by its time and label in the labels of its buttons", () => {
  assert.strictEqual(L.alarmName({ time: "07:30", label: "Run" }), "07:30, Run");
  assert.strictEqual(L.alarmName({ time: "07:30", label: null }), "07:30");
});

test("a recording whose MP4 boxes repeat (WebKitGTK's MediaRecorder) loses the copies, and nothing else", () => {
  const box = (type, ...payload) => Uint8Array.from([0, 0, 0, 8 + payload.length, ...Buffer.from(type), ...payload]);
  const join = (...parts) => Uint8Array.from(parts.flatMap((part) => Array.from(part)));
  const ftyp = box("ftyp", 1), moov = box("moov", 2), moof1 = box("moof", 1), mdat1 = box("mdat", 9, 9), moof2 = box("moof", 2), mdat2 = box("mdat", 8);
  const recorded = join(ftyp, ftyp, moov, moof1, mdat1, moof2, moof2, mdat2);
  assert.deepStrictEqual(Array.from(L.withoutRepeatedBoxes(recorded)), Array.from(join(ftyp, moov, moof1, mdat1, moof2, mdat2)));
  const whole = join(ftyp, moov, moof1, mdat1, moof2, mdat2);
  assert.strictEqual(L.withoutRepeatedBoxes(whole), whole, "a well-formed file is given back as it is");
  const notBoxes = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.strictEqual(L.withoutRepeatedBoxes(notBoxes), notBoxes);
  const sameTypeOtherBytes = join(ftyp, moof1, moof2);
  assert.strictEqual(L.withoutRepeatedBoxes(sameTypeOtherBytes), sameTypeOtherBytes, "two fragments are not one twice");
});

test("plurals are right: 1 alarm, 2 alarms, 0 recordings", () => {
  assert.strictEqual(L.plural(1, "alarm"), "1 alarm");
  assert.strictEqual(L.plural(2, "alarm"), "2 alarms");
  assert.strictEqual(L.plural(0, "recording"), "0 recordings");
  assert.strictEqual(L.plural(3, "person", "people"), "3 people");
});

test("a time is read on the 24-hour clock, as typed on a number pad or with a colon", () => {
  for (const [typed, read] of [["06:45", "06:45"], ["6:45", "06:45"], ["0645", "06:45"], ["645", "06:45"], ["6.45", "06:45"],
    ["21 30", "21:30"], ["7", "07:00"], [" 23:59 ", "23:59"], ["00:00", "00:00"]]) {
    assert.strictEqual(L.parseTime(typed), read, typed);
  }
  for (const wrong of ["24:00", "12:60", "6:5", "abc", "", "06:45 AM", "1:2:3", "12345"]) assert.strictEqual(L.parseTime(wrong), null, wrong);
});

test("the top of the alarm view says how long until the next alarm, by the machine's clock", () => {
  const now = Date.parse("2025-12-05T22:16:00Z");
  const alarms = [{ id: "a", days: ["sat"], next: "2025-12-06T06:45:00+01:00", label: "Run" }, { id: "b", days: [], next: null }];
  assert.deepStrictEqual(L.headline(alarms, now, false), { big: "Alarm in 7 h 29 min", small: "Tomorrow at 06:45 · Run" });
  assert.match(L.headline(alarms, now, true).small, /It will not ring until the problem above is solved\.$/);
  assert.strictEqual(L.headline([], now, false).big, "No alarm set");
  assert.strictEqual(L.headline([{ id: "b", days: [], next: null }], now, false).big, "No alarm will ring");
  // The phone's clock 5 minutes slow: the machine's time said in the answer sets it right.
  const offset = L.clockOffset("2025-12-05T23:16:00+01:00", now - 5 * 60000);
  assert.strictEqual(offset, 5 * 60000);
  assert.strictEqual(L.clockOffset("not a time", now), 0);
});

test("a one-off whose time has passed leaves the list; a weekly alarm stays until the machine says its next ring", () => {
  const once = { id: "once", days: [], date: "2025-12-06", next: "2025-12-06T00:28:00+01:00" };
  const weekly = { id: "weekly", days: ["sat"], next: "2025-12-06T00:28:00+01:00" };
  const before = Date.parse("2025-12-06T00:27:59+01:00");
  const after = Date.parse("2025-12-06T00:28:00+01:00");
  assert.deepStrictEqual(L.current([once, weekly], before).map((alarm) => alarm.id), ["once", "weekly"]);
  assert.deepStrictEqual(L.current([once, weekly], after).map((alarm) => alarm.id), ["weekly"]);
  assert.strictEqual(L.passed([weekly], before), false);
  assert.strictEqual(L.passed([weekly], after), true);
});

test("each ring is its own: the same alarm ringing again is another ring", () => {
  const first = { alarm: "a", since: "2025-12-06T00:26:00+01:00" };
  const again = { alarm: "a", since: "2025-12-06T00:30:00+01:00" };
  assert.notStrictEqual(L.ringsKey([first]), L.ringsKey([again]));
  assert.strictEqual(L.ringsKey([first, again]), L.ringsKey([again, first]));
  assert.strictEqual(L.ringingTitle([{ alarm: "a", test: true }]), "Test ring on the bedside speaker");
  assert.strictEqual(L.ringingTitle([{ alarm: "a", test: false }]), "Ringing now");
});

test("what only the machine's owner can fix is kept off the phone's views", () => {
  const health = [{ code: "buildFolder", stopsRinging: false, owner: true }, { code: "noDaemon", stopsRinging: true, owner: false },
    { code: "lingeringOff", stopsRinging: false, owner: false }];
  assert.deepStrictEqual(L.phoneHealth(health).map((item) => item.code), ["noDaemon", "lingeringOff"]);
  assert.deepStrictEqual(L.ownerHealth(health).map((item) => item.code), ["buildFolder"]);
});

test("voice off keeps the recordings, in a person's words", () => {
  assert.strictEqual(L.voiceSaid({ time: "06:45", voice: false }), "Voice off: the alarm at 06:45 plays the standard sound; your recordings are kept.");
  assert.strictEqual(L.voiceSaid({ time: "06:45", voice: true }), "Voice on: the alarm at 06:45 wakes you with your voice.");
});

test("a test ring says which device rang, for how long, and whether it made sound", () => {
  const ring = { alarm: "a", device: "default", sound: "voice", seconds: 10.02, problem: null, at: "2025-12-06T22:00:00+01:00" };
  assert.strictEqual(L.testRingUnderWay(Object.assign({}, ring, { state: "asked" })), "Asked the bedside machine to ring it…");
  assert.strictEqual(L.testRingUnderWay(Object.assign({}, ring, { state: "ringing" })), "Ringing on 'default' now…");
  assert.strictEqual(L.testRingUnderWay(Object.assign({}, ring, { state: "rang" })), null);
  assert.deepStrictEqual(L.testRingResult(Object.assign({}, ring, { state: "rang" })), { text: "Rang on 'default' for 10 s. It played your voice.", error: false });
  assert.deepStrictEqual(L.testRingResult(Object.assign({}, ring, { state: "rang", sound: "standard", problem: "it made no sound: the speaker is muted" })),
    { text: "Rang on 'default' for 10 s. It made no sound: the speaker is muted.", error: true });
  assert.deepStrictEqual(L.testRingResult(Object.assign({}, ring, { state: "failed", device: null, seconds: null, problem: "the sound device does not open" })),
    { text: "The sound device does not open.", error: true });
  assert.strictEqual(L.testRingResult(null), null);
});

test("a message's facets change exactly when what it speaks of does", () => {
  const alarm = { id: "a", time: "06:45", voice: true, next: "2025-12-06T06:45:00+01:00" };
  const state = { alarms: [alarm], clips: [], playlists: [{ name: "morning", clips: [] }], manifesto: null, devices: [],
    status: { ringing: [], health: [{ code: "noDaemon" }], testRing: null } };
  const changed = (edit, name) => {
    const copy = JSON.parse(JSON.stringify(state));
    edit(copy);
    return L.facet(state, name) !== L.facet(copy, name);
  };
  assert.strictEqual(changed((s) => { s.status.health = []; }, "health"), true, "the daemon started: 'Nothing will ring' goes");
  assert.strictEqual(changed((s) => { s.alarms[0].voice = false; }, "voice:a"), true);
  assert.strictEqual(changed((s) => { s.alarms[0].sound = "x.m4a"; }, "voice:a"), false, "a rebuilt sound is not the switch");
  assert.strictEqual(changed((s) => { s.alarms[0].next = null; }, "next:a"), true);
  assert.strictEqual(changed((s) => { s.alarms = []; }, "next:a"), true, "removed");
  assert.strictEqual(changed((s) => { s.playlists[0].clips.push({ id: "c" }); }, "playlist:morning"), true);
  assert.strictEqual(changed((s) => { s.clips.push({ id: "c" }); }, "playlist:morning"), false);
  assert.strictEqual(changed((s) => { s.status.testRing = { state: "rang" }; }, "testRing"), true);
});

test("a one-off rings by default the next time the machine's clock shows its time", () => {
  // 23:30 on Monday 7 December 2026 at the machine (UTC+1): 22:30 UTC.
  const clock = L.machineClock("2026-12-07T23:30:00+01:00", Date.parse("2026-12-07T22:30:00Z"));
  assert.deepStrictEqual(clock, { date: "2026-12-07", time: "23:30" });
  assert.strictEqual(L.onceDate("23:45", clock), "2026-12-07");
  assert.strictEqual(L.onceDate("23:30", clock), "2026-12-08");
  assert.strictEqual(L.onceDate("06:45", clock), "2026-12-08");
  assert.strictEqual(L.addDays("2026-12-31", 1), "2027-01-01");
  assert.strictEqual(L.addDays("2028-02-28", 1), "2028-02-29");
});

test("skipped days and the switch read as a phone's clock says them", () => {
  assert.strictEqual(L.datesText(["2026-12-08"]), "Tue 8 Dec");
  assert.strictEqual(L.datesText(["2026-12-08", "2026-12-09", "2026-12-10"]), "Tue 8 Dec, Wed 9 Dec and Thu 10 Dec");
  const now = Date.parse("2026-12-07T20:00:00Z");
  const alarm = { time: "07:30", label: "Run", on: true, next: "2026-12-09T07:30:00+01:00" };
  assert.strictEqual(L.nextDate(alarm), "2026-12-09");
  assert.strictEqual(L.onSaid(alarm, now), "On: the alarm at 07:30, Run is on again; it rings Wed 9 Dec at 07:30 (in 34 h 30 min).");
  assert.strictEqual(L.onSaid(Object.assign({}, alarm, { on: false, next: null }), now),
    "Off: the alarm at 07:30, Run does not ring until you turn it on again.");
  assert.strictEqual(L.lowerFirst("Once, Tue 8 Dec"), "once, Tue 8 Dec");
});

test("an edit sends only what the person changed", () => {
  const alarm = { time: "07:30", days: ["mon", "tue", "wed", "thu", "fri"], date: null, label: "Run", snooze: 9, target: "morning", skipsHolidays: false };
  const draft = () => ({ time: "07:30", days: alarm.days.slice(), date: "2026-12-08", label: "Run", snooze: "9", target: "morning", holidays: false });
  assert.strictEqual(L.editBody(alarm, draft()), null);
  assert.deepStrictEqual(L.editBody(alarm, Object.assign(draft(), { time: "0745" })), { body: { at: "07:45" } });
  assert.deepStrictEqual(L.editBody(alarm, Object.assign(draft(), { days: [] })), { body: { date: "2026-12-08" } });
  assert.deepStrictEqual(L.editBody(alarm, Object.assign(draft(), { label: " ", snooze: "", holidays: true })),
    { body: { label: null, snooze: null, skipHolidays: true } });
  assert.strictEqual(L.editBody(alarm, Object.assign(draft(), { time: "25:00" })).input, "time");
  const once = { time: "08:15", days: [], date: "2026-12-08", label: null, snooze: null, target: "morning" };
  assert.deepStrictEqual(L.editBody(once, { time: "08:15", days: ["sat"], date: "2026-12-08", label: "", snooze: "", target: "morning" }), { body: { days: "sat" } });
});

test("a backup is saved under the name the machine gives it, kept to a plain file name", () => {
  assert.strictEqual(L.attachmentName('attachment; filename="voicealarm-backup-2026-12-07.tar"', "b.tar"), "voicealarm-backup-2026-12-07.tar");
  assert.strictEqual(L.attachmentName("attachment; filename=x.tar", "b.tar"), "x.tar");
  assert.strictEqual(L.attachmentName('attachment; filename="../../etc/x.tar"', "b.tar"), "x.tar");
  assert.strictEqual(L.attachmentName('attachment; filename=".hidden"', "b.tar"), "b.tar");
  assert.strictEqual(L.attachmentName(null, "b.tar"), "b.tar");
});
