/// The pairing page: the one page open to a browser that is not paired. It asks for the code
/// `voicealarm serve` printed (filled in from the link) and a name for the device.
enum PairPageText {
    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Pair this device · VoiceAlarm</title>
    <link rel="stylesheet" href="/style.css">
    <script src="/device.js" defer></script>
    <script src="/pair.js" defer></script>
    </head>
    <body>
    <main>
    <h1>VoiceAlarm</h1>
    <p>Pair this device to set your alarms and record your voice from it. The code is the one
    the bedside machine shows with its pairing link; a code works once, for 10 minutes.</p>
    <form id="pair">
      <label for="code">Pairing code</label>
      <input id="code" name="code" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" required>
      <label for="name">Name this device</label>
      <input id="name" name="name" value="Phone" maxlength="60" required>
      <button type="submit">Pair</button>
    </form>
    <p id="message" role="alert" aria-live="assertive"></p>
    </main>
    </body>
    </html>
    """#

    static let script = #"""
    "use strict";
    const form = document.getElementById("pair");
    const code = document.getElementById("code");
    const message = document.getElementById("message");
    const given = new URLSearchParams(location.search).get("code");
    if (given) {
      code.value = given;
      // The code leaves the address bar (and the history) at once.
      history.replaceState(null, "", "/pair");
    }
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      message.textContent = "Pairing…";
      try {
        // This browser's own key: its private half never leaves this page's storage.
        const key = await DeviceKey.make();
        const response = await fetch("/api/pair", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ code: code.value, name: document.getElementById("name").value, key }),
        });
        if (response.ok) { location.replace("/"); return; }
        const body = await response.json().catch(() => null);
        message.textContent = body && body.error ? body.error.message : "Pairing failed (" + response.status + ").";
      } catch (error) {
        message.textContent = "The bedside machine did not answer: " + error.message;
      }
    });
    """#
}
