// @ts-check
// The table page: one game over the WebSocket, every decision from view.legal_actions.
// Its parts (./table/): the state, the connection, the hand, the actions, the panels.
import { api, saveName, tokens } from "./api.js";
import { banner, h, navigate, toast } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { tableActions } from "./table/actions.js";
import { tableChat } from "./table/chat.js";
import { tableConnection } from "./table/connection.js";
import { tableHand } from "./table/hand.js";
import { tableHints } from "./table/hints.js";
import { tableMotion } from "./table/motion.js";
import { tableKeys } from "./table/keys.js";
import { tablePanels } from "./table/panels.js";
import { newState, stateOf } from "./table/state.js";
import { tableTurn } from "./table/turn.js";
import { tableWaiting } from "./table/waiting.js";

/**
 * The page of table ``code``: {el, title(), destroy(), relang()}.
 * @param {string} code
 */
export async function tablePage(code) {
  const el = h("section", { class: "page table-page", id: "table-page" });
  const s = newState(code);
  // the seat token stays in this closure (and the browser's storage): never on window
  let token = null;
  /** @type {any} */ (window).__lv = s; // for the tests and curious people

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

  // the parts share one context; each calls the others through it
  const ctx = { s, el, code, token: () => token };
  ctx.st = stateOf(s);
  Object.assign(ctx, tableConnection(ctx));
  Object.assign(ctx, tableActions(ctx));
  const turn = tableTurn(ctx);
  const motion = tableMotion(ctx);
  Object.assign(ctx, { later: motion.later, flush: motion.flush });
  Object.assign(ctx, { takeClock: turn.takeClock, renderWhose: turn.renderWhose, renderTurnSettings: turn.renderTurnSettings });
  Object.assign(ctx, tableChat(ctx));
  Object.assign(ctx, tableKeys(ctx));
  Object.assign(ctx, tableHints(ctx));
  const hand = tableHand(ctx);
  const panels = tablePanels(ctx);
  const { renderWaiting, renderUntaken, renderSeatManager } = tableWaiting(ctx);
  const { connect, send } = ctx;
  const { secondsLeft } = ctx.st;
  const { renderActions, renderWindow } = ctx;
  const { renderHand, layoutHand, stopHand } = hand;
  const { renderTop, renderJoin, renderSeats, renderBoard, renderMelds, renderStaging, renderScores,
    renderLog, scrollLog, renderSummary, summaryButtons, renderStandings, standingsButtons, renderMenu, menu } = panels;

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
    if (s.table && s.table.waiting) { el.replaceChildren(h("div", { class: "waiting-wrap" }, renderJoin(), renderWaiting())); ctx.place(); return; }
    if (!s.view || !s.table) { el.replaceChildren(h("p", { class: "loading" }, "…")); return; }
    const focusKey = document.activeElement && document.activeElement.closest("#table-page") ? /** @type {HTMLElement} */ (document.activeElement).dataset.focus : null;
    const focusBefore = { key: focusKey || null, active: document.activeElement };
    const v = s.view;
    document.body.classList.toggle("four-colour", localStorage.getItem("lv.four") === "1");
    // the page is one screen: the top bar and the opponents, the table in the
    // middle (it scrolls by itself), the hand and the current decision at the
    // bottom (the dock), never below the fold
    // (at the end: the last round's summary first, then the standings)
    const before = motion.measure();
    const strip = el.querySelector("#seats");
    if (strip) s.seatsLeft = strip.scrollLeft;
    const summary = renderSummary();
    const over = !summary && v.phase === "game_over" && s.standingsOpen;
    const middle = over ? [renderStandings()] : summary ? [summary]
      : [renderBoard(), h("div", { class: "table-scroll" }, renderMelds(), h("div", { class: "side-panels" }, renderScores(), renderSeatManager(), renderLog()))];
    const decision = h("section", { class: "decision", id: "decision", "data-testid": "decision" },
      ...[renderWindow(), summary ? summaryButtons() : v.phase === "game_over" ? standingsButtons() : null, renderActions()].filter(Boolean));
    el.replaceChildren(...[
      h("h1", { class: "sr" }, `${t("table")} ${code}`),
      renderTop(), renderUntaken(), renderJoin(), renderSeats(),
      h("div", { class: `table-mid${summary || over ? " table-mid-panel" : ""}`, id: "table-mid" }, ...middle),
      h("div", { class: "table-dock", id: "dock" }, ...[renderStaging(), renderHand(), decision].filter(Boolean)),
    ].filter(Boolean));
    // (how many panels the others' strip holds: a phone held sideways gives it their room, style.css)
    el.style.setProperty("--others", String(el.querySelectorAll("#seats > .seat-chip").length));
    fitLevels();
    keepSeatsInView();
    renderMenu();
    layoutHand();
    ctx.place();
    ctx.placeHints();
    scrollLog();
    turn.afterRender();
    motion.after(before);
    ctx.afterRender(focusBefore); // focus: kept, or on the hand, or on a new decision
  }

  // a bot's level as a word where it fits beside the name, else as a meter of bars (style.css)
  function fitLevels() {
    for (const chip of el.querySelectorAll("#seats > .seat-chip")) {
      const nm = chip.querySelector(".nm");
      if (!nm || !nm.querySelector(".lvl")) continue;
      chip.classList.remove("tight");
      if (nm.scrollWidth > nm.clientWidth) chip.classList.add("tight");
    }
  }

  // the others' strip scrolls sideways when their panels do not fit (five or
  // more others on a phone): a render keeps it where the player scrolled it,
  // and brings the one who decides into view when that changes
  function keepSeatsInView() {
    const strip = el.querySelector("#seats");
    if (!strip || strip.scrollWidth <= strip.clientWidth + 1) return;
    strip.scrollLeft = s.seatsLeft;
    const v = s.view;
    const who = v.phase === "game_over" ? null : v.to_move ?? v.turn_player;
    if (who === s.seatsDecider) return;
    s.seatsDecider = who;
    const chip = strip.querySelector(`.seat-chip[data-seat="${who}"]`);
    if (!chip) return;
    const r = chip.getBoundingClientRect(), box = strip.getBoundingClientRect();
    if (r.left < box.left) strip.scrollLeft -= box.left - r.left + 4;
    else if (r.right > box.right) strip.scrollLeft += r.right - box.right + 4;
    s.seatsLeft = strip.scrollLeft;
  }

  Object.assign(ctx, { render, join, playAgain, goNext });

  // countdowns tick without a re-render
  const ticker = setInterval(() => {
    const left = secondsLeft();
    if (left === null) return;
    for (const c of el.querySelectorAll("[data-countdown]")) {
      c.textContent = c.classList.contains("countdown") && c.tagName === "P" ? t("auto_pass_in", { n: left }) : ` ${t("seconds_left", { n: left })}`;
    }
  }, 250);
  const onResize = () => { layoutHand(); fitLevels(); ctx.fitHint(); };
  window.addEventListener("resize", onResize);

  document.body.classList.add("at-table");
  document.body.append(menu);
  connect();
  render();
  return {
    el, title: () => `${t("table")} ${code}`,
    destroy() { ctx.destroyChat(); ctx.destroyKeys(); stopHand(); document.body.classList.remove("at-table"); menu.remove(); clearInterval(ticker); turn.destroy(); motion.destroy(); window.removeEventListener("resize", onResize); if (s.conn) s.conn.close(); banner(null); if (/** @type {any} */ (window).__lv === s) /** @type {any} */ (window).__lv = null; },
    async relang() {
      ctx.relangKeys();
      s.described = await api("GET", `/api/tables/${code}/rules`);
      s.replaceLog = true;
      // (an open round summary: its round's end comes again, said in the new language)
      const since = s.summary && s.summaryOpen ? s.summary.seq : undefined;
      if (!send({ type: "lang", lang: getLang(), symbols: true, events_since: since })) s.replaceLog = false;
      render();
    },
  };
}
