// @ts-check
// The single page app: routes on location.pathname.
import { applyWords, browserLang, getLang, loadWords, onLang, setLang, t } from "./i18n.js";
import { navigate } from "./dom.js";

let current = null; // the page shown: {el, title (a text, or a function giving it in the language now), destroy(), relang()}

/** The tab's title: the page's, then the app's (in the language now). */
function setTitle() {
  const title = current && (typeof current.title === "function" ? current.title() : current.title);
  document.title = `${title ? `${title} — ` : ""}${t("app_title")}`;
}

/** @type {[RegExp, (m: RegExpMatchArray) => Promise<any>][]} */
const routes = [
  [/^\/t\/([A-Za-z0-9]+)\/?$/, async (m) => (await import("./table.js")).tablePage(m[1].toUpperCase())],
  [/^\/pad\/([A-Za-z0-9]+)\/?$/, async (m) => (await import("./pad.js")).padPage(m[1].toUpperCase())],
  [/^\/pad\/?$/, async () => (await import("./pad.js")).newPadPage()],
  [/^\/games\/?$/, async () => (await import("./games.js")).gamesPage()],
  [/^\/replay\/([A-Za-z0-9]+)\/?$/, async (m) => (await import("./games.js")).replayPage(m[1].toUpperCase())],
  [/^\/?$/, async () => (await import("./lobby.js")).lobbyPage()],
];

async function route() {
  const path = location.pathname;
  if (current && current.destroy) current.destroy();
  current = null;
  const main = document.getElementById("app");
  main.replaceChildren();
  for (const [re, make] of routes) {
    const m = path.match(re);
    if (m) {
      current = await make(m);
      main.replaceChildren(current.el);
      setTitle();
      markNav(path);
      return;
    }
  }
  navigate("/");
}

function markNav(path) {
  for (const a of document.querySelectorAll(".top-nav a")) {
    const href = a.getAttribute("href");
    a.classList.toggle("here", href === "/" ? path === "/" : path.startsWith(href));
  }
}

document.addEventListener("click", (e) => {
  const a = /** @type {HTMLAnchorElement | null} */ (
    /** @type {Element} */ (e.target).closest("a[data-link]"));
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || a.target) return;
  e.preventDefault();
  if (a.getAttribute("href") !== location.pathname) navigate(a.getAttribute("href"));
});
window.addEventListener("popstate", route);

async function start() {
  await loadWords(browserLang());
  const sel = /** @type {HTMLSelectElement} */ (document.getElementById("lang-select"));
  sel.value = getLang();
  sel.addEventListener("change", () => setLang(sel.value));
  applyWords();
  document.getElementById("brand-title").textContent = t("app_title");
  onLang(() => {
    applyWords();
    sel.value = getLang();
    document.getElementById("brand-title").textContent = t("app_title");
    if (current && current.relang) {
      setTitle(); // (before the page's own: the table's turn puts its sentence before it)
      current.relang();
    } else route();
  });
  await route();
}

start();
