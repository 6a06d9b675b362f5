// The Machine view: what the bedside machine holds and how it rings, what only its owner can
// fix (in plain words), and the paired phones and scripts.
import { $, el, redraw } from "./dom.mjs";
import * as L from "./page-logic.mjs";
import { store, api } from "./page.mjs";
import { actionButton, removal, resultLine } from "./ui.mjs";

// "Download a backup": the library as `voicealarm export` writes it (recordings, playlists,
// alarms, settings, holidays; never a paired phone or key), fetched through this page's session
// and saved under the machine's name for it. `voicealarm import` brings it back on a new machine.
async function downloadBackup() {
  const response = await api.send("GET", "/api/backup", { headers: {} });
  if (!response.ok) throw new Error("The bedside machine could not write a backup (" + response.status + ").");
  const name = L.attachmentName(response.headers.get("Content-Disposition"), "voicealarm-backup.tar");
  const url = URL.createObjectURL(await response.blob());
  const link = el("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
  return "Saved " + name + ". On a new machine: voicealarm import " + name + ". Phones pair again there.";
}

function backupPart() {
  return el("div", { className: "backup" },
    el("h3", {}, "Moving to a new machine"),
    el("p", { className: "muted small" }, "A backup holds your recordings, playlists, alarms and settings, never a paired phone or key."),
    actionButton("Download a backup", "backup", "backup", downloadBackup),
    resultLine("backup"));
}

function drawMachine() {
  if (!store.state || store.offline) {
    redraw($("machine"), store.offline ? [el("p", { className: "stale" }, "Not known while the bedside machine cannot be reached.")] : []);
    return;
  }
  const status = store.state.status;
  const doctor = status.doctor;
  const now = store.now();
  const facts = el("dl", { className: "facts" });
  const fact = (term, text) => facts.append(el("dt", {}, term), el("dd", {}, text));
  fact("Alarms", L.plural(doctor.alarms, "alarm") + " set, " + doctor.live + " still to ring, " + doctor.withVoice + " with your voice");
  fact("Rings through", doctor.scheduler === "systemd" ? "the machine's own timers" : doctor.scheduler ? "VoiceAlarm's alarm service" : "nothing yet");
  if (doctor.daemonService) fact("Alarm service", doctor.daemonService);
  fact("Speaker", "'" + doctor.device + "'" + (status.deviceChecked ? (doctor.deviceOpens ? " (opens)" : " (does not open)")
    : ": not tried from the phone, so it is never held when an alarm starts. \"Ring it here now\" on an alarm tries it."));
  fact("Waking from sleep", doctor.wake.canWake ? "Alarms can wake the machine from sleep." : "Alarms cannot wake the machine from sleep" + (doctor.wake.reason ? ": " + doctor.wake.reason : "."));
  const byID = new Map(store.state.alarms.map((alarm) => [alarm.id, alarm]));
  const notes = el("ul", { className: "items" });
  for (const fallback of status.defaultTone) {
    const alarm = byID.get(fallback.id);
    notes.append(el("li", { className: "problem minor" }, L.sentence((alarm ? "The alarm at " + L.alarmName(alarm) : "An alarm") + " plays the standard sound: " + fallback.reason)));
  }
  for (const snoozed of status.snoozed) {
    const alarm = byID.get(snoozed.alarm);
    notes.append(el("li", {}, (alarm ? "The alarm at " + L.alarmName(alarm) : "An alarm") + " is snoozed: it rings again " + L.whenText(snoozed.ringAt, now) + "."));
  }
  // What only the machine's owner can fix: said here, not on the phone's other views.
  const owner = L.ownerHealth(status.health);
  const ownerPart = el("div", { className: "owner" }, el("h3", {}, "For the machine's owner"));
  for (const item of owner) ownerPart.append(el("p", { className: "problem minor", "data-code": item.code }, L.sentence(item.sentence)));
  ownerPart.append(el("p", { className: "muted small" }, "The library is kept in " + doctor.dataDir + " on the bedside machine."));
  const phone = L.phoneHealth(status.health);
  const summary = el("p", {}, phone.length === 0 ? "Everything is set to ring." : "What needs doing is said at the top of the page.");
  redraw($("machine"), [summary, notes, facts, ownerPart, backupPart()]);
}

function drawDevices() {
  if (!store.state || store.offline) {
    redraw($("devices"), store.offline ? [el("li", { className: "stale" }, "Not shown while the bedside machine cannot be reached: what it holds may have changed.")] : []);
    return;
  }
  const now = store.now();
  const mine = $("devices").dataset.mine || null;
  redraw($("devices"), store.state.devices.map((device) => {
    const card = "device:" + device.id;
    const item = el("li", { className: "card", "data-card": card },
      el("p", { className: "alarm-label" }, device.name + (device.id === mine ? " (this phone)" : "")),
      el("p", { className: "muted small" }, (device.kind === "token" ? "A script" : "A phone or browser") + ", paired " +
        L.whenText(device.created, now) + (device.lastSeen ? "; last seen " + L.whenText(device.lastSeen, now) : "")));
    item.append(...removal(card, {
      label: "Revoke", aria: "Revoke " + device.name, question: "Revoke " + device.name + "? It will have to pair again.",
      yes: "Revoke", yesAria: "Yes, revoke " + device.name,
      act: () => api.call("DELETE", "/api/devices/" + device.id),
      list: "devices", done: { text: "Revoked " + device.name + ".", about: ["device:" + device.id] }, draw: drawDevices,
    }));
    item.append(resultLine(card));
    return item;
  }));
}

export function startMachine(thisDevice) {
  thisDevice.then((id) => { $("devices").dataset.mine = id || ""; drawDevices(); }).catch(() => {});
  store.subscribe((changed) => {
    const all = changed.has("connection");
    if (all || changed.has("status") || changed.has("alarms")) drawMachine();
    if (all || changed.has("devices")) drawDevices();
  });
}
