// The pairing page: the code (from the link, or typed), this browser's new key, and the answer.
import { DeviceKey } from "./device.mjs";
import { readAnswer, failureSentence } from "./page-logic.mjs";

const form = document.getElementById("pair");
const code = document.getElementById("code");
const message = document.getElementById("message");
const pairButton = document.getElementById("pair-button");
const given = new URLSearchParams(location.search).get("code");
// The authority's fingerprint the link carries after "#" (never sent to the server): what the
// phone must show before it is trusted.
const expected = new URLSearchParams(location.hash.slice(1)).get("authority");
if (expected && /^[0-9A-Fa-f]{64}$/.test(expected)) {
  document.getElementById("expected").textContent = expected.toUpperCase().match(/../g).slice(0, 8).join(":");
  document.getElementById("expected-wrap").hidden = false;
}
if (given || expected) {
  if (given) code.value = given;
  // The code leaves the address bar (and the history) at once.
  history.replaceState(null, "", "/pair");
}
function show(text, failed) {
  message.textContent = text;
  message.classList.toggle("error", Boolean(failed));
}
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (pairButton.disabled) return;
  pairButton.disabled = true;
  pairButton.classList.add("busy");
  show("Pairing…");
  try {
    // This browser's own key: its private half never leaves this page's storage.
    const key = await DeviceKey.make();
    const response = await fetch("/api/pair", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code: code.value, name: document.getElementById("name").value, key }),
    });
    const answer = await readAnswer(response);
    if (answer.ok) {
      await DeviceKey.remember(answer.data.id);
      location.replace("/");
      return;
    }
    show(answer.message, true);
  } catch (error) {
    show(failureSentence(error), true);
  } finally {
    pairButton.disabled = false;
    pairButton.classList.remove("busy");
  }
});
