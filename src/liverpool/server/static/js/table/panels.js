// @ts-check
// The table's panels and dialogs: the header (status, tools, invite), the
// join form, the seats, the piles, the melds on the table, the staged melds,
// the score sheet, the log, the round summary, the standings, the rules.
import { savedName } from "../api.js";
import { cardBack, cardEl, cardName, meldEl, meldName } from "../cards.js";
import { legend, totalsChart } from "../chart.js";
import { copyText, h, showDialog } from "../dom.js";
import { t } from "../i18n.js";
import { rulesView } from "../rules.js";

/**
 * The panels of the table page ``ctx``.
 * @param {any} ctx
 */
export function tablePanels(ctx) {
  const { s, code, el } = ctx;
  const { legal, mine, myPlay, name, contractText, secondsLeft, oneSelected, cardOf } = ctx.st;
  const render = () => ctx.render();
  const act = (a) => ctx.act(a);
  const discard = (card) => ctx.discard(card);
  const onMeldTap = (i) => ctx.onMeldTap(i);
  const setAutoPass = (v) => ctx.setAutoPass(v);
  const join = (n) => ctx.join(n);
  const playAgain = () => ctx.playAgain();
  const goNext = () => ctx.goNext();

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
      ctx.keysButton(),
      h("label", { class: "check small" }, four, ` ${t("four_colours")}`),
      s.seat !== null ? h("label", { class: "check small" }, h("input", { type: "checkbox", id: "auto-pass-tool", checked: s.autoPass, onchange: (e) => setAutoPass(e.target.checked) }), ` ${t("dont_ask")}`) : null);
    const inviteBox = h("details", { class: "invite", open: free > 0 },
      h("summary", {}, t("invite")),
      h("div", { class: "link-row" }, h("input", { readonly: true, value: invite, id: "invite-link", "aria-label": t("invite"), onfocus: (e) => e.target.select() }),
        h("button", { type: "button", class: "btn small", id: "copy-invite", onclick: (e) => copyText(invite, e.currentTarget, t("copied")) }, t("copy"))),
      ctx.token() ? h("div", { class: "link-row personal" }, h("small", {}, t("personal_link")),
        h("button", { type: "button", class: "btn small ghost", id: "copy-personal", onclick: (e) => copyText(`${invite}#seat=${ctx.token()}`, e.currentTarget, t("copied")) }, t("copy"))) : null);
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
      "aria-label": `${t("discard_pile")}${top ? `: ${cardName(top)}` : ""}`,
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
            "aria-label": `${t("table")} ${i + 1}: ${meldName(m, rules)}`, onclick: () => onMeldTap(i) });
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
      h("h3", { "aria-level": "2" }, t("your_lay_down")),
      h("div", { class: "groups" }, s.groups.map((g, gi) => h("div", { class: `group ${g.kind}`, dataset: { group: gi } },
        h("span", { class: "group-kind" }, g.kind === "run" ? t("new_run") : t("new_set")),
        h("span", { class: "group-cards" }, g.keys.map((k) => cardEl(cardOf(k), { small: true }))),
        h("button", { type: "button", class: "btn tiny ghost", "aria-label": t("clear"), onclick: () => { s.groups.splice(gi, 1); render(); } }, "×")))));
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
      h("ol", { class: "log-list", id: "log", tabindex: 0, "aria-label": t("log") }, s.log.slice(-150).map((item) => h("li", { class: `ev ev-${item.event.type}`, dataset: { seq: item.event.seq } }, item.text))));
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
    return h("div", { class: "overlay", id: "round-summary", role: "dialog", "aria-label": t("round_summary", { round: sm.round }) },
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
    return h("div", { class: "overlay", id: "standings", role: "dialog", "aria-label": t("standings") },
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
      h("button", { type: "button", class: "btn", onclick: () => /** @type {HTMLDialogElement} */ (document.getElementById("dialog")).close() }, t("close"))]);
  }


  return { renderTop, renderJoin, renderSeats, renderBoard, renderMelds, renderStaging, renderScores,
    renderLog, scrollLog, renderSummary, renderStandings, runningTotals };
}
