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

// Replaces a container's children and puts the focus back where it was (by `data-key`).
export function redraw(container, nodes) {
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
