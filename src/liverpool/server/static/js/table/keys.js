// @ts-check
// Keyboard and screen readers at the table: where focus goes after each
// render (it stays on the hand after an action and moves to a new decision),
// the shortcuts and their "?" list, and a polite live region that speaks the
// moves of the others.
import { cardName, spokenText } from "../cards.js";
import { h, showDialog } from "../dom.js";
import { t } from "../i18n.js";

/** the shortcut keys → the button each one presses (the first one shown and enabled) */
const SHORTCUTS = [
  { key: "s", buttons: ["#draw-stock"], word: "draw_stock" },
  { key: "t", buttons: ["#take-discard"], word: "take_discard" },
  { key: "b", buttons: ["#buy-btn"], word: "buy" },
  { key: "p", buttons: ["#pass-btn"], word: "pass" },
  { key: "c", buttons: ["#call-btn"], word: "call" },
  { key: "d", buttons: ["#discard-btn"], word: "key_discard_card" },
  { key: "g", buttons: ["#suggest"], word: "suggest" },
  { key: "e", buttons: ["#new-set"], word: "new_set" },
  { key: "r", buttons: ["#new-run"], word: "new_run" },
  { key: "x", buttons: ["#clear"], word: "clear" },
  { key: "l", buttons: ["#lay-down"], word: "lay_down" },
  { key: "o", buttons: ["#lay-off"], word: "lay_off" },
  { key: "w", buttons: ["#swap"], word: "swap" },
];

const TYPING = new Set(["INPUT", "TEXTAREA", "SELECT"]);

/**
 * Keyboard and screen-reader help of the table page ``ctx``: afterRender()
 * is called at the end of each render with what was focused before it.
 * @param {any} ctx
 */
export function tableKeys(ctx) {
  const { s, el } = ctx;
  const { legal, mine, myPlay, handKeys, callWord } = ctx.st;
  let lastDecision = null;
  let lastOrder = [];
  let inPage = false; // focus was last inside the table page (not elsewhere on the page)
  let spokenUpTo = null; // the last event seq the live region has seen

  const live = h("div", { class: "sr", id: "moves-live", "aria-live": "polite", "aria-atomic": "true" });
  document.body.append(live);

  el.addEventListener("focusin", (e) => {
    inPage = true;
    const b = /** @type {HTMLElement} */ (e.target);
    if (b.classList.contains("hand-card")) rove(b);
  });
  document.addEventListener("focusin", onFocusElsewhere);
  document.addEventListener("keydown", onKey);

  function onFocusElsewhere(e) {
    if (!el.contains(/** @type {Node} */ (e.target))) inPage = false;
  }

  // ---------------------------------------------------------------- focus
  /** what the seat decides now: a new kind moves the focus to it */
  function decision() {
    const v = s.view;
    if (!v || s.seat === null) return "none";
    if (s.summary && s.summaryOpen) return "summary";
    if (v.phase === "game_over") return s.standingsOpen ? "over" : "none";
    if ((v.phase === "buy" || v.phase === "call") && legal().length) return `window:${v.discard_pile.length}:${v.offered_card}`;
    if (v.phase === "cut" && mine()) return "cut";
    if (v.phase === "draw" && mine()) return "draw";
    if (s.pickMeld) return "pick";
    if (myPlay()) return "play";
    return "none";
  }

  /** the element a new decision puts the focus on */
  function decisionTarget(kind) {
    const first = (...sel) => sel.map((x) => /** @type {HTMLElement | null} */ (el.querySelector(x))).find((x) => x);
    if (kind.startsWith("window")) return first("#buy-btn", "#call-btn", "#pass-btn");
    if (kind === "summary") return first("#close-summary");
    if (kind === "over") return first("#play-again", "#standings button");
    if (kind === "cut") return first("#cut-range");
    if (kind === "draw") return first("#draw-stock:not([disabled])", "#take-discard:not([disabled])");
    if (kind === "pick") return first(".meld-btn.target");
    return handCard(null);
  }

  /** a card of the hand: the one at ``index`` (or the nearest), else the just drawn, else the first */
  function handCard(index) {
    const cards = /** @type {HTMLElement[]} */ ([...el.querySelectorAll("#hand .hand-card")]);
    if (!cards.length) return null;
    if (index !== null) return cards[Math.min(index, cards.length - 1)];
    return cards.find((c) => c.classList.contains("fresh")) || cards.find((c) => c.classList.contains("selected")) || cards[0];
  }

  /** one card of the hand in the Tab order; the arrow keys move between them */
  function rove(card) {
    for (const c of /** @type {NodeListOf<HTMLElement>} */ (el.querySelectorAll("#hand .hand-card"))) c.tabIndex = c === card ? 0 : -1;
  }

  /**
   * Put the focus where the player needs it after a render.
   * @param {{key: string | null, active: Element | null}} before the focused element's data-focus before the render
   */
  function afterRender(before) {
    const kind = decision();
    const changed = kind !== lastDecision;
    lastDecision = kind;
    const order = handKeys();
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (el.querySelectorAll("#hand .hand-card"))) {
      const name = cardName(b.dataset.card); // (in the page's language: it may have changed)
      if (b.getAttribute("aria-label") !== name) b.setAttribute("aria-label", name);
    }
    for (const sc of SHORTCUTS) for (const sel of sc.buttons) { const b = el.querySelector(sel); if (b) b.setAttribute("aria-keyshortcuts", sc.key.toUpperCase()); }
    speak();
    const dialogOpen = /** @type {HTMLDialogElement} */ (document.getElementById("dialog")).open;
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    const typing = active && TYPING.has(active.tagName) && /** @type {HTMLInputElement} */ (active).type !== "checkbox";
    let target = null;
    if (!dialogOpen && !typing && (inPage || lost)) {
      if (changed && kind !== "none" && (inPage || lost)) target = decisionTarget(kind);
      else if (before.key || (before.active && before.active.id && before.active !== document.body)) {
        // the same element again: by its data-focus key, else by its id
        target = /** @type {HTMLElement | null} */ (before.key ? el.querySelector(`[data-focus="${CSS.escape(before.key)}"]`)
          : el.querySelector(`#${CSS.escape(before.active.id)}`));
        if (!target) {
          const i = lastOrder.indexOf(before.key);
          target = handCard(i >= 0 ? i : null);
        }
      } else if (lost && inPage) target = handCard(null);
    }
    lastOrder = order;
    const current = /** @type {HTMLElement | null} */ (target && target.classList.contains("hand-card") ? target
      : el.querySelector("#hand .hand-card:focus") || el.querySelector("#hand .hand-card.selected") || el.querySelector("#hand .hand-card"));
    if (current) rove(current);
    if (target && target !== document.activeElement) target.focus({ preventScroll: true });
  }

  // ----------------------------------------------------------- live region
  /** say the moves of the others (the server's texts, cards in words) */
  function speak() {
    const items = s.log;
    const last = items.length ? items[items.length - 1].event.seq : -1;
    if (spokenUpTo === null || !s.view) { spokenUpTo = last; return; }
    const fresh = items.filter((x) => x.event.seq > spokenUpTo && (x.event.seat === undefined || x.event.seat === null || x.event.seat !== s.seat));
    spokenUpTo = Math.max(spokenUpTo, last);
    if (!fresh.length) return;
    live.textContent = fresh.slice(-3).map((x) => spokenText(x.text)).join(" ");
  }

  // ------------------------------------------------------------- shortcuts
  function onKey(e) {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || !el.isConnected) return;
    const target = /** @type {HTMLElement} */ (e.target);
    if (target && (TYPING.has(target.tagName) || target.isContentEditable)) return;
    if (/** @type {HTMLDialogElement} */ (document.getElementById("dialog")).open) return;
    if (e.key === "?") { e.preventDefault(); showKeys(); return; }
    if (e.key === " " && target && target.tagName === "BUTTON" && el.contains(target)) {
      // a button of the table acts as Space goes down, as Enter does, not at its
      // release: an update that re-renders the table meanwhile (another seat's
      // move) replaces the button and would lose the press (the hand's cards do
      // the same in their own handler)
      e.preventDefault();
      if (!e.repeat && !(/** @type {HTMLButtonElement} */ (target)).disabled) target.click();
      return;
    }
    const key = e.key.toLowerCase();
    if (key === "h") { const c = handCard(null); if (c) { e.preventDefault(); c.focus(); } return; }
    if (target && target.classList.contains("hand-card") && (e.key === "Home" || e.key === "End")) {
      const cards = /** @type {HTMLElement[]} */ ([...el.querySelectorAll("#hand .hand-card")]);
      e.preventDefault();
      cards[e.key === "Home" ? 0 : cards.length - 1].focus();
      return;
    }
    const sc = SHORTCUTS.find((x) => x.key === key);
    if (!sc || e.shiftKey) return;
    for (const sel of sc.buttons) {
      const b = /** @type {HTMLButtonElement | null} */ (el.querySelector(sel));
      if (b && !b.disabled) { e.preventDefault(); b.click(); return; }
    }
  }

  /** the "?" list: every shortcut and what it does */
  function showKeys() {
    const row = (keys, what) => h("tr", {}, h("th", { scope: "row" }, keys.map((k, i) => [i ? " " : "", h("kbd", {}, k)])), h("td", {}, what));
    const dlg = showDialog([
      h("h2", { class: "dialog-title", id: "keys-title" }, t("shortcuts")),
      h("table", { class: "keys-table" }, h("tbody", {},
        row(["H"], t("key_hand")),
        row(["←", "→", "Home", "End"], t("key_move")),
        row(["Space", "Enter"], t("key_select")),
        row(["Shift + ←", "Shift + →"], t("key_reorder")),
        SHORTCUTS.map((sc) => row([sc.key.toUpperCase()], sc.word === "call" ? callWord() : t(sc.word))),
        row(["?"], t("key_help")))),
      h("button", { type: "button", class: "btn", id: "keys-close", onclick: () => dlg.close() }, t("close")),
    ]);
    dlg.setAttribute("aria-labelledby", "keys-title");
    dlg.scrollTop = 0; // the list from its title (the focus is on Close, at its end)
    dlg.addEventListener("close", () => dlg.removeAttribute("aria-labelledby"), { once: true });
  }

  /** the button that opens the list (in the table's tools) */
  function keysButton() {
    return h("button", { type: "button", class: "btn small", id: "keys-btn", "aria-label": t("shortcuts"), title: t("shortcuts"), "aria-keyshortcuts": "?", onclick: showKeys }, "?");
  }

  /** the language changed: nothing said in the old one stays in the live
   * region (emptied, not said again: the moves come in the new language) */
  function relangKeys() {
    live.textContent = "";
  }

  function destroy() {
    document.removeEventListener("keydown", onKey);
    document.removeEventListener("focusin", onFocusElsewhere);
    live.remove();
  }

  return { afterRender, showKeys, keysButton, relangKeys, destroyKeys: destroy };
}
