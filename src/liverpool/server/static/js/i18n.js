// @ts-check
// The page's words: GET /api/i18n/{lang}; t(key, params) fills {name} fields.
export const LANGS = ["nb", "da", "en"];
let words = {};
let lang = "en";
const listeners = new Set();

export function browserLang() {
  const stored = localStorage.getItem("lv.lang");
  if (stored && LANGS.includes(stored)) return stored;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const base = String(l).toLowerCase().split("-")[0];
    if (["nb", "no", "nn"].includes(base)) return "nb";
    if (base === "da") return "da";
    if (base === "en") return "en";
  }
  return "en";
}

export async function loadWords(l) {
  const r = await fetch(`/api/i18n/${l}`);
  const data = await r.json();
  words = data.words || {};
  lang = data.lang || l;
  document.documentElement.lang = lang;
  return lang;
}

export function getLang() { return lang; }

export async function setLang(l) {
  localStorage.setItem("lv.lang", l);
  await loadWords(l);
  for (const f of listeners) f(lang);
}

export function onLang(f) { listeners.add(f); return () => listeners.delete(f); }

export function t(key, params = {}) {
  let s = words[key];
  if (s === undefined) s = key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

// fill every [data-w] element of root with its word
/** @param {ParentNode} [root] */
export function applyWords(root = document) {
  /** @param {string} selector */
  const all = (selector) => /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll(selector));
  for (const el of all("[data-w]")) el.textContent = t(el.dataset.w);
  for (const el of all("[data-w-title]")) el.title = t(el.dataset.wTitle);
  for (const el of all("[data-w-aria]")) el.setAttribute("aria-label", t(el.dataset.wAria));
}
