// The Voice view: the recordings, the playlists they make, and the manifesto. Recording itself
// is recorder.mjs.
import { $, el, redraw, focusKey } from "./dom.mjs";
import * as L from "./page-logic.mjs";
import { store, api, live } from "./page.mjs";
import { actionButton, removal, resultLine, run } from "./ui.mjs";
import { play, playAll, picture, reattachPlayer } from "./player.mjs";

const STALE = "Not shown while the bedside machine cannot be reached: what it holds may have changed.";
const editing = new Set();

function clips() { return store.state.clips; }

function clipCard(clip) {
  const card = "clip:" + clip.id;
  const item = el("li", { className: "card", "data-card": card },
    el("p", { className: "alarm-label" }, clip.title),
    el("p", { className: "muted small" }, L.duration(clip.duration) + (clip.spokenText !== null ? " · spoken stand-in, until you record it" : "")),
    el("div", { className: "row" },
      actionButton("Play", card + ":play", card, () => play("/api/clips/" + clip.id + "/audio", card), { aria: "Play " + clip.title }),
      el("button", { type: "button", "data-key": card + ":rename", "aria-label": "Rename " + clip.title, onclick: () => { editing.add(card); drawClips(); focusKey(card + ":title"); } }, "Rename")));
  if (editing.has(card)) {
    const field = el("input", { value: clip.title, maxlength: "200", "data-key": card + ":title", "aria-label": "New title for " + clip.title });
    const form = el("form", { className: "row" }, field,
      actionButton("Save", card + ":save", card, async () => {
        const title = field.value.trim();
        if (!title) throw new Error("A title cannot be empty.");
        await api.call("PUT", "/api/clips/" + clip.id, { title });
        editing.delete(card);
        await live.refresh();
        return { text: "Renamed to '" + title + "'.", about: ["clip:" + clip.id] };
      }, { className: "primary", aria: "Save the new title of " + clip.title }),
      el("button", { type: "button", onclick: () => { editing.delete(card); drawClips(); focusKey(card + ":rename"); } }, "Cancel"));
    form.addEventListener("submit", (event) => { event.preventDefault(); form.querySelector("button").click(); });
    item.append(form);
  }
  item.append(...removal(card, {
    label: "Remove", aria: "Remove " + clip.title, question: "Remove '" + clip.title + "' from your recordings and every playlist?",
    yes: "Remove", yesAria: "Yes, remove " + clip.title,
    again: { question: "Remove it anyway? The alarms that play it get new ringtones.", yes: "Remove anyway", aria: "Remove anyway: " + clip.title },
    act: (again) => api.call("DELETE", "/api/clips/" + clip.id + (again ? "?force=true" : "")),
    list: "clips", done: { text: "Removed '" + clip.title + "'.", about: ["clips"] }, draw: drawClips,
  }));
  reattachPlayer(item, card);
  item.append(resultLine(card));
  return item;
}

export function drawClips() {
  if (!store.state || store.offline) { redraw($("clips"), store.offline ? [el("li", { className: "stale" }, STALE)] : []); return; }
  const nodes = clips().map(clipCard);
  if (!nodes.length) nodes.push(el("li", { className: "empty" }, "No recordings yet: record one above."));
  redraw($("clips"), nodes);
}

// ---------------------------------------------------------------------------------------------
// Playlists and the manifesto. What the cap leaves out is the machine's word (`capNote`).

function clipSelect(label, key) {
  const select = el("select", { "aria-label": label, "data-key": key });
  for (const clip of clips()) select.append(el("option", { value: clip.id }, clip.title + " (" + L.duration(clip.duration) + ")"));
  return select;
}

async function savePlaylist(playlist, ids, said) {
  await api.call("PUT", "/api/playlists/" + encodeURIComponent(playlist.name), { clips: ids });
  await live.refresh();
  return { text: said, about: ["playlist:" + playlist.name] };
}

function playlistCard(playlist) {
  const card = "playlist:" + playlist.name;
  const ids = playlist.clips.map((clip) => clip.id);
  const item = el("li", { className: "card", "data-card": card },
    el("p", { className: "alarm-label" }, playlist.name),
    el("p", { className: "muted small" }, L.plural(playlist.clips.length, "recording") + ", " + L.duration(playlist.duration)));
  if (playlist.capNote) item.append(el("p", { className: "result error" }, L.sentence(playlist.capNote)));
  const order = el("ol", { className: "clips" });
  playlist.clips.forEach((clip, index) => {
    const row = el("li", {}, el("span", {}, clip.title + " (" + L.duration(clip.duration) + ")"));
    const actions = el("div", { className: "row" });
    const where = " in " + playlist.name;
    const at = card + ":" + index;
    if (index > 0) {
      actions.append(actionButton("Up", at + ":up", card, () => savePlaylist(playlist, L.moved(ids, index, index - 1), "Moved '" + clip.title + "' up."),
        { aria: "Move " + clip.title + " up" + where }));
    }
    if (index < ids.length - 1) {
      actions.append(actionButton("Down", at + ":down", card, () => savePlaylist(playlist, L.moved(ids, index, index + 1), "Moved '" + clip.title + "' down."),
        { aria: "Move " + clip.title + " down" + where }));
    }
    actions.append(actionButton("Take out", at + ":out", card, () => savePlaylist(playlist, L.without(ids, index), "Took '" + clip.title + "' out of " + playlist.name + "."),
      { className: "danger", aria: "Take " + clip.title + " out of " + playlist.name }));
    row.append(actions);
    order.append(row);
  });
  if (playlist.clips.length) item.append(order);
  if (clips().length) {
    const select = clipSelect("Recording to add to " + playlist.name, card + ":choice");
    item.append(el("div", { className: "row" }, select, actionButton("Add to playlist", card + ":add", card, () => {
      const chosen = clips().find((clip) => clip.id === select.value);
      return savePlaylist(playlist, ids.concat([select.value]), "Added '" + (chosen ? chosen.title : "the recording") + "' to " + playlist.name + ".");
    }, { aria: "Add the chosen recording to " + playlist.name })));
  }
  if (playlist.clips.length) {
    item.append(el("div", { className: "row" },
      actionButton("Play whole", card + ":play", card, () => playAll(playlist.clips.map((clip) => "/api/clips/" + clip.id + "/audio"), card),
        { aria: "Play " + playlist.name + " whole" }),
      actionButton("Picture", card + ":picture", card, async () => {
        const image = el("img", { className: "picture", alt: "The ringtone of " + playlist.name + ": each recording's waveform, the cap, and what is left out" });
        image.src = await picture("/api/picture/" + encodeURIComponent(playlist.name));
        const holder = document.querySelector('[data-card="' + CSS.escape(card) + '"]');
        if (holder) holder.append(image);
      }, { aria: "Picture of " + playlist.name + "'s ringtone" })));
  }
  item.append(...removal(card, {
    label: "Delete", aria: "Delete the playlist " + playlist.name, question: "Delete the playlist " + playlist.name + "? Its recordings stay.",
    yes: "Delete", yesAria: "Yes, delete " + playlist.name,
    again: { question: "Delete it with the alarms that play it?", yes: "Delete with its alarms", aria: "Delete with its alarms: " + playlist.name },
    act: (again) => api.call("DELETE", "/api/playlists/" + encodeURIComponent(playlist.name) + (again ? "?withAlarms=true" : "")),
    list: "playlists", done: { text: "Deleted " + playlist.name + ".", about: ["playlists"] }, draw: drawPlaylists,
  }));
  reattachPlayer(item, card);
  item.append(resultLine(card));
  return item;
}

export function drawPlaylists() {
  if (!store.state || store.offline) { redraw($("playlists"), store.offline ? [el("li", { className: "stale" }, STALE)] : []); return; }
  const nodes = store.state.playlists.map(playlistCard);
  if (!nodes.length) nodes.push(el("li", { className: "empty" }, "No playlists yet: make one below, then add recordings to it."));
  redraw($("playlists"), nodes);
}

function drawManifesto() {
  if (!store.state || store.offline) { redraw($("manifesto"), []); return; }
  const current = store.state.manifesto;
  const card = "manifesto";
  const nodes = [el("p", {}, current && current.clips.length ? "Now: " + current.clips[0].title + " (" + L.duration(current.duration) + ")" : "No manifesto recording yet.")];
  if (current && current.capNote) nodes.push(el("p", { className: "result error" }, L.sentence(current.capNote)));
  if (clips().length) {
    const select = clipSelect("Manifesto recording", "manifesto:choice");
    nodes.push(select, el("div", { className: "row" }, actionButton("Make it the manifesto", "manifesto:set", card, async () => {
      await api.call("PUT", "/api/manifesto", { clip: select.value });
      await live.refresh();
      return { text: "The manifesto is set.", about: ["manifesto"] };
    })));
  }
  nodes.push(resultLine(card));
  redraw($("manifesto"), nodes);
}

function setUpForms() {
  $("say-form").addEventListener("submit", (event) => {
    event.preventDefault();
    run($("say-send"), "say-send", "say", async () => {
      if (!$("say-text").value.trim()) throw new Error("Write what the stand-in says first.");
      const clip = await api.call("POST", "/api/clips/say", { text: $("say-text").value });
      $("say-text").value = "";
      await live.refresh();
      return { text: "Made a spoken stand-in '" + clip.title + "': record it in your own voice later.", about: ["clip:" + clip.id] };
    });
  });
  $("playlist-form").addEventListener("submit", (event) => {
    event.preventDefault();
    run($("playlist-create"), "playlist-create", "playlist-form", async () => {
      if (!$("playlist-name").value.trim()) throw new Error("Name the playlist first.");
      const playlist = await api.call("POST", "/api/playlists", { name: $("playlist-name").value.trim(), clips: [] });
      $("playlist-name").value = "";
      await live.refresh();
      return { text: "Created " + playlist.name + ": add recordings to it above.", about: ["playlist:" + playlist.name] };
    });
  });
}

export function startVoice() {
  setUpForms();
  store.subscribe((changed) => {
    const all = changed.has("connection");
    if (all || changed.has("clips")) drawClips();
    if (all || changed.has("clips") || changed.has("playlists")) drawPlaylists();
    if (all || changed.has("clips") || changed.has("manifesto")) drawManifesto();
  });
}
