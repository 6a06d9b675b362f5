// What a tap did, said on its card: each message belongs to the state it speaks of. It goes when
// that part of the machine's state changes (`about`: facets of page-logic's `facet`), or after
// MESSAGE_SECONDS, whichever is first, so nothing on screen contradicts what the machine now
// holds. No DOM here: `node --test` runs it (Tests/Page/messages.test.mjs).
import { facet, MESSAGE_SECONDS } from "./page-logic.mjs";

// `state()` is the machine's state as the store holds it; `now()` the phone's clock.
export function createMessages({ state, now }) {
  const said = new Map();
  const listeners = new Set();

  function notify(cards) {
    if (!cards.length) return;
    for (const listener of Array.from(listeners)) listener(cards);
  }

  return {
    // `about`: what the message speaks of; `until`: an earlier end than MESSAGE_SECONDS;
    // `lasting`: work under way ("Recording…"), said until the card's next message; `extra`:
    // what the card keeps with it (the rings a Stop ended).
    tell(card, text, options) {
      const settings = options || {};
      const about = settings.about || [];
      const prints = {};
      for (const name of about) prints[name] = facet(state(), name);
      const at = now();
      const ends = settings.lasting ? Infinity : Math.min(at + MESSAGE_SECONDS * 1000, settings.until || Infinity);
      said.set(card, { text, error: Boolean(settings.error), at, ends, about, prints, extra: settings.extra || {} });
      notify([card]);
    },
    get(card) { return said.get(card) || null; },
    drop(card) {
      if (said.delete(card)) notify([card]);
    },
    // Takes away every message whose state changed or whose time is over; says which went.
    prune() {
      const current = state();
      const gone = [];
      for (const [card, message] of said) {
        const stale = now() >= message.ends || message.about.some((name) => facet(current, name) !== message.prints[name]);
        if (stale) gone.push(card);
      }
      for (const card of gone) said.delete(card);
      notify(gone);
      return gone;
    },
    // When the next message ends by its time, or null.
    nextEnd() {
      let first = null;
      for (const message of said.values()) if (message.ends !== Infinity && (first === null || message.ends < first)) first = message.ends;
      return first;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
