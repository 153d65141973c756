// @ts-check
// The table's panels and dialogs: the top bar (status, the menu button), the
// menu (code, rules, four colours, buying, invite, language), the join form, the seats, the piles, the melds on the table, the staged melds,
// the score sheet, the log, the round summary, the standings, the rules.
import { savedName } from "../api.js";
import { cardBack, cardEl, cardName, meldEl, meldName } from "../cards.js";
import { legend, totalsChart } from "../chart.js";
import { copyText, h, keptDetails, showDialog } from "../dom.js";
import { getLang, LANGS, setLang, t } from "../i18n.js";
import { rulesView } from "../rules.js";

// each language by its own name (as the header's select)
const LANG_NAMES = { nb: "Norsk", da: "Dansk", en: "English" };

/**
 * The panels of the table page ``ctx``.
 * @param {any} ctx
 */
export function tablePanels(ctx) {
  const { s, code, el } = ctx;
  const { legal, myPlay, name, shortName, contractText, oneSelected, cardOf } = ctx.st;
  const render = () => ctx.render();
  const act = (a) => ctx.act(a);
  const discard = (card) => ctx.discard(card);
  const onMeldTap = (i) => ctx.onMeldTap(i);
  const setAutoPass = (v) => ctx.setAutoPass(v);
  const join = (n) => ctx.join(n);
  const playAgain = () => ctx.playAgain();
  const goNext = () => ctx.goNext();

  // the settings of the table, out of the way: a drawer opened from the top bar
  // (a modal <dialog>: Esc or a tap beside it closes it, Tab stays inside)
  const menu = h("dialog", { class: "menu-drawer", id: "table-menu", "aria-labelledby": "table-menu-title" });
  menu.addEventListener("click", (e) => { if (e.target === menu) menu.close(); });

  function openMenu() {
    fillMenu();
    menu.showModal();
  }

  function renderMenu() {
    if (!menu.open) fillMenu();
  }

  /** a button of the menu that opens a dialog of its own: the menu closes first */
  function withClose(button) {
    button.addEventListener("click", () => menu.close(), { capture: true });
    return button;
  }

  function fillMenu() {
    const free = s.table.seats.filter((x) => x.kind === "human" && !x.taken).length;
    const invite = `${location.origin}/t/${code}`;
    const closeMenu = () => menu.close();
    const four = h("input", { type: "checkbox", id: "four-colour", checked: localStorage.getItem("lv.four") === "1", onchange: (e) => { localStorage.setItem("lv.four", e.target.checked ? "1" : "0"); render(); } });
    const langs = h("select", { id: "table-lang", "aria-label": t("language"), onchange: (e) => { menu.close(); setLang(e.target.value); } },
      LANGS.map((l) => h("option", { value: l, selected: l === getLang() }, LANG_NAMES[l])));
    const inviteBox = h("details", { class: "invite", open: free > 0 },
      h("summary", {}, t("invite")),
      h("div", { class: "link-row" }, h("input", { readonly: true, value: invite, id: "invite-link", "aria-label": t("invite"), onfocus: (e) => e.target.select() }),
        h("button", { type: "button", class: "btn small", id: "copy-invite", onclick: (e) => copyText(invite, e.currentTarget, t("copied")) }, t("copy"))),
      ctx.token() ? h("div", { class: "link-row personal" }, h("small", {}, t("personal_link")),
        h("button", { type: "button", class: "btn small ghost", id: "copy-personal", onclick: (e) => copyText(`${invite}#seat=${ctx.token()}`, e.currentTarget, t("copied")) }, t("copy"))) : null);
    menu.replaceChildren(
      h("div", { class: "menu-head" },
        h("h2", { id: "table-menu-title" }, t("menu")),
        h("button", { type: "button", class: "btn small ghost", id: "close-menu", "aria-label": t("close"), onclick: closeMenu }, "×")),
      h("p", { class: "code-tag" }, `${t("table")} · ${t("code")}: `, h("b", {}, code)),
      h("div", { class: "menu-tools" },
        h("button", { type: "button", class: "btn small", id: "rules-btn", onclick: () => { menu.close(); showRules(); } }, t("rules")),
        withClose(ctx.keysButton()),
        h("label", { class: "check" }, four, ` ${t("four_colours")}`),
        ...ctx.renderTurnSettings(),
        s.seat !== null ? h("label", { class: "check" }, h("input", { type: "checkbox", id: "auto-pass-tool", checked: s.autoPass, onchange: (e) => setAutoPass(e.target.checked) }), ` ${t("dont_ask")}`) : null,
        h("label", { class: "field" }, h("span", {}, t("language")), langs)),
      inviteBox,
      h("nav", { class: "menu-links" },
        h("a", { href: "/", "data-link": true, onclick: closeMenu }, t("new_table")),
        h("a", { href: "/pad", "data-link": true, onclick: closeMenu }, t("score_pad")),
        h("a", { href: "/games", "data-link": true, onclick: closeMenu }, t("finished_games"))));
  }

  function renderTop() {
    const v = s.view;
    // one line: the round (and its contract), whose turn, the chat (placed by
    // the chat), the menu; on a phone the buttons are icons with their names
    const status = h("div", { class: "status", id: "status" },
      h("span", { class: "round-info" },
        h("span", { class: "round" }, t("round_of", { round: v.round, rounds: v.num_rounds })),
        h("span", { class: "contract" }, h("b", {}, `${t("contract")}: `), contractText(v.round)),
        h("span", { class: "dealt" }, t("dealt", { n: v.cards_dealt }))),
      s.seat === null ? h("span", { class: "tag spectator-tag" }, t("spectator")) : null,
      ctx.renderWhose(),
      h("button", { type: "button", class: "btn small menu-btn", id: "menu-btn", "aria-haspopup": "dialog", "aria-controls": "table-menu", onclick: openMenu },
        h("span", { "aria-hidden": "true", class: "menu-icon" }, "☰"), h("span", { class: "btn-label" }, t("menu"))));
    const next = s.table.next_code ? h("div", { class: "next-game card-panel" }, t("next_game"), " ",
      h("button", { type: "button", class: "btn primary small", id: "go-next", onclick: goNext }, t("to_next_game"))) : null;
    return h("div", { class: "table-top" }, status, next);
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

  // a seat's buys, "1/3 buys": the number and its word apart, so that a narrow
  // panel shows the number alone (the word still read aloud, and in the title)
  function buysEl(used, limit) {
    const [before, after = ""] = t("buys_used", { n: "\u0001" }).split("\u0001");
    const n = `${used}/${limit ?? "∞"}`;
    return h("span", { class: "buys", title: t("buys_used", { n }) },
      before ? h("span", { class: "word" }, before) : null, n,
      after ? h("span", { class: "word" }, after) : null);
  }

  const LEVELS = ["easy", "medium", "hard"];

  // a seat's name where room is short: a bot's mark, its first name and (with
  // ``level``) its level ("Ola lett"; where the word has no room, a meter of one
  // to three bars instead: table.js, style.css), read aloud as its whole name ("Ola (robot, lett)")
  function seatLabel(i, level) {
    const seat = s.table.seats[i] || {};
    if (seat.kind !== "bot") return name(i);
    const lvl = seat.level || "medium";
    return [h("span", { class: "bot-mark", "aria-hidden": "true" }), h("span", { class: "sr" }, name(i)),
      h("span", { "aria-hidden": "true" }, shortName(i), level ? [h("span", { class: "lvl" }, ` ${t(`level_${lvl}`)}`),
        h("span", { class: "lvl-meter", dataset: { n: LEVELS.indexOf(lvl) + 1 } })] : null)];
  }

  // the others along the top, compact: a human's connection dot and name, cards
  // held, buys, down or not, away (a bot plays: a moon);
  // a ring round the one who decides now (a spectator sees every seat); a
  // panel with little room (a phone held sideways) keeps its numbers and marks
  // and lets their words go (style.css)
  function renderSeats() {
    const v = s.view;
    const n = v.players;
    const start = s.seat === null ? 0 : s.seat;
    const over = v.phase === "game_over"; // (nobody's turn, nobody deals, and nobody plays for anyone)
    const items = [];
    for (let k = s.seat === null ? 0 : 1; k < n; k++) {
      const i = (start + k) % n;
      const seat = s.table.seats[i] || {};
      const turn = !over && v.turn_player === i;
      const deciding = !over && v.to_move === i;
      items.push(h("li", { class: `seat-chip ${turn ? "turn" : ""} ${deciding ? "deciding" : ""}`, dataset: { seat: i } },
        h("span", { class: "nm", title: name(i) }, turn ? "▶ " : "",
          seat.kind === "human" && seat.taken ? h("span", { class: `dot ${seat.connected ? "on" : "off"}`, "aria-hidden": "true" }, "● ") : null, seatLabel(i, true)),
        h("span", { class: "meta" },
          h("span", { class: "cnt", title: t("cards_left", { n: v.hand_sizes[i] }), "aria-label": t("cards_left", { n: v.hand_sizes[i] }) }, h("span", { class: "mini-back", "aria-hidden": "true" }), ` ${v.hand_sizes[i]}`),
          buysEl(v.buys[i], v.buy_limit),
          v.laid_down[i] ? h("span", { class: "badge down", title: t("down") }, "✓", h("span", { class: "word" }, ` ${t("down")}`)) : null,
          v.dealer === i && !over ? h("span", { class: "badge dealer", title: t("dealer") }, t("dealer")) : null,
          seat.kind === "human" && !seat.taken ? h("span", { class: "badge free", title: t("free_seat") }, t("free_seat")) : null,
          seat.away && !over ? h("span", { class: "badge away", title: t("away") }, "☾", h("span", { class: "word" }, ` ${t("away")}`)) : null)));
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
      groups.length ? groups : h("p", { class: "hint" }, t("no_melds_yet")));
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
    const seats = Array.from({ length: v.players }, (_, i) => i);
    return keptDetails(s.panels, "scores", window.innerWidth > 900, { class: "card-panel scores" }, t("score_sheet"),
      h("div", { class: "scroll-x" }, h("table", { class: "score-table" },
        h("thead", {}, h("tr", {}, h("th", {}, "#"), seats.map((i) => h("th", { title: name(i) }, seatLabel(i, false))))),
        h("tbody", {}, v.round_scores.map((r, ri) => h("tr", {}, h("td", {}, String(ri + 1)), r.map((p) => h("td", {}, String(p)))))),
        h("tfoot", {}, h("tr", {}, h("th", {}, t("total")), v.totals.map((p) => h("th", {}, String(p))))))));
  }

  function renderLog() {
    return keptDetails(s.panels, "log-panel", true, { class: "card-panel log" }, t("log"),
      h("ol", { class: "log-list", id: "log", tabindex: 0, "aria-label": t("log") }, s.log.slice(-150).map((item) => h("li", { class: `ev ev-${item.event.type}`, dataset: { seq: item.event.seq } }, item.text))));
  }

  function scrollLog() {
    const log = el.querySelector("#log");
    if (!log) return;
    log.scrollTop = log.scrollHeight;
    // on a phone the log lies below the melds in the scrolling middle: when the
    // player has scrolled down to it (its top in view), its newest line is kept
    // in view too; when they look at the melds, the middle does not move
    const middle = log.closest(".table-scroll");
    const last = log.lastElementChild;
    if (!middle || !last) return;
    const area = middle.getBoundingClientRect();
    const top = log.getBoundingClientRect().top;
    if (top >= area.top && top < area.bottom) last.scrollIntoView({ block: "nearest" });
  }

  // the round summary: in the middle of the table, its Close button in the decision area
  function renderSummary() {
    const sm = s.summary;
    if (!sm || !s.summaryOpen) return null;
    const totals = summaryTotals(sm);
    return h("section", { class: "summary-panel card-panel", id: "round-summary", tabindex: "0", "aria-labelledby": "round-summary-title" },
      h("h2", { id: "round-summary-title" }, t("round_summary", { round: sm.round })),
      sm.text ? h("p", { class: "summary-said" }, sm.text) : null,
      h("div", { class: "scroll-x" }, h("table", { class: "score-table" },
        h("thead", {}, h("tr", {}, h("th", {}, t("players")), sm.hands ? h("th", { class: "hand-col" }, t("hands_left")) : null, h("th", {}, t("enter_points")), h("th", {}, t("total")))),
        h("tbody", {}, sm.scores.map((p, i) => h("tr", { class: i === sm.winner ? "winner" : "" }, h("td", {}, i === sm.winner ? "★ " : "", name(i)),
          sm.hands ? h("td", { class: "hand-col" }, h("div", { class: "mini-hand" }, (sm.hands[i] || []).map((c) => cardEl(c, { small: true })))) : null,
          h("td", {}, String(p)), h("td", {}, String(totals ? totals[i] : ""))))))),
      sm.hand && sm.hand.length ? h("div", { class: "left-hand" }, h("h3", {}, t("hand_left")), h("div", { class: "mini-hand" }, sm.hand.map((c) => cardEl(c, { small: true })))) : null);
  }

  /** the totals after the summary's round */
  function summaryTotals(sm) {
    const v = s.view;
    return v.round_scores.length >= sm.round ? runningTotals()[sm.round - 1] : v.totals;
  }

  /** What the round meant for this player: its points, its total and its place
   * (the fewest points first; a tie shares the place). */
  function summaryLine() {
    const sm = s.summary;
    const totals = summaryTotals(sm);
    if (s.seat === null || !totals || sm.scores[s.seat] === undefined) return null;
    const mine = totals[s.seat];
    const place = 1 + totals.filter((x) => x < mine).length;
    return h("p", { class: "hint summary-line", id: "summary-line" },
      t("summary_yours", { points: sm.scores[s.seat], total: mine, place, players: totals.length }));
  }

  function summaryButtons() {
    return h("div", { class: "summary-actions" }, summaryLine(), h("div", { class: "row" },
      h("button", { type: "button", class: "btn primary", id: "close-summary", dataset: { focus: "close-summary" }, onclick: () => { s.summaryOpen = false; render(); } }, t("close"))));
  }

  // game over: the standings in the middle of the table (after the last round's summary)
  function renderStandings() {
    const v = s.view;
    const names = Array.from({ length: v.players }, (_, i) => name(i));
    const order = names.map((n, i) => i).sort((a, b) => v.totals[a] - v.totals[b]);
    const best = Math.min(...v.totals);
    const winners = order.filter((i) => v.totals[i] === best).map((i) => names[i]);
    return h("section", { class: "summary-panel card-panel", id: "standings", tabindex: "0", "aria-labelledby": "standings-title" },
      h("h2", { id: "standings-title" }, t("game_over")),
      h("p", { class: "winner-line" }, "★ ", t("winner", { names: winners.join(", ") })),
      // (on a wide screen the totals and the chart side by side: all of it in view)
      h("div", { class: "standings-body" },
        h("ol", { class: "standings-list" }, order.map((i) => h("li", { class: v.totals[i] === best ? "winner" : "" }, h("span", {}, names[i]), h("b", {}, String(v.totals[i]))))),
        h("div", { class: "standings-chart" },
          totalsChart(names, runningTotals(), { title: t("standings") }),
          legend(names, v.totals))));
  }

  function standingsButtons() {
    if (!s.standingsOpen) {
      return h("div", { class: "row" }, h("button", { type: "button", class: "btn primary", id: "show-standings", onclick: () => { s.standingsOpen = true; render(); } }, t("standings")));
    }
    return h("div", { class: "row" },
      s.seat !== null ? h("button", { type: "button", class: "btn primary", id: "play-again", onclick: playAgain }, t("play_again")) : null,
      h("a", { class: "btn", href: `/replay/${code}`, "data-link": true }, t("replay")),
      h("button", { type: "button", class: "btn ghost", id: "close-standings", onclick: () => { s.standingsOpen = false; s.summaryOpen = false; render(); } }, t("close")));
  }

  function showRules() {
    showDialog([h("h2", { class: "dialog-title" }, t("rules")), rulesView(s.described),
      h("button", { type: "button", class: "btn", onclick: () => /** @type {HTMLDialogElement} */ (document.getElementById("dialog")).close() }, t("close"))]);
  }


  return { renderTop, renderJoin, renderSeats, renderBoard, renderMelds, renderStaging, renderScores,
    renderLog, scrollLog, renderSummary, summaryButtons, renderStandings, standingsButtons, runningTotals, renderMenu, menu };
}
