// Drawing: elements made with their text set as text (never as HTML: nothing from the API is
// HTML), lists redrawn without losing the focus, and words said to a screen reader.

export const $ = (id) => document.getElementById(id);

export function el(tag, properties, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(properties || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "className" || name === "hidden" || name === "disabled" || name === "type" || name === "value" || name === "id") node[name] = value;
    else if (name === "onclick") node.addEventListener("click", value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

// A list redrawn while a finger or a key is pressing one of its buttons would take the press
// away (the button is replaced before it is released, and no click follows): the page is live,
// so a redraw can come at any moment. Redraws wait until the press is over (at most 3 s).
let pressedAt = 0;
const waiting = new Map();
function flush() {
  if (pressedAt) return;
  const drawing = Array.from(waiting);
  waiting.clear();
  for (const [container, nodes] of drawing) draw(container, nodes);
}
function release() {
  pressedAt = 0;
  // After the click the release makes (it follows in the same task).
  setTimeout(flush, 0);
}
document.addEventListener("pointerdown", () => { pressedAt = Date.now(); }, true);
document.addEventListener("keydown", (event) => { if (event.key === " " || event.key === "Enter") pressedAt = Date.now(); }, true);
for (const type of ["pointerup", "pointercancel", "keyup", "blur"]) (type === "blur" ? window : document).addEventListener(type, release, true);

// Replaces a container's children and puts the focus back where it was (by `data-key`).
export function redraw(container, nodes) {
  if (pressedAt && Date.now() - pressedAt < 3000) {
    if (!waiting.size) setTimeout(() => { if (Date.now() - pressedAt >= 2900) pressedAt = 0; flush(); }, 3000);
    waiting.set(container, nodes);
    return;
  }
  waiting.delete(container);
  draw(container, nodes);
}

function draw(container, nodes) {
  const active = document.activeElement;
  const key = active && container.contains(active) ? active.dataset.key : null;
  container.replaceChildren(...nodes);
  if (key) {
    const again = Array.from(container.querySelectorAll("[data-key]")).find((node) => node.dataset.key === key);
    if (again) again.focus({ preventScroll: true });
  }
}

export function focusKey(key) {
  const node = Array.from(document.querySelectorAll("[data-key]")).find((candidate) => candidate.dataset.key === key);
  if (node) node.focus();
}

// Emptied first, so the same words said twice are announced twice.
export function announce(text) {
  const region = $("announce");
  region.textContent = "";
  setTimeout(() => { region.textContent = text; }, 30);
}
