// The page: everything it shows comes from one store of what the bedside machine said (kept live
// by a long poll, live.mjs), everything it changes goes through the API (api.mjs). No framework,
// nothing from elsewhere; text is set with `textContent`, never as HTML. What it decides without
// the DOM is in page-logic.mjs, store.mjs, live.mjs and messages.mjs, which `node --test` runs.
import { $ } from "./dom.mjs";
import { DeviceKey } from "./device.mjs";
import { store, api, live, messages } from "./page.mjs";
import { startTop } from "./view-top.mjs";
import { startAlarms } from "./view-alarms.mjs";
import { startVoice } from "./view-voice.mjs";
import { startRecorder } from "./recorder.mjs";
import { startMachine } from "./view-machine.mjs";

// Messages whose state changed go before anything is drawn from the new state.
store.subscribe(() => messages.prune());

startTop();
startAlarms();
startVoice();
startRecorder();
startMachine(DeviceKey.device());

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
showView(location.hash.slice(1), false);

// The clock: countdowns move on each minute of the machine's clock; a message whose time is over goes.
function everyMinute() {
  store.tick();
  setTimeout(everyMinute, 60000 - (store.now() % 60000) + 50);
}
setTimeout(everyMinute, 60000 - (store.now() % 60000) + 50);
setInterval(() => messages.prune(), 1000);

// Live while in front: asked at once when the page comes back, nothing asked while hidden.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState !== "visible") { live.stop(); return; }
  if (!api.offline) live.refresh().catch(() => {});
});
live.refresh().catch(() => {}).finally(() => { document.body.dataset.ready = "yes"; });

// The service worker keeps the page's own files for the home screen.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").then(() => { document.body.dataset.worker = "registered"; },
    (error) => { document.body.dataset.worker = "failed: " + error.message; });
}
