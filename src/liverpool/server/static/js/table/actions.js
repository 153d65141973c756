// @ts-check
// The decisions: discard, lay down (the staged melds, checked by the server),
// lay off, swap a joker, buy, call; the decision bar and the buy/call window.
import { cardEl, cardLabel, cardName } from "../cards.js";
import { choose, h, toast } from "../dom.js";
import { t } from "../i18n.js";

/**
 * The actions of the table page ``ctx``.
 * @param {any} ctx
 */
export function tableActions(ctx) {
  const { s } = ctx;
  const { legal, legalOf, mine, myPlay, name, callWord, secondsLeft, grouped, cardOf, selectedCards, oneSelected } = ctx.st;
  const render = () => ctx.render();
  const act = (a) => ctx.act(a);
  const send = (m) => ctx.send(m);
  const el = ctx.el;

  async function discard(card) {
    const announce = !!el.querySelector("#announce:checked");
    const a = legalOf("discard").find((x) => x.card === card && !!x.announce === announce)
      || legalOf("discard").find((x) => x.card === card);
    if (a && risky(card, announce)) {
      // the card could be laid off: discarded, another player may call it (what
      // the call costs is said by the table's rule); asked first, as a player at
      // the table would be warned
      const choice = await choose(t(`risky_discard_${s.table.rules.discard_call}`, { card: cardLabel(card), call: callWord() }), [
        { value: "lay_off", label: t("lay_off") },
        { value: "discard", label: t("discard_anyway") },
      ], { cancel: t("cancel") });
      if (choice === null) { render(); return; }
      if (choice === "lay_off") {
        s.selected = new Set(s.order.filter((k) => cardOf(k) === card).slice(0, 1));
        startLayOff("lay_off");
        return;
      }
    }
    s.selected.clear();
    act(a || { type: "discard", card, announce: false }); // not legal: the server says why
  }

  /** May this discard be called? It fits the table now (a lay-off of it is legal,
   * so the seat is down, not in this turn) and the rules have calls; a last card
   * only where the last discard may be called; a Shanghai announce protects it. */
  function risky(card, announce) {
    const rules = s.table && s.table.rules;
    if (!rules || rules.discard_call === "none" || announce) return false;
    if (!legalOf("lay_off").some((x) => x.card === card)) return false;
    return (s.view.hand || []).length > 1 || !!rules.call_last_discard;
  }

  async function layOffOrSwap(card, meld) {
    const offs = legalOf("lay_off").filter((a) => a.card === card && a.meld === meld);
    const swaps = legalOf("swap_joker").filter((a) => a.card === card && a.meld === meld);
    const opts = [...offs, ...swaps];
    if (!opts.length) { act({ type: "lay_off", card, meld, end: null }); return; }
    let chosen = opts[0];
    if (opts.length > 1) {
      chosen = await choose(swaps.length ? t("lay_off_or_swap") : t("choose_end"), opts.map((a, i) => ({
        value: i,
        label: a.type === "swap_joker" ? t("swap_for", { card: cardLabel(card) })
          : a.end === "low" ? t("low_end") : a.end === "high" ? t("high_end") : t("lay_off"),
      })), { cancel: t("cancel") });
      if (chosen === null) return;
      chosen = opts[chosen];
    }
    s.selected.clear();
    act(chosen);
  }

  function startLayOff(type) {
    const card = oneSelected();
    if (!card) { toast(t("select_cards"), "info"); return; }
    const opts = legalOf(type).filter((a) => a.card === card);
    const melds = [...new Set(opts.map((a) => a.meld))];
    if (melds.length === 1 && opts.length === 1) { s.selected.clear(); act(opts[0]); return; }
    if (melds.length === 1) { layOffOrSwap(card, melds[0]); return; }
    s.pickMeld = { card, type, melds };
    toast(t("tap_meld"), "info");
    render();
  }

  function onMeldTap(index) {
    const card = s.pickMeld ? s.pickMeld.card : oneSelected();
    if (!card) { toast(t("select_cards"), "info"); return; }
    s.pickMeld = null;
    layOffOrSwap(card, index);
  }

  function addGroup(kind) {
    const keys = s.order.filter((k) => s.selected.has(k) && !grouped().has(k));
    if (!keys.length) { toast(t("select_cards"), "info"); return; }
    s.groups.push({ kind, keys });
    s.selected.clear();
    render();
  }

  function suggest() {
    const a = legalOf("lay_down")[0];
    if (!a) return;
    s.groups = [];
    const used = new Set();
    for (const m of a.melds) {
      const keys = [];
      for (const c of m.cards) {
        const k = s.order.find((x) => !used.has(x) && cardOf(x) === c);
        if (k) { used.add(k); keys.push(k); }
      }
      s.groups.push({ kind: m.kind, keys });
    }
    s.selected.clear();
    render();
  }

  function check() {
    if (!s.groups.length) { toast(t("select_cards"), "info"); return; }
    s.checking = true;
    send({ type: "check", melds: s.groups.map((g) => g.keys.map(cardOf)) });
    render();
  }

  async function onCheck(msg) {
    if (!msg.ok) { toast(msg.message); render(); return; }
    let i = 0;
    if (msg.actions.length > 1) {
      const label = (/** @type {string} */ text) => text.charAt(0).toUpperCase() + text.slice(1);
      i = await choose(t("choose_lay_down"), msg.texts.map((text, k) => ({ value: k, label: label(text) })), { cancel: t("cancel") });
      if (i === null) { render(); return; }
    }
    act(msg.actions[i]);
  }

  async function call() {
    const calls = legalOf("call");
    if (!calls.length) return;
    let a = calls[0];
    if (calls.length > 1) {
      const i = await choose(callWord(), calls.map((c, k) => ({
        value: k,
        label: `${c.meld >= 0 ? `${t("table")} ${c.meld + 1}` : callWord()}${c.end ? ` — ${c.end === "low" ? t("low_end") : t("high_end")}` : ""}`,
      })), { cancel: t("cancel") });
      if (i === null) return;
      a = calls[i];
    }
    act(a);
  }

  function setAutoPass(v) { send({ type: "settings", auto_pass: v }); }

  // -------------------------------------------------------- decision bar
  function renderActions() {
    const v = s.view;
    const bar = h("section", { class: "actions", id: "actions" });
    if (s.seat === null || v.phase === "game_over") return bar;
    const L = legal();
    const btn = (id, label, onclick, { enabled = true, primary = false, decision = true, extra = {} } = {}) => h("button", {
      type: "button", id, class: `btn ${primary ? "primary" : ""}`, disabled: !enabled, onclick,
      dataset: { decision: decision ? "1" : undefined, focus: id, ...extra },
    }, label);
    if (v.phase === "cut" && mine()) {
      const counts = legalOf("cut").map((a) => a.count);
      const max = Math.max(...counts);
      const mid = Math.round(max / 2);
      const range = h("input", { type: "range", id: "cut-range", min: Math.min(...counts), max, value: mid, "aria-label": t("cut") });
      const out = h("output", { for: "cut-range" }, t("cut_count", { n: mid }));
      range.addEventListener("input", () => { out.textContent = t("cut_count", { n: range.value }); });
      bar.append(h("div", { class: "row" }, range, out,
        btn("cut-btn", t("cut"), () => act({ type: "cut", count: parseInt(range.value, 10) }), { primary: true })));
      return bar;
    }
    if (v.phase === "draw" && mine()) {
      bar.append(h("div", { class: "row" },
        btn("draw-stock", t("draw_stock"), () => act({ type: "draw", source: "stock" }), { primary: true, enabled: L.some((a) => a.type === "draw" && a.source === "stock") }),
        btn("take-discard", t("take_discard"), () => act({ type: "draw", source: "discard" }), { enabled: L.some((a) => a.type === "draw" && a.source === "discard") })));
      return bar;
    }
    if (!myPlay()) {
      // (while the round's summary is up, the summary's own line says what it means for the player)
      if ((v.phase === "play" || v.phase === "draw") && !(s.summary && s.summaryOpen)) {
        bar.append(h("p", { class: "hint" }, v.to_move !== null ? t("waiting_for", { name: name(v.to_move) }) : ""));
      }
      return bar;
    }
    const sel = selectedCards();
    const one = sel.length === 1 ? sel[0] : null;
    const down = v.laid_down[s.seat];
    const layDowns = legalOf("lay_down");
    const offsFor = one ? L.filter((a) => a.type === "lay_off" && a.card === one) : [];
    const swapsFor = one ? L.filter((a) => a.type === "swap_joker" && a.card === one) : [];
    const discardFor = one ? L.some((a) => a.type === "discard" && a.card === one) : false;
    const announce = L.some((a) => a.type === "discard" && a.announce);
    const row1 = h("div", { class: "row decisions" });
    if (!down) {
      row1.append(btn("suggest", t("suggest"), suggest, { enabled: layDowns.length > 0 && !s.groups.length, extra: { melds: layDowns.length ? JSON.stringify(layDowns[0].melds.map((m) => ({ kind: m.kind, cards: m.cards }))) : "" } }));
      row1.append(btn("lay-down", t("lay_down"), check, { enabled: s.groups.length > 0 && !s.checking, primary: s.groups.length > 0 }));
    } else {
      // (a card that fits the table: laying it off is the move to offer first)
      row1.append(btn("lay-off", t("lay_off"), () => startLayOff("lay_off"), { enabled: offsFor.length > 0, primary: offsFor.length > 0 }));
      if (L.some((a) => a.type === "swap_joker")) row1.append(btn("swap", t("swap"), () => startLayOff("swap_joker"), { enabled: swapsFor.length > 0 }));
    }
    row1.append(btn("discard-btn", t("discard"), () => discard(one), { enabled: discardFor && !s.groups.length, primary: discardFor && !s.groups.length && !offsFor.length }));
    bar.append(row1);
    if (announce) bar.append(h("label", { class: "check" }, h("input", { type: "checkbox", id: "announce" }), ` ${t("announce")}`));
    if (!down) {
      const free = sel.filter(Boolean).length;
      bar.append(h("div", { class: "row tools-row" },
        btn("new-set", t("new_set"), () => addGroup("set"), { enabled: free > 0, decision: false }),
        btn("new-run", t("new_run"), () => addGroup("run"), { enabled: free > 0, decision: false }),
        btn("clear", t("clear"), () => { s.groups = []; s.selected.clear(); render(); }, { enabled: s.groups.length > 0 || sel.length > 0, decision: false })));
    }
    bar.append(h("p", { class: "hint" }, s.pickMeld ? t("tap_meld") : v.pending_wilds ? t("joker_owed") : t("select_cards")));
    return bar;
  }

  // the buy or call window of this seat (before its turn too)
  function renderWindow() {
    const v = s.view;
    if (s.seat === null || !(v.phase === "buy" || v.phase === "call")) return null;
    const L = legal();
    if (!L.length) return null;
    const card = v.offered_card;
    const left = secondsLeft();
    const isBuy = v.phase === "buy";
    const title = isBuy ? t("buy_prompt", { card: card ? cardLabel(card) : "" }) : t("call_prompt", { card: card ? cardLabel(card) : "" });
    const spoken = t(isBuy ? "buy_prompt" : "call_prompt", { card: card ? cardName(card) : "" }); // (the card in words)
    const buttons = [];
    if (isBuy && L.some((a) => a.type === "buy")) buttons.push(h("button", { type: "button", class: "btn primary", id: "buy-btn", dataset: { decision: "1", focus: "buy-btn" }, onclick: () => act({ type: "buy" }) }, t("buy")));
    if (!isBuy && L.some((a) => a.type === "call")) buttons.push(h("button", { type: "button", class: "btn primary", id: "call-btn", dataset: { decision: "1", focus: "call-btn" }, onclick: call }, callWord()));
    if (L.some((a) => a.type === "pass")) buttons.push(h("button", { type: "button", class: "btn", id: "pass-btn", dataset: { decision: "1", focus: "pass-btn" }, onclick: () => act({ type: "pass" }) }, t("pass")));
    // in the decision area, beside the offered card: it covers nothing
    return h("section", { class: "window-prompt", id: isBuy ? "buy-prompt" : "call-prompt", "aria-label": spoken },
      h("div", { class: "window-card" }, card ? cardEl(card, { small: true }) : null),
      h("div", { class: "window-body" },
        h("h2", {}, title),
        left !== null ? h("p", { class: "countdown", dataset: { countdown: "1" } }, t("auto_pass_in", { n: left })) : null,
        h("div", { class: "row" }, buttons),
        isBuy ? h("label", { class: "check small" }, h("input", { type: "checkbox", id: "dont-ask", checked: s.autoPass, onchange: (e) => setAutoPass(e.target.checked) }), ` ${t("dont_ask")}`) : null));
  }

  return { discard, layOffOrSwap, startLayOff, onMeldTap, onCheck, setAutoPass, renderActions, renderWindow };
}
