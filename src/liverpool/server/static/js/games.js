// @ts-check
// Finished games (GET /api/games) and a replay of one, step by step.
import { api } from "./api.js";
import { cardEl, meldEl } from "./cards.js";
import { legend, totalsChart } from "./chart.js";
import { fill, h } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { chatLine } from "./table/chat.js";
import { reviewPanel } from "./review.js";

const seatName = (table, i) => {
  const shown = table.names && table.names[getLang()];
  if (shown && shown[i]) return shown[i];
  const seat = table.seats[i];
  if (seat && !seat.name && seat.kind === "bot") return t(`bot_${seat.level || "medium"}_${i}`);
  return (seat && seat.name) || t("seat_n", { n: i + 1 });
};

export async function gamesPage() {
  const el = h("section", { class: "page games" });
  async function render() {
    let games = [];
    try { games = await api("GET", "/api/games"); } catch (e) { el.replaceChildren(h("p", {}, e.message)); return; }
    const items = games.map((g) => {
      // the names as the table, the replay and the review show them ("Ada (bot, medium)")
      const shown = g.seat_names && g.seat_names[getLang()];
      const names = g.names.map((n, i) => (shown && shown[i]) || n || t("seat_n", { n: i + 1 }));
      const best = g.totals.length ? Math.min(...g.totals) : null;
      const label = t(`preset_${g.preset}`);
      const preset = label === `preset_${g.preset}` ? g.preset : label; // (as the lobby names it; an unknown id as it is)
      return h("li", { class: "card-panel game-item" },
        h("div", { class: "game-head" }, h("b", {}, g.code), " · ", preset, " · ",
          h("time", { datetime: new Date(g.finished * 1000).toISOString() }, new Date(g.finished * 1000).toLocaleString(getLang()))),
        h("ul", { class: "game-players" }, names.map((n, i) => h("li", { class: g.totals[i] === best ? "winner" : "" },
          g.totals[i] === best ? "★ " : "", n, g.kinds[i] === "bot" && !(shown && shown[i]) ? ` (${t("bot")})` : "", g.totals.length ? `: ${g.totals[i]}` : ""))),
        h("a", { class: "btn small", href: `/replay/${g.code}`, "data-link": true }, t("replay")));
    });
    el.replaceChildren(h("h1", {}, t("finished_games")),
      items.length ? h("ol", { class: "game-list" }, items) : h("p", { class: "hint" }, t("no_games")));
  }
  await render();
  return { el, title: () => t("finished_games"), relang: render };
}

function stateAt(events, upto) {
  const st = { round: 0, melds: [], pile: [], scores: [], totals: null, contract: null };
  for (let i = 0; i <= upto && i < events.length; i++) {
    const e = events[i].event;
    switch (e.type) {
      case "round_started": st.round = e.round; st.melds = []; st.pile = []; st.contract = e; break;
      case "upcard": st.pile.push(e.card); break;
      case "take": case "buy": st.pile.pop(); break;
      case "discard": st.pile.push(e.card); break;
      case "lay_down": e.melds.forEach((m, j) => { st.melds[e.first + j] = { ...m, owner: e.seat }; }); break;
      case "lay_off": case "swap":
        if (st.melds[e.meld]) st.melds[e.meld] = { ...e.result, owner: st.melds[e.meld].owner };
        break;
      case "call":
        st.pile.pop();
        if (e.meld >= 0 && e.result && st.melds[e.meld]) st.melds[e.meld] = { ...e.result, owner: st.melds[e.meld].owner };
        break;
      case "round_over": st.scores.push(e.scores); break;
      case "game_over": st.totals = e.totals; break;
      default: break;
    }
  }
  return st;
}

export async function replayPage(code) {
  const el = h("section", { class: "page replay" });
  let data;
  let step = 0;
  let review = null;  // the coach's panel, made once (it polls the server itself)
  async function load() {
    try { data = await api("GET", `/api/tables/${code}/replay`); } catch (e) { el.replaceChildren(h("p", {}, e.message)); return; }
    review = null;  // (again in the new language)
    render();
  }
  function render() {
    const events = data.events;
    const table = data.table;
    const n = events.length;
    step = Math.max(0, Math.min(step, n - 1));
    const st = stateAt(events, step);
    const names = Array.from({ length: table.players }, (_, i) => seatName(table, i));
    const byOwner = new Map();
    st.melds.forEach((m) => { if (!m) return; if (!byOwner.has(m.owner)) byOwner.set(m.owner, []); byOwner.get(m.owner).push(m); });
    const go = (k) => { step = k; render(); };
    if (data.over && !review) {
      const person = table.seats.findIndex((s) => s.kind !== "bot");
      review = reviewPanel(code, names, Math.max(0, person), (k) => { go(k); el.scrollIntoView(); });
    }
    const range = h("input", { type: "range", min: 0, max: Math.max(0, n - 1), value: step, id: "replay-range", "aria-label": t("step"), oninput: (e) => go(parseInt(e.target.value, 10)) });
    const acc = new Array(table.players).fill(0);
    const running = st.scores.map((r) => r.map((p, i) => (acc[i] += p)));
    // the chat said so far: a line said after event number k shows from step k on
    const said = (data.chat || []).filter((c) => c.events <= step + 1);
    fill(el,
      h("h1", {}, `${t("replay")} · ${code}`),
      h("div", { class: "card-panel replay-controls" },
        h("div", { class: "row" },
          h("button", { type: "button", class: "btn", id: "replay-prev", disabled: step === 0, onclick: () => go(step - 1) }, `◀ ${t("previous")}`),
          h("span", { class: "step", id: "replay-step" }, `${t("step")} ${n ? step + 1 : 0} / ${n}`),
          h("button", { type: "button", class: "btn primary", id: "replay-next", disabled: step >= n - 1, onclick: () => go(step + 1) }, `${t("next")} ▶`)),
        range,
        h("p", { class: "replay-text", id: "replay-text", "aria-live": "polite" }, n ? events[step].text : t("no_games")),
        step >= n - 1 && data.over ? h("p", { class: "hint" }, t("the_end")) : null),
      said.length ? h("div", { class: "card-panel replay-chat", id: "replay-chat" }, h("h2", {}, t("chat")),
        h("ol", { class: "chat-lines" }, said.slice(-30).map((c) => {
          const li = chatLine(c, (i) => names[i] || t("seat_n", { n: i + 1 }));
          if (c.events === step + 1) li.classList.add("here");
          return li;
        }))) : null,
      h("div", { class: "card-panel" },
        h("p", { class: "row" }, st.round ? h("b", {}, t("round_n", { round: st.round })) : "",
          st.pile.length ? h("span", { class: "replay-pile" }, `${t("discard_pile")}: `, cardEl(st.pile[st.pile.length - 1], { small: true })) : null),
        events[step] && events[step].hands ? h("div", { class: "replay-hands" }, events[step].hands.map((hand, i) => h("div", { class: "owner-group" },
          h("div", { class: "owner-name" }, `${names[i]} · ${t("cards_left", { n: hand.length })}`),
          h("div", { class: "mini-hand" }, hand.map((c) => cardEl(c, { small: true })))))) : null,
        h("div", { class: "melds" }, byOwner.size ? [...byOwner.entries()].sort((a, b) => a[0] - b[0]).map(([o, ms]) => h("div", { class: "owner-group" },
          h("div", { class: "owner-name" }, names[o]), h("div", { class: "owner-melds" }, ms.map((m) => h("span", { class: "meld-btn" }, meldEl(m, table.rules)))))) : h("p", { class: "hint" }, t("table")))),
      running.length ? h("div", { class: "card-panel" }, h("h2", {}, t("score_sheet")), totalsChart(names, running, { title: t("score_sheet") }), legend(names, running[running.length - 1])) : null,
      review,
      h("details", { class: "card-panel" }, h("summary", {}, t("log")),
        h("ol", { class: "log-list" }, events.slice(0, step + 1).map((e, i) => h("li", { class: i === step ? "here" : "" },
          h("button", { type: "button", class: "linkish", onclick: () => go(i) }, e.text))))),
      data.record ? h("p", {}, h("a", { href: `/api/tables/${code}/record`, target: "_blank", rel: "noopener" }, t("record"))) : null);
    const chatList = el.querySelector("#replay-chat .chat-lines");
    if (chatList) chatList.scrollTop = chatList.scrollHeight;
  }
  el.addEventListener("keydown", (e) => {
    if (!data) return;
    if (e.key === "ArrowRight" && e.target.tagName !== "INPUT") { step += 1; render(); }
    if (e.key === "ArrowLeft" && e.target.tagName !== "INPUT") { step -= 1; render(); }
  });
  await load();
  return { el, title: () => `${t("replay")} ${code}`, relang: load };
}
