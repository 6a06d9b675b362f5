// Listening: one player, shown in the card whose Listen or Play was pressed, playing what the
// machine sent through this page's session (from memory: the player cannot send the session).
// It is held, not looked up: while a redraw carries it into a card not yet on the page,
// getElementById finds nothing.
import { $ } from "./dom.mjs";
import { failureSentence } from "./page-logic.mjs";
import { api } from "./page.mjs";
import { tell } from "./ui.mjs";

const player = $("player");
const urls = [];

async function fetched(path) {
  const url = URL.createObjectURL(await api.blob(path));
  urls.push(url);
  if (urls.length > 16) URL.revokeObjectURL(urls.shift());
  return url;
}

// Pictures come through the session too.
export const picture = fetched;

export async function play(path, card) {
  // What played before stops at once, while the new sound is fetched.
  player.pause();
  player.removeAttribute("src");
  player.load();
  player.controls = true;
  player.hidden = false;
  // Which card it plays for (not `data-card`: looking that up would find the player itself).
  player.dataset.playing = card;
  const holder = document.querySelector('[data-card="' + CSS.escape(card) + '"]');
  if (holder) holder.append(player);
  player.onended = null;
  player.src = await fetched(path);
  await player.play();
}

export function playAll(paths, card) {
  let index = 0;
  const next = async () => {
    if (index >= paths.length) { player.onended = null; return; }
    await play(paths[index++], card);
    player.onended = () => next().catch((error) => tell(card, failureSentence(error), { error: true }));
  };
  return next();
}

// A redrawn card takes the player back, so what plays stays under its button.
export function reattachPlayer(item, card) {
  if (player.dataset.playing === card) item.append(player);
}
