// The table page: one game over the WebSocket, every decision from view.legal_actions.
import { api, savedName, saveName, tokens } from "./api.js";
import { cardBack, cardEl, cardLabel, meldEl, sortKey } from "./cards.js";
import { legend, totalsChart } from "./chart.js";
import { Connection } from "./conn.js";
import { banner, choose, copyText, h, navigate, showDialog, toast } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { rulesView } from "./rules.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export async function tablePage(code) {
  const el = h("section", { class: "page table-page", id: "table-page" });
  const s = {
    code, seat: null, table: null, view: null, n: -1, lastSeq: -1,
    log: [], deadline: null, deadlineAt: null, autoPass: false, described: null,
    order: [], keyCard: new Map(), nextKey: 0, fresh: new Set(), cardEls: new Map(),
    sortMode: localStorage.getItem("lv.sort") || "suit", selected: new Set(), groups: [],
    pickMeld: null, summary: null, summaryOpen: false, standingsOpen: true,
    conn: null, resync: false, replaceLog: false, checking: false, dragging: null,
    joinHidden: false, fatal: null,
  };
  // the seat token stays in this closure (and the browser's storage): never on window
  let token = null;
  window.__lv = s; // for the tests and curious people

  // ---------------------------------------------------------------- start
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("seat")) {
    tokens.set(code, hash.get("seat"));
    history.replaceState({}, "", location.pathname);
  }
  token = tokens.get(code);
  try {
    const info = await api("GET", `/api/tables/${code}`, undefined, token);
    s.table = info;
    if (info.you === null && token) { tokens.drop(code); token = null; }
    s.seat = info.you;
    s.described = await api("GET", `/api/tables/${code}/rules`);
  } catch (e) {
    el.append(h("div", { class: "card-panel error-page" }, h("p", {}, e.message), h("a", { href: "/", "data-link": true, class: "btn" }, t("home"))));
    return { el, title: code };
  }

  function wsUrl() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = new URLSearchParams({ lang: getLang(), symbols: "true" });
    return `${proto}://${location.host}/ws/${code}?${q}`;
  }

  function connect() {
    if (s.conn) s.conn.close();
    s.conn = new Connection(wsUrl, {
      token,
      onMessage,
      onOpen: (again) => { banner(null); if (again) s.resync = true; if (s.seat !== null) s.conn.send({ type: "settings" }); },
      onDown: () => banner(t("disconnected")),
      onFatal: () => { s.fatal = true; banner(null); },
    });
  }

  function send(obj) {
    if (!s.conn || !s.conn.send(obj)) { toast(t("disconnected")); return false; }
    return true;
  }

  function act(action) {
    s.pickMeld = null;
    return send({ type: "action", version: s.n, action });
  }

  function sync() { send({ type: "sync", events_since: s.lastSeq + 1 }); }

  // ------------------------------------------------------------- messages
  function onMessage(msg) {
    switch (msg.type) {
      case "snapshot": {
        s.seat = msg.seat;
        s.table = msg.table;
        const fromSync = !s.replaceLog && s.log.length > 0;
        if (s.replaceLog) { s.log = []; s.lastSeq = -1; s.replaceLog = false; }
        takeView(msg.view, msg.events, msg.deadline, fromSync);
        s.n = msg.n;
        if (s.resync) { s.resync = false; sync(); }
        render();
        break;
      }
      case "update": {
        const gap = s.n >= 0 && msg.n !== s.n + 1;
        takeView(msg.view, msg.events, msg.deadline, true);
        s.n = msg.n;
        render();
        if (gap) sync();
        break;
      }
      case "table":
        s.table = msg.table;
        render();
        break;
      case "error":
        toast(msg.message);
        if (typeof msg.n === "number" && msg.n > s.n) sync();
        break;
      case "check":
        s.checking = false;
        onCheck(msg);
        break;
      case "settings":
        s.autoPass = !!msg.auto_pass;
        render();
        break;
      default:
        break;
    }
  }

  function takeView(view, events, deadline, live) {
    const before = s.view;
    const seen = new Set(s.log.map((e) => e.event.seq));
    const fresh = [];
    for (const item of events || []) {
      const seq = item.event.seq;
      if (seen.has(seq)) {
        const i = s.log.findIndex((e) => e.event.seq === seq);
        s.log[i] = item;
        continue;
      }
      s.log.push(item);
      fresh.push(item);
      seen.add(seq);
    }
    s.log.sort((a, b) => a.event.seq - b.event.seq);
    if (s.log.length > 400) s.log.splice(0, s.log.length - 400);
    if (s.log.length) s.lastSeq = Math.max(s.lastSeq, s.log[s.log.length - 1].event.seq);
    if (live) {
      for (const item of fresh) {
        const e = item.event;
        if (e.type === "round_over") {
          const mine = s.seat !== null && before && e.winner !== s.seat ? [...before.hand] : [];
          const hands = Array.isArray(e.hands_left) && e.hands_left.length ? e.hands_left : null;
          s.summary = { round: e.round, scores: e.scores, winner: e.winner, hand: hands ? [] : mine, hands, text: item.text };
          s.summaryOpen = true;
        }
      }
    }
    s.view = view;
    s.deadline = deadline;
    s.deadlineAt = deadline === null || deadline === undefined ? null : performance.now() + deadline * 1000;
    reconcileHand(view.hand || []);
    if (!myPlay() || (s.seat !== null && view.laid_down && view.laid_down[s.seat])) { s.groups = []; }
    if (!myPlay()) s.pickMeld = null;
  }

  // ----------------------------------------------------------------- hand
  function reconcileHand(hand) {
    const want = new Map();
    for (const c of hand) want.set(c, (want.get(c) || 0) + 1);
    const keep = [];
    for (const k of s.order) {
      const c = s.keyCard.get(k);
      if (want.get(c) > 0) { keep.push(k); want.set(c, want.get(c) - 1); } else s.keyCard.delete(k);
    }
    s.fresh = new Set();
    const first = s.order.length === 0;
    for (const [c, n] of want) {
      for (let i = 0; i < n; i++) {
        const k = `k${s.nextKey++}`;
        s.keyCard.set(k, c);
        keep.push(k);
        if (!first) s.fresh.add(k);
      }
    }
    s.order = keep;
    if (s.sortMode !== "custom") sortHand();
    const present = new Set(s.order);
    for (const k of [...s.selected]) if (!present.has(k)) s.selected.delete(k);
    s.groups = s.groups.map((g) => ({ ...g, keys: g.keys.filter((k) => present.has(k)) })).filter((g) => g.keys.length);
  }

  function sortHand() {
    const mode = s.sortMode === "rank" ? "rank" : "suit";
    s.order.sort((a, b) => sortKey(s.keyCard.get(a), mode) - sortKey(s.keyCard.get(b), mode));
  }

  const grouped = () => new Set(s.groups.flatMap((g) => g.keys));
  const handKeys = () => { const g = grouped(); return s.order.filter((k) => !g.has(k)); };
  const cardOf = (k) => s.keyCard.get(k);

  // ------------------------------------------------------------- helpers
  const legal = () => (s.view && s.view.legal_actions) || [];
  const legalOf = (type) => legal().filter((a) => a.type === type);
  const mine = () => s.seat !== null && s.view && s.view.to_move === s.seat;
  function myPlay() { return s.view && s.seat !== null && s.view.phase === "play" && s.view.turn_player === s.seat && legal().length > 0; }
  function name(i) {
    const seat = s.table && s.table.seats[i];
    return (seat && seat.name) || t("seat_n", { n: i + 1 });
  }
  function callWord() {
    const mode = s.table && s.table.rules.discard_call;
    return mode === "shanghai" ? t("call_shanghai") : t("call_liverpool");
  }
  function contractText(round) {
    const d = s.described;
    const rules = s.table.rules;
    const optVal = (k) => (d.options.find((o) => o.key === k) || {}).value;
    if (same(optVal("contracts"), rules.contracts) && same(optVal("deal"), rules.deal)) {
      const r = d.rounds.find((x) => x.round === round);
      if (r) return r.contract_text;
    }
    const c = s.view.contract;
    const parts = [];
    if (c.sets) parts.push(`${c.sets} × ${t("new_set")}`);
    if (c.runs) parts.push(`${c.runs} × ${t("new_run")}`);
    return parts.join(" + ");
  }
  function secondsLeft() {
    if (s.deadlineAt === null) return null;
    return Math.max(0, Math.ceil((s.deadlineAt - performance.now()) / 1000));
  }

  // -------------------------------------------------------------- actions
  function selectedCards() { return s.order.filter((k) => s.selected.has(k)).map(cardOf); }
  function oneSelected() { const c = selectedCards(); return c.length === 1 ? c[0] : null; }

  function discard(card) {
    const announce = !!el.querySelector("#announce:checked");
    const a = legalOf("discard").find((x) => x.card === card && !!x.announce === announce)
      || legalOf("discard").find((x) => x.card === card);
    s.selected.clear();
    act(a || { type: "discard", card, announce: false }); // not legal: the server says why
  }

  async function layOffOrSwap(card, meld) {
    const offs = legalOf("lay_off").filter((a) => a.card === card && a.meld === meld);
    const swaps = legalOf("swap_joker").filter((a) => a.card === card && a.meld === meld);
    const opts = [...offs, ...swaps];
    if (!opts.length) { act({ type: "lay_off", card, meld, end: null }); return; }
    let chosen = opts[0];
    if (opts.length > 1) {
      chosen = await choose(t("choose_end"), opts.map((a, i) => ({
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
      i = await choose(t("choose_lay_down"), msg.texts.map((text, k) => ({ value: k, label: text })), { cancel: t("cancel") });
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

  async function join(nameValue) {
    saveName(nameValue);
    try {
      const r = await api("POST", `/api/tables/${code}/join`, { name: nameValue, lang: getLang() }, token);
      tokens.set(code, r.token);
      token = r.token;
      s.seat = r.seat;
      s.replaceLog = true;
      connect();
    } catch (e) {
      toast(e.message);
      s.joinHidden = true;
      render();
    }
  }

  async function playAgain() {
    try {
      const r = await api("POST", `/api/tables/${code}/again`, undefined, token);
      tokens.set(r.code, token);
      navigate(r.url);
    } catch (e) { toast(e.message); }
  }

  function goNext() {
    const next = s.table.next_code;
    if (token) tokens.set(next, token);
    navigate(`/t/${next}`);
  }

  // --------------------------------------------------------------- render
  function render() {
    if (s.dragging) { s.renderLater = true; return; }
    if (!s.view || !s.table) { el.replaceChildren(h("p", { class: "loading" }, "…")); return; }
    const focusKey = document.activeElement && document.activeElement.closest("#table-page") ? document.activeElement.dataset.focus : null;
    const v = s.view;
    document.body.classList.toggle("four-colour", localStorage.getItem("lv.four") === "1");
    el.replaceChildren(...[
      renderTop(), renderJoin(), renderSeats(), renderBoard(), renderMelds(),
      renderStaging(), renderHand(), renderActions(),
      h("div", { class: "side-panels" }, renderScores(), renderLog()),
      renderWindow(), renderSummary(), v.phase === "game_over" ? renderStandings() : null,
    ].filter(Boolean));
    layoutHand();
    scrollLog();
    if (focusKey) {
      const f = el.querySelector(`[data-focus="${CSS.escape(focusKey)}"]`);
      if (f) f.focus({ preventScroll: true });
    }
  }

  function renderTop() {
    const v = s.view;
    const free = s.table.seats.filter((x) => x.kind === "human" && !x.taken).length;
    const invite = `${location.origin}/t/${code}`;
    let who;
    if (v.phase === "game_over") who = t("game_over");
    else if (mine() || (v.phase === "buy" || v.phase === "call") && legal().length) who = t("your_turn");
    else if (v.to_move !== null && v.to_move !== undefined) who = t("waiting_for", { name: name(v.to_move) });
    else who = "";
    const left = secondsLeft();
    const four = h("input", { type: "checkbox", id: "four-colour", checked: localStorage.getItem("lv.four") === "1", onchange: (e) => { localStorage.setItem("lv.four", e.target.checked ? "1" : "0"); render(); } });
    const status = h("div", { class: "status", id: "status" },
      h("span", { class: "round" }, t("round_of", { round: v.round, rounds: v.num_rounds })),
      h("span", { class: "contract" }, h("b", {}, `${t("contract")}: `), contractText(v.round)),
      h("span", { class: "dealt" }, t("dealt", { n: v.cards_dealt })),
      h("span", { class: `turn ${mine() ? "mine" : ""}`, id: "whose-turn" }, who,
        left !== null && v.phase !== "buy" && v.phase !== "call" ? h("span", { class: "countdown", dataset: { countdown: "1" } }, ` ${t("seconds_left", { n: left })}`) : null));
    const tools = h("div", { class: "tools" },
      h("span", { class: "code-tag" }, `${t("code")}: `, h("b", {}, code)),
      s.seat === null ? h("span", { class: "tag" }, t("spectator")) : null,
      h("button", { type: "button", class: "btn small", id: "rules-btn", onclick: showRules }, t("rules")),
      h("label", { class: "check small" }, four, ` ${t("four_colours")}`),
      s.seat !== null ? h("label", { class: "check small" }, h("input", { type: "checkbox", id: "auto-pass-tool", checked: s.autoPass, onchange: (e) => setAutoPass(e.target.checked) }), ` ${t("dont_ask")}`) : null);
    const inviteBox = h("details", { class: "invite", open: free > 0 },
      h("summary", {}, t("invite")),
      h("div", { class: "link-row" }, h("input", { readonly: true, value: invite, id: "invite-link", "aria-label": t("invite"), onfocus: (e) => e.target.select() }),
        h("button", { type: "button", class: "btn small", id: "copy-invite", onclick: (e) => copyText(invite, e.currentTarget, t("copied")) }, t("copy"))),
      token ? h("div", { class: "link-row personal" }, h("small", {}, t("personal_link")),
        h("button", { type: "button", class: "btn small ghost", id: "copy-personal", onclick: (e) => copyText(`${invite}#seat=${token}`, e.currentTarget, t("copied")) }, t("copy"))) : null);
    const next = s.table.next_code ? h("div", { class: "next-game card-panel" }, t("next_game"), " ",
      h("button", { type: "button", class: "btn primary small", id: "go-next", onclick: goNext }, t("to_next_game"))) : null;
    return h("div", { class: "table-top" }, status, tools, inviteBox, next);
  }

  function renderJoin() {
    if (s.seat !== null || s.joinHidden) return null;
    const free = s.table.seats.some((x) => x.kind === "human" && !x.taken);
    if (!free) return null;
    const form = h("form", { class: "card-panel join", id: "join-form", onsubmit: (e) => { e.preventDefault(); join(e.target.elements.name.value.trim()); } },
      h("h2", {}, t("join_prompt")),
      h("div", { class: "field inline" }, h("label", { for: "join-name" }, t("your_name")),
        h("input", { id: "join-name", name: "name", maxlength: 40, value: savedName(), autocomplete: "nickname" }),
        h("button", { type: "submit", class: "btn primary", id: "join-btn" }, t("join")),
        h("button", { type: "button", class: "btn ghost", id: "watch-btn", onclick: () => { s.joinHidden = true; render(); } }, t("watch"))));
    return form;
  }

  function renderSeats() {
    const v = s.view;
    const n = v.players;
    const start = s.seat === null ? 0 : s.seat;
    const items = [];
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      const seat = s.table.seats[i] || {};
      const turn = v.turn_player === i;
      const deciding = v.to_move === i;
      items.push(h("li", { class: `seat-chip ${turn ? "turn" : ""} ${deciding ? "deciding" : ""} ${i === s.seat ? "me" : ""}`, dataset: { seat: i } },
        h("span", { class: "nm" }, turn ? "▶ " : "", name(i), i === s.seat ? ` (${t("you")})` : ""),
        h("span", { class: "meta" },
          h("span", { class: "cnt", title: t("cards_left", { n: v.hand_sizes[i] }), "aria-label": t("cards_left", { n: v.hand_sizes[i] }) }, h("span", { class: "mini-back", "aria-hidden": "true" }), ` ${v.hand_sizes[i]}`),
          h("span", { class: "buys", title: t("buys_used", { n: v.buys[i] }) }, t("buys_used", { n: `${v.buys[i]}/${v.buy_limit ?? "∞"}` })),
          v.laid_down[i] ? h("span", { class: "badge down" }, `✓ ${t("down")}`) : null,
          v.dealer === i ? h("span", { class: "badge dealer" }, t("dealer")) : null,
          seat.kind === "bot" ? h("span", { class: "badge bot" }, `${t("bot")} · ${t(`level_${seat.level || "medium"}`)}`) : null,
          seat.kind === "human" && !seat.taken ? h("span", { class: "badge free" }, t("free_seat")) : null,
          seat.away ? h("span", { class: "badge away" }, t("away")) : null,
          seat.kind === "human" && seat.taken ? h("span", { class: `dot ${seat.connected ? "on" : "off"}`, "aria-hidden": "true" }, "●") : null)));
    }
    return h("ul", { class: "seats-strip", id: "seats" }, items);
  }

  function renderBoard() {
    const v = s.view;
    const top = v.discard_pile.length ? v.discard_pile[v.discard_pile.length - 1] : null;
    const canStock = legal().some((a) => a.type === "draw" && a.source === "stock");
    const canTake = legal().some((a) => a.type === "draw" && a.source === "discard");
    const stock = h("button", { type: "button", class: `pile stock ${canStock ? "live" : ""}`, id: "stock", "aria-label": `${t("stock")} (${v.stock_size})`, dataset: { focus: "stock" },
      onclick: () => act({ type: "draw", source: "stock" }) },
    cardBack(), h("span", { class: "pile-label" }, `${t("stock")} · ${v.stock_size}`));
    const pile = h("button", { type: "button", class: `pile discard ${canTake ? "live" : ""} drop-target`, id: "discard", dataset: { focus: "discard", drop: "discard" },
      "aria-label": `${t("discard_pile")}${top ? `: ${cardLabel(top)}` : ""}`,
      onclick: () => {
        const c = oneSelected();
        if (myPlay() && c) discard(c);
        else act({ type: "draw", source: "discard" });
      } },
    top ? cardEl(top) : h("span", { class: "card empty" }), h("span", { class: "pile-label" }, `${t("discard_pile")} · ${v.discard_pile.length}`));
    return h("div", { class: "board", id: "board" }, stock, pile);
  }

  function renderMelds() {
    const v = s.view;
    const rules = s.table.rules;
    const byOwner = new Map();
    v.table.forEach((m, i) => {
      if (!byOwner.has(m.owner)) byOwner.set(m.owner, []);
      byOwner.get(m.owner).push([m, i]);
    });
    const targets = new Set();
    if (s.pickMeld) for (const m of s.pickMeld.melds) targets.add(m);
    const sel = oneSelected();
    if (sel && myPlay()) for (const a of legal()) if ((a.type === "lay_off" || a.type === "swap_joker") && a.card === sel) targets.add(a.meld);
    const groups = [];
    for (const [owner, list] of [...byOwner.entries()].sort((a, b) => a[0] - b[0])) {
      groups.push(h("div", { class: "owner-group", dataset: { owner } },
        h("div", { class: "owner-name" }, name(owner), owner === s.seat ? ` (${t("you")})` : ""),
        h("div", { class: "owner-melds" }, list.map(([m, i]) => {
          const btn = h("button", { type: "button", class: `meld-btn drop-target ${targets.has(i) ? "target" : ""}`, dataset: { meld: i, drop: "meld", focus: `meld${i}` },
            "aria-label": `${t("table")} ${i + 1}: ${m.cards.map(cardLabel).join(" ")}`, onclick: () => onMeldTap(i) });
          btn.append(meldEl(m, rules));
          return btn;
        }))));
    }
    return h("section", { class: "melds", id: "melds", "aria-label": t("table") },
      groups.length ? groups : h("p", { class: "hint" }, t("table")));
  }

  function renderStaging() {
    if (!s.groups.length) return null;
    return h("section", { class: "staging card-panel", id: "staging" },
      h("h3", {}, t("your_lay_down")),
      h("div", { class: "groups" }, s.groups.map((g, gi) => h("div", { class: `group ${g.kind}`, dataset: { group: gi } },
        h("span", { class: "group-kind" }, g.kind === "run" ? t("new_run") : t("new_set")),
        h("span", { class: "group-cards" }, g.keys.map((k) => cardEl(cardOf(k), { small: true }))),
        h("button", { type: "button", class: "btn tiny ghost", "aria-label": t("clear"), onclick: () => { s.groups.splice(gi, 1); render(); } }, "×")))));
  }

  function renderHand() {
    const keys = handKeys();
    const wrap = h("section", { class: "hand", id: "hand", "aria-label": t("hand"), dataset: { drop: "hand" } });
    if (s.seat === null) {
      wrap.append(h("p", { class: "hint" }, t("spectator")));
      return wrap;
    }
    const rows = h("div", { class: "hand-rows" });
    const live = new Set(keys);
    for (const k of [...s.cardEls.keys()]) if (!live.has(k)) s.cardEls.delete(k);
    for (const k of keys) {
      let b = s.cardEls.get(k);
      if (!b) {
        // one element per card for as long as it is in the hand: a tap survives a re-render
        b = cardEl(cardOf(k), { tag: "button", attrs: { type: "button" } });
        b.classList.add("hand-card");
        b.dataset.key = k;
        b.dataset.focus = k;
        b.addEventListener("click", () => {
          if (s.suppressClick) { s.suppressClick = false; return; }
          if (s.selected.has(k)) s.selected.delete(k); else s.selected.add(k);
          s.pickMeld = null;
          render();
        });
        b.addEventListener("keydown", (e) => onHandKey(e, k));
        b.addEventListener("pointerdown", (e) => onPointerDown(e, k));
        s.cardEls.set(k, b);
      }
      b.setAttribute("aria-pressed", s.selected.has(k) ? "true" : "false");
      b.classList.toggle("selected", s.selected.has(k));
      b.classList.toggle("fresh", s.fresh.has(k));
      b.classList.remove("dragging", "drop-over");
      rows.append(b);
    }
    const sortBtn = h("button", { type: "button", class: "btn small", id: "sort-btn", onclick: () => {
      s.sortMode = s.sortMode === "rank" ? "suit" : "rank";
      localStorage.setItem("lv.sort", s.sortMode);
      sortHand(); render();
    } }, s.sortMode === "rank" ? t("sort_suit") : t("sort_rank"));
    wrap.append(h("div", { class: "hand-head" }, h("h3", {}, t("hand"), ` · ${t("cards_left", { n: s.view.hand.length })}`), sortBtn), rows);
    return wrap;
  }

  function layoutHand() {
    const rows = el.querySelector(".hand-rows");
    if (!rows) return;
    const cards = [...rows.children];
    if (!cards.length) return;
    const width = rows.clientWidth;
    const cw = cards[0].offsetWidth || 56;
    let perRow = cards.length;
    let step = cards.length > 1 ? (width - cw - 2) / (cards.length - 1) : cw;
    const minStep = Math.max(20, cw * 0.42);
    let lines = 1;
    while (step < minStep && lines < 4) {
      lines += 1;
      perRow = Math.ceil(cards.length / lines);
      step = perRow > 1 ? (width - cw - 2) / (perRow - 1) : cw;
    }
    step = Math.min(step, cw + 6);
    rows.style.setProperty("--lines", lines);
    cards.forEach((c, i) => {
      const col = i % perRow;
      const line = Math.floor(i / perRow);
      c.style.left = `${col * step}px`;
      c.style.top = `${line * (c.offsetHeight * 0.62 + 6)}px`;
      c.style.zIndex = String(i + 1);
    });
    const ch = cards[0].offsetHeight || 80;
    rows.style.height = `${(lines - 1) * (ch * 0.62 + 6) + ch + 14}px`;
  }

  function onHandKey(e, k) {
    const keys = handKeys();
    const i = keys.indexOf(k);
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      e.preventDefault();
      const j = e.key === "ArrowLeft" ? i - 1 : i + 1;
      if (j < 0 || j >= keys.length) return;
      if (e.shiftKey || e.altKey) {
        moveKey(k, keys[j], e.key === "ArrowRight");
        render();
        const f = el.querySelector(`[data-key="${k}"]`);
        if (f) f.focus();
      } else {
        const f = el.querySelector(`[data-key="${keys[j]}"]`);
        if (f) f.focus();
      }
    } else if (e.key === "Delete" || e.key === "d" || e.key === "D") {
      if (myPlay()) { e.preventDefault(); discard(cardOf(k)); }
    }
  }

  function moveKey(k, target, after) {
    const o = s.order.filter((x) => x !== k);
    let j = o.indexOf(target);
    if (j < 0) j = o.length; else if (after) j += 1;
    o.splice(j, 0, k);
    s.order = o;
    s.sortMode = "custom";
  }

  // ------------------------------------------------------- drag and drop
  function onPointerDown(e, k) {
    if (e.button !== 0 && e.pointerType === "mouse") return;
    const src = e.currentTarget;
    s.dragging = { key: k, x0: e.clientX, y0: e.clientY, started: false, src, ghost: null, over: null, id: e.pointerId };
    const move = (ev) => onPointerMove(ev);
    const up = (ev) => { cleanup(); onPointerUp(ev); };
    const cancel = () => { cleanup(); endDrag(); };
    const cleanup = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", cancel);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
  }

  function onPointerMove(e) {
    const d = s.dragging;
    if (!d) return;
    if (!d.started) {
      if (Math.hypot(e.clientX - d.x0, e.clientY - d.y0) < 8) return;
      d.started = true;
      const r = d.src.getBoundingClientRect();
      d.dx = d.x0 - r.left; d.dy = d.y0 - r.top;
      d.ghost = d.src.cloneNode(true);
      d.ghost.classList.add("ghost");
      d.ghost.style.left = "0px"; d.ghost.style.top = "0px";
      document.body.append(d.ghost);
      d.src.classList.add("dragging");
      el.classList.add("is-dragging");
    }
    e.preventDefault();
    d.ghost.style.transform = `translate(${e.clientX - d.dx}px, ${e.clientY - d.dy}px) rotate(4deg)`;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const target = under && (under.closest(".hand-card") || under.closest("[data-drop]"));
    if (d.over && d.over !== target) d.over.classList.remove("drop-over");
    d.over = target && target !== d.src ? target : null;
    if (d.over) d.over.classList.add("drop-over");
  }

  function onPointerUp(e) {
    const d = s.dragging;
    if (!d) return;
    if (!d.started) { s.dragging = null; if (s.renderLater) { s.renderLater = false; render(); } return; }
    s.suppressClick = true;
    setTimeout(() => { s.suppressClick = false; }, 50);
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const card = cardOf(d.key);
    const over = under && (under.closest(".hand-card") || under.closest("[data-drop]"));
    endDrag();
    if (!over) { render(); return; }
    if (over.classList.contains("hand-card") && over.dataset.key !== d.key) {
      const r = over.getBoundingClientRect();
      moveKey(d.key, over.dataset.key, e.clientX > r.left + r.width / 2);
      render();
    } else if (over.dataset.drop === "discard") {
      s.selected.clear();
      discard(card);
      render();
    } else if (over.dataset.drop === "meld") {
      s.selected.clear();
      layOffOrSwap(card, parseInt(over.dataset.meld, 10));
      render();
    } else if (over.dataset.drop === "hand") {
      moveKey(d.key, null, false);
      render();
    } else render();
  }

  function endDrag() {
    const d = s.dragging;
    if (!d) return;
    if (d.ghost) d.ghost.remove();
    if (d.over) d.over.classList.remove("drop-over");
    d.src.classList.remove("dragging");
    el.classList.remove("is-dragging");
    s.dragging = null;
    if (s.renderLater) { s.renderLater = false; render(); }
  }

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
      if (v.phase === "play" || v.phase === "draw") bar.append(h("p", { class: "hint" }, v.to_move !== null ? t("waiting_for", { name: name(v.to_move) }) : ""));
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
      row1.append(btn("lay-off", t("lay_off"), () => startLayOff("lay_off"), { enabled: offsFor.length > 0 }));
      if (L.some((a) => a.type === "swap_joker")) row1.append(btn("swap", t("swap"), () => startLayOff("swap_joker"), { enabled: swapsFor.length > 0 }));
    }
    row1.append(btn("discard-btn", t("discard"), () => discard(one), { enabled: discardFor && !s.groups.length, primary: discardFor && !s.groups.length }));
    bar.append(row1);
    if (announce) bar.append(h("label", { class: "check" }, h("input", { type: "checkbox", id: "announce" }), ` ${t("announce")}`));
    if (!down) {
      const free = sel.filter(Boolean).length;
      bar.append(h("div", { class: "row tools-row" },
        btn("new-set", t("new_set"), () => addGroup("set"), { enabled: free > 0, decision: false }),
        btn("new-run", t("new_run"), () => addGroup("run"), { enabled: free > 0, decision: false }),
        btn("clear", t("clear"), () => { s.groups = []; s.selected.clear(); render(); }, { enabled: s.groups.length > 0 || sel.length > 0, decision: false })));
    }
    bar.append(h("p", { class: "hint" }, s.pickMeld ? t("tap_meld") : t("select_cards")));
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
    const buttons = [];
    if (isBuy && L.some((a) => a.type === "buy")) buttons.push(h("button", { type: "button", class: "btn primary", id: "buy-btn", dataset: { decision: "1", focus: "buy-btn" }, onclick: () => act({ type: "buy" }) }, t("buy")));
    if (!isBuy && L.some((a) => a.type === "call")) buttons.push(h("button", { type: "button", class: "btn primary", id: "call-btn", dataset: { decision: "1", focus: "call-btn" }, onclick: call }, callWord()));
    if (L.some((a) => a.type === "pass")) buttons.push(h("button", { type: "button", class: "btn", id: "pass-btn", dataset: { decision: "1", focus: "pass-btn" }, onclick: () => act({ type: "pass" }) }, t("pass")));
    return h("aside", { class: "sheet window", id: isBuy ? "buy-prompt" : "call-prompt", role: "dialog", "aria-label": title },
      h("div", { class: "sheet-card" }, card ? cardEl(card) : null),
      h("div", { class: "sheet-body" },
        h("h2", {}, title),
        left !== null ? h("p", { class: "countdown", dataset: { countdown: "1" } }, t("auto_pass_in", { n: left })) : null,
        h("div", { class: "row" }, buttons),
        isBuy ? h("label", { class: "check small" }, h("input", { type: "checkbox", id: "dont-ask", checked: s.autoPass, onchange: (e) => setAutoPass(e.target.checked) }), ` ${t("dont_ask")}`) : null));
  }

  function runningTotals() {
    const acc = new Array(s.view.players).fill(0);
    return s.view.round_scores.map((r) => r.map((p, i) => (acc[i] += p)));
  }

  function renderScores() {
    const v = s.view;
    const names = Array.from({ length: v.players }, (_, i) => name(i));
    return h("details", { class: "card-panel scores", id: "scores", open: window.innerWidth > 900 },
      h("summary", {}, t("score_sheet")),
      h("div", { class: "scroll-x" }, h("table", { class: "score-table" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), names.map((n) => h("th", {}, n)))),
        h("tbody", {}, v.round_scores.map((r, ri) => h("tr", {}, h("td", {}, String(ri + 1)), r.map((p) => h("td", {}, String(p)))))),
        h("tfoot", {}, h("tr", {}, h("th", {}, t("total")), v.totals.map((p) => h("th", {}, String(p))))))));
  }

  function renderLog() {
    return h("details", { class: "card-panel log", id: "log-panel", open: true },
      h("summary", {}, t("log")),
      h("ol", { class: "log-list", id: "log", "aria-live": "polite" }, s.log.slice(-150).map((item) => h("li", { class: `ev ev-${item.event.type}`, dataset: { seq: item.event.seq } }, item.text))));
  }

  function scrollLog() {
    const log = el.querySelector("#log");
    if (log) log.scrollTop = log.scrollHeight;
  }

  function renderSummary() {
    const sm = s.summary;
    if (!sm || !s.summaryOpen) return null;
    const v = s.view;
    const totals = v.round_scores.length >= sm.round ? runningTotals()[sm.round - 1] : v.totals;
    return h("aside", { class: "overlay", id: "round-summary", role: "dialog", "aria-label": t("round_summary", { round: sm.round }) },
      h("div", { class: "overlay-card" },
        h("h2", {}, t("round_summary", { round: sm.round })),
        sm.winner !== null && sm.winner !== undefined ? h("p", {}, sm.text) : null,
        h("table", { class: "score-table" },
          h("thead", {}, h("tr", {}, h("th", {}, t("players")), sm.hands ? h("th", {}, t("hands_left")) : null, h("th", {}, t("enter_points")), h("th", {}, t("total")))),
          h("tbody", {}, sm.scores.map((p, i) => h("tr", { class: i === sm.winner ? "winner" : "" }, h("td", {}, i === sm.winner ? "★ " : "", name(i)),
            sm.hands ? h("td", { class: "mini-hand" }, (sm.hands[i] || []).map((c) => cardEl(c, { small: true }))) : null,
            h("td", {}, String(p)), h("td", {}, String(totals ? totals[i] : "")))))),
        sm.hand && sm.hand.length ? h("div", { class: "left-hand" }, h("h3", {}, t("hand_left")), h("div", { class: "mini-hand" }, sm.hand.map((c) => cardEl(c, { small: true })))) : null,
        h("button", { type: "button", class: "btn primary", id: "close-summary", onclick: () => { s.summaryOpen = false; render(); } }, t("close"))));
  }

  function renderStandings() {
    const v = s.view;
    if (!s.standingsOpen) {
      return h("div", { class: "row end-row" }, h("button", { type: "button", class: "btn primary", id: "show-standings", onclick: () => { s.standingsOpen = true; render(); } }, t("standings")));
    }
    const names = Array.from({ length: v.players }, (_, i) => name(i));
    const order = names.map((n, i) => i).sort((a, b) => v.totals[a] - v.totals[b]);
    const best = Math.min(...v.totals);
    const winners = order.filter((i) => v.totals[i] === best).map((i) => names[i]);
    return h("aside", { class: "overlay", id: "standings", role: "dialog", "aria-label": t("standings") },
      h("div", { class: "overlay-card wide" },
        h("h2", {}, t("game_over")),
        h("p", { class: "winner-line" }, "★ ", t("winner", { names: winners.join(", ") })),
        h("ol", { class: "standings-list" }, order.map((i) => h("li", { class: v.totals[i] === best ? "winner" : "" }, h("span", {}, names[i]), h("b", {}, String(v.totals[i]))))),
        totalsChart(names, runningTotals(), { title: t("standings") }),
        legend(names, v.totals),
        h("div", { class: "row" },
          s.seat !== null ? h("button", { type: "button", class: "btn primary", id: "play-again", onclick: playAgain }, t("play_again")) : null,
          h("a", { class: "btn", href: `/replay/${code}`, "data-link": true }, t("replay")),
          h("button", { type: "button", class: "btn ghost", onclick: () => { s.standingsOpen = false; render(); } }, t("close")))));
  }

  function showRules() {
    showDialog([h("h2", { class: "dialog-title" }, t("rules")), rulesView(s.described),
      h("button", { type: "button", class: "btn", onclick: () => document.getElementById("dialog").close() }, t("close"))]);
  }

  // countdowns tick without a re-render
  const ticker = setInterval(() => {
    const left = secondsLeft();
    if (left === null) return;
    for (const c of el.querySelectorAll("[data-countdown]")) {
      c.textContent = c.classList.contains("countdown") && c.tagName === "P" ? t("auto_pass_in", { n: left }) : ` ${t("seconds_left", { n: left })}`;
    }
  }, 250);
  const onResize = () => layoutHand();
  window.addEventListener("resize", onResize);

  connect();
  render();
  return {
    el, title: `${t("table")} ${code}`,
    destroy() { clearInterval(ticker); window.removeEventListener("resize", onResize); if (s.conn) s.conn.close(); banner(null); if (window.__lv === s) window.__lv = null; },
    async relang() {
      s.described = await api("GET", `/api/tables/${code}/rules`);
      s.replaceLog = true;
      if (!send({ type: "lang", lang: getLang(), symbols: true })) s.replaceLog = false;
      render();
    },
  };
}
