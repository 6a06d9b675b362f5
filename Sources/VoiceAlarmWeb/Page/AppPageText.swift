/// The page a paired device sees: ringing now, alarms, recording, clips, playlists, status.
/// Its content comes from the JSON API alone (`AppScriptText`).
enum AppPageText {
    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>VoiceAlarm</title>
    <link rel="stylesheet" href="/style.css">
    <script src="/device.js" defer></script>
    <script src="/app.js" defer></script>
    </head>
    <body>
    <main>
    <h1>VoiceAlarm</h1>
    <p id="summary" class="muted" aria-live="polite"></p>
    <section id="ringing" hidden aria-labelledby="ringing-title" role="alert">
      <h2 id="ringing-title">Ringing now</h2>
      <div class="row">
        <button id="stop" class="primary">Stop</button>
        <button id="snooze">Snooze</button>
      </div>
    </section>
    <p id="message" role="status" aria-live="polite"></p>
    <p id="problem" class="warning" role="alert" aria-live="assertive"></p>

    <section aria-labelledby="alarms-title">
      <h2 id="alarms-title">Alarms</h2>
      <ul id="alarms" class="items"></ul>
      <p class="muted">Wake up to my voice: off uses the standard sound and deletes the alarm's voice file. People share bedrooms; the feature should never be a surprise to a partner.</p>
      <details id="add-alarm">
        <summary>Add an alarm</summary>
        <form id="alarm-form">
          <label for="alarm-target">Plays</label>
          <select id="alarm-target" required></select>
          <label for="alarm-time">Time</label>
          <input id="alarm-time" type="time" required>
          <fieldset>
            <legend>Days (none: once)</legend>
            <label><input type="checkbox" value="mon">Mon</label><label><input type="checkbox" value="tue">Tue</label><label><input type="checkbox" value="wed">Wed</label><label><input type="checkbox" value="thu">Thu</label><label><input type="checkbox" value="fri">Fri</label><label><input type="checkbox" value="sat">Sat</label><label><input type="checkbox" value="sun">Sun</label>
          </fieldset>
          <label for="alarm-label">Label (optional)</label>
          <input id="alarm-label" maxlength="100">
          <label for="alarm-snooze">Snooze minutes (optional; empty: no snooze)</label>
          <input id="alarm-snooze" type="number" min="1" max="30" inputmode="numeric">
          <label class="switch"><input id="alarm-voice" type="checkbox" role="switch" checked>Wake up to my voice</label>
          <button type="submit" class="primary">Add alarm</button>
        </form>
      </details>
    </section>

    <section aria-labelledby="record-title">
      <h2 id="record-title">Record</h2>
      <label for="record-title-input">Title (optional)</label>
      <input id="record-title-input" maxlength="200" placeholder="I am calm and ready">
      <div class="row">
        <button id="record" class="primary">Record</button>
        <button id="record-stop" disabled>Stop recording</button>
        <span id="record-time" class="muted" aria-live="off">0:00</span>
      </div>
      <label for="level">Level</label>
      <meter id="level" min="0" max="1" value="0" low="0.05" high="0.9" optimum="0.5">0</meter>
      <p class="muted">Or send a recording from this device:</p>
      <label for="upload">Audio file</label>
      <input id="upload" type="file" accept="audio/*" capture>
      <button id="upload-send">Upload</button>
    </section>

    <section aria-labelledby="clips-title">
      <h2 id="clips-title">Clips</h2>
      <ul id="clips" class="items"></ul>
      <details>
        <summary>Say it for me until I record it</summary>
        <form id="say-form">
          <label for="say-text">Text</label>
          <input id="say-text" maxlength="500" required>
          <button type="submit">Make a spoken stand-in</button>
        </form>
      </details>
    </section>

    <section aria-labelledby="playlists-title">
      <h2 id="playlists-title">Playlists</h2>
      <ul id="playlists" class="items"></ul>
      <form id="playlist-form">
        <label for="playlist-name">New playlist</label>
        <input id="playlist-name" maxlength="100" required>
        <button type="submit">Create</button>
      </form>
      <h3>Manifesto</h3>
      <div id="manifesto"></div>
    </section>

    <section aria-labelledby="status-title">
      <h2 id="status-title">Status</h2>
      <div id="status"></div>
      <h3>Paired devices</h3>
      <ul id="devices" class="items"></ul>
    </section>
    <audio id="player" controls hidden></audio>
    </main>
    </body>
    </html>
    """#
}
