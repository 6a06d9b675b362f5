// What every card shares: its result line (the message of page-logic's rule, see messages.mjs),
// buttons that wait for the machine, and the confirmation before removing anything.
import { el, announce, focusKey } from "./dom.mjs";
import { failureSentence } from "./page-logic.mjs";
import { live, messages } from "./page.mjs";

// A card's result line, as its message stands now.
export function resultLine(card) {
  const said = messages.get(card);
  return el("p", { className: "result" + (said && said.error ? " error" : ""), "data-result": card }, said ? said.text : "");
}

// Each shown result line follows its card's message: set when told, emptied when it goes.
messages.subscribe((cards) => {
  for (const node of document.querySelectorAll("[data-result]")) {
    if (!cards.includes(node.dataset.result)) continue;
    const said = messages.get(node.dataset.result);
    node.textContent = said ? said.text : "";
    node.classList.toggle("error", Boolean(said && said.error));
  }
});

// Says `text` on `card` (and to a screen reader), in view where the tap was.
export function tell(card, text, options) {
  messages.tell(card, text, options);
  for (const node of document.querySelectorAll("[data-result]")) {
    if (node.dataset.result === card) node.scrollIntoView({ block: "nearest" });
  }
  announce(text);
}

// Which buttons wait for the machine now (by `data-key`).
const inflight = new Set();

// A button that waits for the machine: marked busy until its work is done, its result said on
// its card. `work` returns what to say — a sentence, or {text, about} (what it speaks of) — or
// nothing.
export function actionButton(label, key, card, work, options) {
  const settings = options || {};
  const busy = inflight.has(key);
  const node = el("button", {
    type: "button", className: (settings.className || "") + (busy ? " busy" : ""), "aria-disabled": busy ? "true" : null,
    "data-key": key, "aria-label": settings.aria, "aria-describedby": settings.describedBy,
  }, label);
  node.addEventListener("click", () => run(node, key, card, work));
  return node;
}

export async function run(node, key, card, work) {
  if (inflight.has(key)) return;
  inflight.add(key);
  // Waiting looks disabled (aria-disabled, greyed and dashed) but keeps the focus where it was:
  // a disabled button would drop it, and a keyboard or screen reader user would be lost.
  const mark = (waiting) => {
    for (const button of document.querySelectorAll("[data-key]")) {
      if (button.dataset.key !== key) continue;
      if (waiting) button.setAttribute("aria-disabled", "true"); else button.removeAttribute("aria-disabled");
      button.classList.toggle("busy", waiting);
    }
  };
  mark(true);
  if (node) { node.setAttribute("aria-disabled", "true"); node.classList.add("busy"); }
  try {
    const said = await work();
    if (typeof said === "string") tell(card, said);
    else if (said) tell(card, said.text, { about: said.about });
  } catch (error) {
    tell(card, failureSentence(error), { error: true });
  } finally {
    inflight.delete(key);
    mark(false);
    if (node) { node.removeAttribute("aria-disabled"); node.classList.remove("busy"); }
  }
}

// The cards asking "Remove…?" now, and whether the machine asked again (a 409).
const asking = new Map();

// Removing anything — an alarm, a recording, a playlist, a paired phone — asks first, in its
// card: `label` (Remove, Delete, Revoke), then `question` with `yes` and "Keep it". When the
// machine refuses because something uses it (409) and `again` is given, its sentence is said and
// the question asked again ({question, yes, aria}); `act(again)` removes (again: the second
// time). Once removed, `done` is said on the list's card `list` ({text, about}). `draw()` draws
// the card's list again.
export function removal(card, { label, aria, question, yes, yesAria, again, act, list, done, draw }) {
  const stage = asking.get(card);
  if (stage === undefined) {
    return [el("div", { className: "row" }, el("button", {
      type: "button", className: "danger", "data-key": card + ":remove", "aria-label": aria,
      onclick: () => { asking.set(card, 1); draw(); focusKey(card + ":confirm"); },
    }, label))];
  }
  const second = stage === 2 && again;
  const keep = () => { asking.delete(card); messages.drop(card); draw(); focusKey(card + ":remove"); };
  return [
    el("p", { className: "confirm" }, second ? again.question : question),
    el("div", { className: "row" },
      actionButton(second ? again.yes : yes, card + ":confirm", card, async () => {
        try {
          await act(Boolean(second));
        } catch (error) {
          if (error.status !== 409 || !again || second) throw error;
          asking.set(card, 2);
          messages.tell(card, error.message, { error: true });
          draw();
          focusKey(card + ":confirm");
          announce(error.message);
          return undefined;
        }
        asking.delete(card);
        messages.drop(card);
        await live.refresh();
        tell(list, done.text, { about: done.about });
        return undefined;
      }, { className: "danger primary", aria: second ? again.aria : yesAria }),
      el("button", { type: "button", "data-key": card + ":keep", onclick: keep }, "Keep it")),
  ];
}
