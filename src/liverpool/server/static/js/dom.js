// @ts-check
// A small element builder and shared page helpers.
import { onLang } from "./i18n.js";

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "text") el.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style" && typeof v === "object") Object.assign(el.style, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/**
 * A <details> panel of a page that re-renders: open or closed as the player
 * left it (kept in ``kept`` by ``id``), else ``byDefault``. The choice is kept
 * at the summary's click (a key on the summary clicks it too), not at the
 * toggle event: that comes later, when a render may already have replaced the
 * panel.
 * @param {Record<string, boolean>} kept
 * @param {string} id
 * @param {boolean} byDefault
 * @param {Record<string, any>} attrs
 * @param {any} summary
 * @param {...any} children
 */
export function keptDetails(kept, id, byDefault, attrs, summary, ...children) {
  return h("details", { ...attrs, id, open: kept[id] ?? byDefault },
  h("summary", { onclick: (/** @type {Event} */ e) => { kept[id] = !/** @type {HTMLDetailsElement} */ (/** @type {HTMLElement} */ (e.currentTarget).parentElement).open; } }, summary),
  ...children);
}

let toastTimer = null;
export function toast(message, kind = "error") {
  const el = document.getElementById("toast");
  el.textContent = message;
  el.className = `toast ${kind}`;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 6000);
}

/** Take the toast away (a new try at what it refused makes its words stale). */
export function clearToast() {
  clearTimeout(toastTimer);
  const el = document.getElementById("toast");
  if (el) el.hidden = true;
}

// a toast says its words in the language it came in: a switch takes it away
onLang(() => {
  clearTimeout(toastTimer);
  const el = document.getElementById("toast");
  if (el) el.hidden = true;
});

export function banner(message) {
  const el = document.getElementById("banner");
  if (message) { el.textContent = message; el.hidden = false; } else el.hidden = true;
}

export function navigate(path) {
  history.pushState({}, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
}

export async function copyText(text, button, doneWord) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const ta = h("textarea", { style: { position: "fixed", opacity: "0" } }, text);
    document.body.append(ta);
    ta.select();
    try { document.execCommand("copy"); } catch { /* nothing */ }
    ta.remove();
  }
  if (button && doneWord) {
    const old = button.textContent;
    button.textContent = doneWord;
    setTimeout(() => { button.textContent = old; }, 1500);
  }
}

// a modal dialog; resolves with the value of the button pressed (null: closed)
/**
 * @param {string} title
 * @param {{value: any, label: string}[]} options
 * @param {{cancel?: string}} [how]
 */
export function choose(title, options, { cancel } = {}) {
  const dlg = /** @type {HTMLDialogElement} */ (document.getElementById("dialog"));
  const body = document.getElementById("dialog-body");
  body.replaceChildren();
  return new Promise((resolve) => {
    const done = (v) => { dlg.close(); resolve(v); };
    body.append(h("h2", { class: "dialog-title" }, title));
    const list = h("div", { class: "dialog-choices" });
    for (const o of options) {
      list.append(h("button", { type: "button", class: "btn choice", onclick: () => done(o.value) }, o.label));
    }
    body.append(list);
    if (cancel) body.append(h("button", { type: "button", class: "btn ghost", onclick: () => done(null) }, cancel));
    dlg.onclose = () => resolve(null);
    dlg.showModal();
  });
}

export function showDialog(content) {
  const dlg = /** @type {HTMLDialogElement} */ (document.getElementById("dialog"));
  const body = document.getElementById("dialog-body");
  body.replaceChildren(...[content].flat());
  dlg.onclose = null;
  dlg.showModal();
  return dlg;
}

// replace el's children, skipping the empty ones
export function fill(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}
