// @ts-check
// Hints (docs/protocol.md, "Hints"): at a table made with hints on, everyone
// sees "hints on" under the round in the header until the game is over; a
// player at their own decision has a "Hint" button among the decision's
// buttons (the buy or call window's, else the decision bar's). The server's
// answer is shown as its sentence over the table, just above the
// hand (it takes no room from the piles or the hand, and never covers the
// piles: a long sentence scrolls; × closes it, the button shows it again),
// and the card it names is marked in the hand (or the
// discard pile, for a draw from it, a buy or a call). A hint belongs to one
// version: the next update takes it away. Too many hints in a minute: the
// button waits out the server's seconds, counting down.
import { h } from "../dom.js";
import { t } from "../i18n.js";

// where the Hint button goes: the first of these on the page (a row of the
// decision's buttons, so that the button takes no row of its own)
const AREAS = ["#buy-prompt .window-body > .row", "#call-prompt .window-body > .row", "#actions > .row", "#actions", "[data-testid=\"decision\"]"];
// (px) the sentence's gap to the piles above it, and its least height (three lines)
const GAP = 6;
const MIN_ROOM = 68;

/**
 * The hints of the table page ``ctx`` (its state ``s``, ``el``, ``st`` of
 * stateOf(), ``send``): ``placeHints()`` after each render, ``onHint(msg)``
 * of a ``hint`` message, ``onHintError(msg)`` of an ``error``.
 * @param {any} ctx
 */
export function tableHints(ctx) {
  const { s } = ctx;
  /** the hint of this version: {version, pending} | {version, stale} | {version, action, text, closed} */
  s.hint = null;
  const on = () => !!(s.table && s.table.settings && s.table.settings.hints);
  let until = 0; // (Date.now()) no hint before this: the server said "too many hints"
  let tick = 0;
  const waitLeft = () => Math.max(0, Math.ceil((until - Date.now()) / 1000));

  function ask() {
    if (waitLeft()) return;
    if (s.hint && s.hint.version === s.n && !s.hint.stale) { // (asked already: shown again)
      if (s.hint.closed) { s.hint.closed = false; placeHints(); }
      return;
    }
    if (ctx.send({ type: "hint", version: s.n })) {
      s.hint = { version: s.n, pending: true };
      placeHints();
    }
  }

  function close() {
    if (s.hint) s.hint.closed = true;
    placeHints();
  }

  // the button while the server takes no hint: its seconds count down, then it is a button again
  function countdown() {
    window.clearTimeout(tick);
    const left = waitLeft();
    if (!left) { until = 0; placeHints(); return; }
    const label = ctx.el.querySelector("#hint-btn .hint-label");
    if (label) label.textContent = t("hint_wait", { n: left });
    tick = window.setTimeout(countdown, 250);
  }

  function onHint(msg) {
    if (msg.version !== s.n) return; // (for a version the page has left: dropped)
    // (the same hint said again in another language stays closed if it was)
    const closed = Boolean(s.hint && s.hint.closed && s.hint.version === msg.version && !msg.stale);
    s.hint = msg.stale ? { version: msg.version, stale: true } : { version: msg.version, action: msg.action, text: msg.text, closed };
    placeHints();
  }

  function onHintError(msg) {
    if (!s.hint || !s.hint.pending) return;
    const code = String(msg.code || "");
    const seconds = Number(msg.params && msg.params.seconds);
    if (code === "server_hints_too_fast" && seconds > 0) until = Date.now() + seconds * 1000;
    if (code.startsWith("server_hint") || code === "server_busy" || code === "server_spectator" || code === "server_try_again") {
      s.hint = null;
      placeHints();
      if (until) countdown();
    }
  }

  /** the cards of the hinted action, in the hand */
  function handCards(action) {
    if (action.card) return [action.card];
    if (action.type === "lay_down") return action.melds.flatMap((m) => m.cards);
    return [];
  }

  function mark(action) {
    const used = new Set();
    for (const card of handCards(action)) {
      const key = s.order.find((k) => !used.has(k) && ctx.st.cardOf(k) === card);
      if (key === undefined) continue;
      used.add(key);
      const b = s.cardEls.get(key);
      if (b) b.classList.add("hinted");
    }
    const fromPile = (action.type === "draw" && action.source === "discard") || action.type === "buy" || action.type === "call";
    const pile = ctx.el.querySelector("#discard");
    if (fromPile && pile) pile.classList.add("hinted");
    // a lay-off or a swap: the meld it goes on too
    const onMeld = (action.type === "lay_off" || action.type === "swap_joker") && typeof action.meld === "number";
    const meld = onMeld ? ctx.el.querySelector(`#melds [data-meld="${action.meld}"]`) : null;
    if (meld) meld.classList.add("hinted");
  }

  function placeHints() {
    const el = ctx.el;
    for (const old of el.querySelectorAll("[data-hints]")) old.remove();
    for (const b of el.querySelectorAll(".hinted")) b.classList.remove("hinted");
    if (!on() || !s.view || s.view.phase === "game_over") return;
    // (under the round: the top bar grows no wider)
    const where = el.querySelector(".table-top .round-info") || el.querySelector(".table-top");
    if (where) {
      where.append(h("span", { class: "tag hints-badge", id: "hints-badge", dataset: { hints: "badge" } },
        h("span", { class: "hint-icon", "aria-hidden": "true" }), t("hints_on")));
    }
    const legal = s.view.legal_actions || [];
    if (s.seat === null || !legal.length) return;
    const area = AREAS.map((q) => el.querySelector(q)).find(Boolean);
    if (!area) return;
    const current = s.hint && s.hint.version === s.n ? s.hint : null;
    const said = !current || current.closed ? "" : current.pending ? t("hint_thinking") : current.stale ? t("hint_stale") : current.text;
    const left = waitLeft();
    area.append(h("button", { type: "button", class: "btn hint-btn", id: "hint-btn", disabled: !!(current && current.pending) || left > 0, dataset: { focus: "hint-btn", hints: "button" }, onclick: ask },
      h("span", { class: "hint-icon", "aria-hidden": "true" }), h("span", { class: "hint-label" }, left ? t("hint_wait", { n: left }) : t("hint"))));
    // the sentence: over the table, just above the dock (the hand and the decision)
    const text = h("p", { class: "hint-text", id: "hint-text", role: "status", "aria-live": "polite" }, said);
    const shut = h("button", { type: "button", class: "btn ghost hint-close", id: "hint-close", "aria-label": t("close"), title: t("close"), onclick: close }, "×");
    const box = h("div", { class: "hint-float", id: "hint-float", hidden: !said, dataset: { hints: "text" } }, text, shut);
    (el.querySelector("#dock") || area).append(box);
    fitHint();
    if (current && current.action) mark(current.action);
  }

  // the sentence's room: from the piles (where it would lie over them: upright,
  // the board above it; else the top of the table's middle) down to the dock.
  // A longer sentence scrolls; where that room is lower than MIN_ROOM (the
  // dock tall with a long hand) the sentence reaches down over the top of the
  // hand instead of up over the piles. After each render and resize.
  function fitHint() {
    const box = /** @type {HTMLElement | null} */ (ctx.el.querySelector("#hint-float"));
    const dock = ctx.el.querySelector("#dock");
    const mid = ctx.el.querySelector("#table-mid");
    if (!box || box.hidden || !dock || !mid || box.parentElement !== dock) return;
    box.style.maxHeight = "";
    box.style.bottom = "";
    const at = box.getBoundingClientRect();
    let top = mid.getBoundingClientRect().top;
    for (const board of ctx.el.querySelectorAll(".board")) {
      const r = board.getBoundingClientRect();
      if (r.height > 0 && r.left < at.right && at.left < r.right) top = Math.max(top, r.bottom);
    }
    top += GAP;
    const room = Math.min(at.bottom - top, window.innerHeight * 0.6); // (its bottom just above the dock)
    const least = Math.min(at.height, MIN_ROOM);
    box.style.maxHeight = `${Math.max(room, least)}px`;
    if (room < least) box.style.bottom = `calc(100% + .35rem - ${Math.ceil(least - room)}px)`;
  }

  return { placeHints, fitHint, onHint, onHintError };
}
