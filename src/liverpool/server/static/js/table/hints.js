// @ts-check
// Hints (docs/protocol.md, "Hints"): at a table made with hints on, everyone
// sees "hints on" in the header; a player at their own decision has a "Hint"
// button in the decision's area (the buy or call prompt, else the decision
// bar). The server's answer is shown as its sentence beside the decision, and
// the card it names is marked in the hand (or the discard pile, for a draw
// from it, a buy or a call). A hint belongs to one version: the next update
// takes it away.
import { h } from "../dom.js";
import { t } from "../i18n.js";

// where the Hint button goes: the first of these on the page
const AREAS = ["#buy-prompt .sheet-body", "#call-prompt .sheet-body", "[data-testid=\"decision\"]", "#actions"];

/**
 * The hints of the table page ``ctx`` (its state ``s``, ``el``, ``st`` of
 * stateOf(), ``send``): ``placeHints()`` after each render, ``onHint(msg)``
 * of a ``hint`` message, ``onHintError(msg)`` of an ``error``.
 * @param {any} ctx
 */
export function tableHints(ctx) {
  const { s } = ctx;
  /** the hint of this version: {version, pending} | {version, stale} | {version, action, text} */
  s.hint = null;
  const on = () => !!(s.table && s.table.settings && s.table.settings.hints);

  function ask() {
    if (s.hint && s.hint.version === s.n && !s.hint.stale) return; // (asked already)
    if (ctx.send({ type: "hint", version: s.n })) {
      s.hint = { version: s.n, pending: true };
      placeHints();
    }
  }

  function onHint(msg) {
    if (msg.version !== s.n) return; // (for a version the page has left: dropped)
    s.hint = msg.stale ? { version: msg.version, stale: true } : { version: msg.version, action: msg.action, text: msg.text };
    placeHints();
  }

  function onHintError(msg) {
    if (!s.hint || !s.hint.pending) return;
    const code = String(msg.code || "");
    if (code.startsWith("server_hint") || code === "server_busy" || code === "server_spectator" || code === "server_try_again") {
      s.hint = null;
      placeHints();
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
  }

  function placeHints() {
    const el = ctx.el;
    for (const old of el.querySelectorAll("[data-hints]")) old.remove();
    for (const b of el.querySelectorAll(".hinted")) b.classList.remove("hinted");
    if (!on() || !s.view) return;
    const status = el.querySelector(".table-top .status") || el.querySelector(".table-top");
    if (status) status.append(h("span", { class: "tag hints-badge", id: "hints-badge", dataset: { hints: "badge" } }, t("hints_on")));
    const legal = s.view.legal_actions || [];
    if (s.seat === null || !legal.length || s.view.phase === "game_over") return;
    const area = AREAS.map((q) => el.querySelector(q)).find(Boolean);
    if (!area) return;
    const current = s.hint && s.hint.version === s.n ? s.hint : null;
    const said = !current ? "" : current.pending ? t("hint_thinking") : current.stale ? t("hint_stale") : current.text;
    const button = h("button", { type: "button", class: "btn small hint-btn", id: "hint-btn", disabled: !!(current && current.pending), dataset: { focus: "hint-btn" }, onclick: ask }, t("hint"));
    const text = h("p", { class: "hint-text", id: "hint-text", role: "status", "aria-live": "polite", hidden: !said }, said);
    area.append(h("div", { class: "row hint-row", dataset: { hints: "row" } }, button, text));
    if (current && current.action) mark(current.action);
  }

  return { placeHints, onHint, onHintError };
}
