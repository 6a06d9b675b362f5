/// The page's script: everything it shows comes from the JSON API, everything it changes goes
/// through it. No framework, nothing from elsewhere; text is set with `textContent`, never as HTML.
enum AppScriptText {
    static let script = #"""
    "use strict";
    const $ = (id) => document.getElementById(id);
    const CAP = 29;
    const MAX_RECORDING = 600;
    let clips = [];
    let playlists = [];

    function say(text) { $("message").textContent = text; $("problem").textContent = ""; }
    function fail(text) { $("problem").textContent = text; }

    // The session this page signed for with the device key (memory only: a reload signs anew).
    let session = null;

    function unpaired() { location.replace("/pair"); return new Error("this device is not paired"); }

    async function startSession() {
      const post = (body) => fetch("/api/session", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      const asked = await post({});
      if (!asked.ok) throw unpaired();
      const { challenge } = await asked.json();
      const signature = await DeviceKey.sign("voicealarm session\n" + location.origin + "\n" + challenge);
      if (!signature) throw unpaired();
      const opened = await post({ challenge, signature });
      if (!opened.ok) throw unpaired();
      session = (await opened.json()).session;
    }

    // A request with this page's session; one that ended is signed for again, once.
    async function send(method, path, options) {
      for (let attempt = 0; ; attempt++) {
        if (!session) await startSession();
        options.method = method;
        options.headers["X-VoiceAlarm-Session"] = session;
        const response = await fetch(path, options);
        if (response.status !== 401) return response;
        const data = await response.json().catch(() => null);
        if (attempt > 0 || !data || !data.error || data.error.input !== "session") throw unpaired();
        session = null;
      }
    }

    async function api(method, path, body, contentType) {
      const options = { headers: {} };
      if (body !== undefined) {
        if (contentType) { options.body = body; options.headers["Content-Type"] = contentType; }
        else { options.body = JSON.stringify(body); options.headers["Content-Type"] = "application/json"; }
      }
      const response = await send(method, path, options);
      const text = await response.text();
      const data = text ? JSON.parse(text) : null;
      if (!response.ok) {
        const error = new Error(data && data.error ? data.error.message : method + " " + path + ": " + response.status);
        error.status = response.status;
        throw error;
      }
      return data;
    }

    // Audio and pictures come through the session too: fetched, then shown from memory.
    let shown = [];
    async function media(path) {
      const response = await send("GET", path, { headers: {} });
      if (!response.ok) {
        const data = await response.json().catch(() => null);
        throw new Error(data && data.error ? data.error.message : "GET " + path + ": " + response.status);
      }
      const url = URL.createObjectURL(await response.blob());
      shown.push(url);
      if (shown.length > 16) URL.revokeObjectURL(shown.shift());
      return url;
    }

    function element(tag, text, className) {
      const node = document.createElement(tag);
      if (text !== undefined) node.textContent = text;
      if (className) node.className = className;
      return node;
    }

    function button(text, onClick, className) {
      const node = element("button", text, className);
      node.type = "button";
      node.addEventListener("click", async () => {
        node.disabled = true;
        try { await onClick(); } catch (error) { fail(error.message); } finally { node.disabled = false; }
      });
      return node;
    }

    // Lists are redrawn from the API, and redraws overlap: the refresh an import starts may still
    // be under way when the next change starts its own. Each part of the page is drawn from its
    // newest request only, and is aria-busy until that answer is drawn: an older answer that
    // arrives late never paints over a newer one (a playlist just made would vanish).
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

    function when(iso) {
      if (!iso) return "has rung";
      const date = new Date(iso);
      return date.toLocaleString([], { weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
    }

    function seconds(value) { return value.toFixed(1) + " s"; }

    async function play(path) {
      const player = $("player");
      player.hidden = false;
      player.src = await media(path);
      player.onended = null;
      return player.play();
    }

    function playAll(paths) {
      const player = $("player");
      let index = 0;
      player.hidden = false;
      const next = async () => {
        if (index >= paths.length) { player.onended = null; return; }
        try {
          player.src = await media(paths[index++]);
          await player.play();
        } catch (error) { fail(error.message); }
      };
      player.onended = next;
      return next();
    }

    // Ringing now: Stop and Snooze from the phone, while the bedside speaker rings.
    async function refreshStatus() {
      const status = await newest("status", () => api("GET", "/api/status"));
      if (status === undefined) return;
      $("ringing").hidden = status.ringing.length === 0;
      // Snooze only for an alarm set with one (as on the command line, snooze is opt-in).
      $("snooze").hidden = !status.ringing.some((ring) => ring.snooze !== null);
      const doctor = status.doctor;
      const parts = [];
      parts.push(doctor.problems.length === 0 ? "Everything is set to ring." : doctor.problems.length + " problem(s): see Status.");
      parts.push("Scheduler: " + (doctor.scheduler || "none"));
      $("summary").textContent = parts.join(" · ");
      const box = $("status");
      box.replaceChildren();
      const list = element("ul");
      list.append(element("li", "Scheduler: " + (doctor.scheduler || "none") + (doctor.daemonService ? " (" + doctor.daemonService + ")" : "")));
      list.append(element("li", "Sound device: " + doctor.device + (status.deviceChecked ? (doctor.deviceOpens ? " (opens)" : " (does not open)") : " (not tried from here)")));
      list.append(element("li", doctor.wake.canWake ? "Alarms can wake this machine from suspend." : "Alarms cannot wake this machine from suspend: " + (doctor.wake.reason || "")));
      list.append(element("li", doctor.alarms + " alarm(s), " + doctor.live + " still to ring, " + doctor.withVoice + " with voice."));
      for (const fallback of status.defaultTone) list.append(element("li", "Alarm " + fallback.id.slice(0, 8) + " rings with the default tone: " + fallback.reason, "warning"));
      for (const problem of doctor.problems) list.append(element("li", problem, "warning"));
      for (const snooze of status.snoozed) list.append(element("li", "Alarm " + snooze.alarm.slice(0, 8) + " is snoozed until " + when(snooze.ringAt) + "."));
      box.append(list);
    }

    async function refreshAlarms() {
      const alarms = await newest("alarms", () => api("GET", "/api/alarms"));
      if (alarms === undefined) return;
      const list = $("alarms");
      list.replaceChildren();
      if (alarms.length === 0) list.append(element("li", "No alarms yet."));
      for (const alarm of alarms) {
        const item = element("li");
        const head = element("div", "", "row");
        head.append(element("span", alarm.time, "time"));
        head.append(element("span", (alarm.days.length ? alarm.days.join(", ") : "once " + (alarm.date || "")) + " · " + alarm.target));
        item.append(head);
        if (alarm.label) item.append(element("div", alarm.label));
        item.append(element("div", "Next: " + when(alarm.next), "muted"));
        const sound = alarm.soundReason ? "Default tone (" + alarm.soundReason + ")" : "Your voice" + (alarm.spokenStandIns.length ? ", with a spoken stand-in" : "");
        item.append(element("div", sound + (alarm.snooze ? " · snooze " + alarm.snooze + " min" : ""), "muted"));
        const toggle = element("label", "", "switch");
        const box = element("input");
        box.type = "checkbox";
        box.setAttribute("role", "switch");
        box.checked = alarm.voice;
        box.addEventListener("change", async () => {
          box.disabled = true;
          try {
            const status = await api("PUT", "/api/alarms/" + alarm.id + "/voice", { on: box.checked });
            say(status.voice ? "Voice on: alarm at " + status.time + " wakes you with your voice." : "Voice off: the alarm at " + status.time + " rings with the default tone; its voice file is deleted.");
            await refreshAlarms();
          } catch (error) { fail(error.message); box.checked = !box.checked; } finally { box.disabled = false; }
        });
        toggle.append(box, document.createTextNode("Wake up to my voice (" + alarm.time + ")"));
        item.append(toggle);
        const actions = element("div", "", "row");
        if (alarm.sound !== "default") actions.append(button("Listen", () => play("/api/alarms/" + alarm.id + "/ringtone")));
        actions.append(button("Remove", async () => {
          if (!confirm("Remove the alarm at " + alarm.time + "?")) return;
          await api("DELETE", "/api/alarms/" + alarm.id);
          say("Removed the alarm at " + alarm.time + ".");
          await refreshAlarms();
        }, "danger"));
        item.append(actions);
        list.append(item);
      }
    }

    async function refreshClips() {
      const fresh = await newest("clips", () => api("GET", "/api/clips"));
      if (fresh === undefined) return;
      clips = fresh;
      const list = $("clips");
      list.replaceChildren();
      if (clips.length === 0) list.append(element("li", "No clips yet: record one above."));
      for (const clip of clips) {
        const item = element("li");
        item.append(element("div", clip.title + (clip.spokenText !== null ? " (spoken stand-in)" : "")));
        item.append(element("div", seconds(clip.duration), "muted"));
        const actions = element("div", "", "row");
        actions.append(button("Play", () => play("/api/clips/" + clip.id + "/audio")));
        actions.append(button("Rename", async () => {
          const title = prompt("New title", clip.title);
          if (!title) return;
          await api("PUT", "/api/clips/" + clip.id, { title });
          say("Renamed to '" + title + "'.");
          await refreshAll();
        }));
        actions.append(button("Remove", async () => {
          if (!confirm("Remove '" + clip.title + "' from the library and every playlist?")) return;
          try { await api("DELETE", "/api/clips/" + clip.id); }
          catch (error) {
            if (error.status !== 409 || !confirm(error.message + "\n\nRemove it anyway?")) throw error;
            await api("DELETE", "/api/clips/" + clip.id + "?force=true");
          }
          say("Removed '" + clip.title + "'.");
          await refreshAll();
        }, "danger"));
        item.append(actions);
        list.append(item);
      }
    }

    function clipSelect(label) {
      const select = element("select");
      select.setAttribute("aria-label", label);
      for (const clip of clips) {
        const option = element("option", clip.title + " (" + seconds(clip.duration) + ")");
        option.value = clip.id;
        select.append(option);
      }
      return select;
    }

    // The cap: clips play in order and the first that would cross 29 s is left out with all after it.
    function capWarning(playlist) {
      let used = 0;
      for (let i = 0; i < playlist.clips.length; i++) {
        if (used + playlist.clips[i].duration > CAP) {
          const left = playlist.clips.length - i;
          return "'" + playlist.clips[i].title + "' crosses the " + CAP + " s cap: " + left + " clip(s) will be left out of the ringtone.";
        }
        used += playlist.clips[i].duration;
      }
      return null;
    }

    async function savePlaylist(playlist, ids, words) {
      await api("PUT", "/api/playlists/" + encodeURIComponent(playlist.name), { clips: ids });
      say(words);
      await refreshAll();
    }

    async function refreshPlaylists() {
      const fresh = await newest("playlists", () => api("GET", "/api/playlists"));
      if (fresh === undefined) return;
      playlists = fresh;
      const list = $("playlists");
      list.replaceChildren();
      if (playlists.length === 0) list.append(element("li", "No playlists yet."));
      for (const playlist of playlists) {
        const item = element("li");
        item.append(element("div", playlist.name + " · " + seconds(playlist.duration), "time"));
        const warning = capWarning(playlist);
        if (warning) item.append(element("div", warning, "warning"));
        const ids = playlist.clips.map((clip) => clip.id);
        const order = element("ol");
        playlist.clips.forEach((clip, index) => {
          const row = element("li");
          row.append(element("span", clip.title + " (" + seconds(clip.duration) + ") "));
          const actions = element("span", "", "row");
          if (index > 0) actions.append(button("Up", () => {
            const moved = ids.slice(); moved.splice(index - 1, 0, moved.splice(index, 1)[0]);
            return savePlaylist(playlist, moved, "Moved '" + clip.title + "' up.");
          }));
          if (index < ids.length - 1) actions.append(button("Down", () => {
            const moved = ids.slice(); moved.splice(index + 1, 0, moved.splice(index, 1)[0]);
            return savePlaylist(playlist, moved, "Moved '" + clip.title + "' down.");
          }));
          actions.append(button("Take out", () => {
            const kept = ids.slice(); kept.splice(index, 1);
            return savePlaylist(playlist, kept, "Took '" + clip.title + "' out of " + playlist.name + ".");
          }, "danger"));
          row.append(actions);
          order.append(row);
        });
        item.append(order);
        const add = element("div", "", "row");
        const select = clipSelect("Clip to add to " + playlist.name);
        add.append(select, button("Add clip", () => savePlaylist(playlist, ids.concat([select.value]), "Added a clip to " + playlist.name + ".")));
        item.append(add);
        const actions = element("div", "", "row");
        actions.append(button("Play whole", () => playAll(playlist.clips.map((clip) => "/api/clips/" + clip.id + "/audio"))));
        actions.append(button("Picture", async () => {
          const picture = element("img", undefined, "picture");
          picture.alt = "The ringtone of " + playlist.name + ": each clip's waveform, the cap, and what is left out";
          picture.src = await media("/api/picture/" + encodeURIComponent(playlist.name));
          item.append(picture);
        }));
        actions.append(button("Delete", async () => {
          if (!confirm("Delete the playlist " + playlist.name + "?")) return;
          await api("DELETE", "/api/playlists/" + encodeURIComponent(playlist.name));
          say("Deleted " + playlist.name + ".");
          await refreshAll();
        }, "danger"));
        item.append(actions);
        list.append(item);
      }
      const target = $("alarm-target");
      const chosen = target.value;
      target.replaceChildren();
      for (const name of playlists.map((p) => p.name).concat(["manifesto"])) {
        const option = element("option", name);
        option.value = name;
        target.append(option);
      }
      if (chosen) target.value = chosen;
      const current = await newest("manifesto", () => api("GET", "/api/manifesto").catch(() => null));
      if (current === undefined) return;
      const manifesto = $("manifesto");
      manifesto.replaceChildren();
      manifesto.append(element("p", current && current.clips.length ? current.clips[0].title + " (" + seconds(current.duration) + ")" : "No manifesto recording yet."));
      const select = clipSelect("Manifesto recording");
      manifesto.append(select, button("Make it the manifesto", async () => {
        await api("PUT", "/api/manifesto", { clip: select.value });
        say("The manifesto is set.");
        await refreshAll();
      }));
    }

    async function refreshDevices() {
      const devices = await newest("devices", () => api("GET", "/api/devices"));
      if (devices === undefined) return;
      const list = $("devices");
      list.replaceChildren();
      for (const device of devices) {
        const item = element("li");
        item.append(element("div", device.name + " (" + device.kind + ")"));
        item.append(element("div", "Paired " + when(device.created) + (device.lastSeen ? " · last seen " + when(device.lastSeen) : ""), "muted"));
        item.append(button("Revoke", async () => {
          if (!confirm("Revoke " + device.name + "? It will have to pair again.")) return;
          await api("DELETE", "/api/devices/" + device.id);
          say("Revoked " + device.name + ".");
          await refreshDevices();
        }, "danger"));
        list.append(item);
      }
    }

    async function refreshAll() {
      try {
        await refreshClips();
        await refreshPlaylists();
        await Promise.all([refreshAlarms(), refreshStatus(), refreshDevices()]);
      } catch (error) { fail(error.message); }
    }

    async function upload(blob, type) {
      const title = $("record-title-input").value.trim();
      say("Importing the recording…");
      const clip = await api("POST", "/api/clips" + (title ? "?title=" + encodeURIComponent(title) : ""), blob, type || "application/octet-stream");
      say("Imported '" + clip.title + "' (" + seconds(clip.duration) + ").");
      $("record-title-input").value = "";
      await refreshAll();
    }

    // Recording: the phone's microphone through MediaRecorder, a live level, stopped by the
    // button or at 10 minutes; the upload is imported like 'clip import'.
    let recorder = null;
    async function startRecording() {
      // The voice as it is: the ringtone's loudness is set when it is built, and a call's echo
      // cancelling, noise gate and gain riding would only colour a recording made to keep.
      const stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
      const chunks = [];
      recorder = new MediaRecorder(stream);
      const context = new AudioContext();
      const analyser = context.createAnalyser();
      analyser.fftSize = 2048;
      context.createMediaStreamSource(stream).connect(analyser);
      const samples = new Float32Array(analyser.fftSize);
      const started = Date.now();
      const timer = setInterval(() => {
        analyser.getFloatTimeDomainData(samples);
        let peak = 0;
        for (const sample of samples) peak = Math.max(peak, Math.abs(sample));
        $("level").value = peak;
        const elapsed = Math.floor((Date.now() - started) / 1000);
        $("record-time").textContent = Math.floor(elapsed / 60) + ":" + String(elapsed % 60).padStart(2, "0");
        if (elapsed >= MAX_RECORDING && recorder && recorder.state === "recording") recorder.stop();
      }, 100);
      recorder.addEventListener("dataavailable", (event) => { if (event.data.size > 0) chunks.push(event.data); });
      recorder.addEventListener("stop", async () => {
        clearInterval(timer);
        stream.getTracks().forEach((track) => track.stop());
        context.close();
        $("level").value = 0;
        $("record").disabled = false;
        $("record-stop").disabled = true;
        const type = recorder.mimeType || "audio/webm";
        recorder = null;
        try { await upload(new Blob(chunks, { type }), type); } catch (error) { fail(error.message); }
      });
      recorder.start(1000);
      $("record").disabled = true;
      $("record-stop").disabled = false;
      say("Recording… press Stop recording when you are done.");
    }

    $("record").addEventListener("click", () => startRecording().catch((error) => fail("Recording is not possible here (" + error.message + "): send a file instead.")));
    $("record-stop").addEventListener("click", () => { if (recorder) recorder.stop(); });
    $("upload-send").addEventListener("click", async () => {
      const file = $("upload").files[0];
      if (!file) { fail("Choose an audio file first."); return; }
      try { await upload(file, file.type); } catch (error) { fail(error.message); }
    });

    $("say-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const clip = await api("POST", "/api/clips/say", { text: $("say-text").value });
        say("Made a spoken stand-in '" + clip.title + "'; record it in your own voice later.");
        $("say-text").value = "";
        await refreshAll();
      } catch (error) { fail(error.message); }
    });

    $("playlist-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const playlist = await api("POST", "/api/playlists", { name: $("playlist-name").value, clips: [] });
        say("Created " + playlist.name + ": add clips to it below.");
        $("playlist-name").value = "";
        await refreshAll();
      } catch (error) { fail(error.message); }
    });

    $("alarm-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      const days = Array.from(document.querySelectorAll("#alarm-form fieldset input:checked")).map((box) => box.value).join(",");
      const snooze = $("alarm-snooze").value;
      try {
        const added = await api("POST", "/api/alarms", {
          target: $("alarm-target").value, at: $("alarm-time").value, days,
          label: $("alarm-label").value, voice: $("alarm-voice").checked, snooze: snooze ? Number(snooze) : null,
        });
        say(["Added the alarm at " + added.alarm.time + "; it rings next " + when(added.alarm.next) + "."].concat(added.notes).join(" "));
        await refreshAll();
      } catch (error) { fail(error.message); }
    });

    $("stop").addEventListener("click", async () => {
      try {
        const stopped = await api("POST", "/api/stop");
        say(stopped.stopped.length ? "Stopped." : "Nothing was ringing.");
        await refreshStatus();
      } catch (error) { fail(error.message); }
    });
    $("snooze").addEventListener("click", async () => {
      try {
        const snoozed = await api("POST", "/api/snooze");
        say(snoozed.map((s) => "Snoozed: it rings again at " + when(s.ringAt) + ".").join(" "));
        await refreshStatus();
      } catch (error) { fail(error.message); }
    });

    refreshAll();
    setInterval(() => refreshStatus().catch(() => {}), 3000);
    """#
}
