// @ts-check
// The score pad for games with real cards: /pad (start one), /pad/{id} (play it).
import { api } from "./api.js";
import { cardEl, cardName, cardPoints, RANKS, rankLabel, SUIT_SYMBOL, SUITS } from "./cards.js";
import { legend, totalsChart } from "./chart.js";
import { copyText, fill, h, navigate, toast } from "./dom.js";
import { getLang, t } from "./i18n.js";

export async function newPadPage() {
  const el = h("section", { class: "page pad-new" });
  let presets = [];
  const names = JSON.parse(localStorage.getItem("lv.padnames") || "null") || ["", "", ""];
  async function render() {
    presets = await api("GET", "/api/presets");
    const list = h("ol", { class: "pad-names" });
    const draw = () => {
      list.replaceChildren(...names.map((n, i) => h("li", {},
        h("input", { name: `player${i}`, value: n, maxlength: 40, "aria-label": t("seat_n", { n: i + 1 }), placeholder: t("seat_n", { n: i + 1 }), oninput: (e) => { names[i] = e.target.value; } }),
        names.length > 2 ? h("button", { type: "button", class: "btn tiny ghost", "aria-label": t("clear"), onclick: () => { names.splice(i, 1); draw(); } }, "×") : null)));
    };
    draw();
    const form = h("form", { class: "card-panel", id: "pad-form", onsubmit: async (e) => {
      e.preventDefault();
      localStorage.setItem("lv.padnames", JSON.stringify(names));
      try {
        const pad = await api("POST", "/api/pads", { preset: form.elements.preset.value, names, lang: getLang() });
        navigate(pad.url);
      } catch (err) { toast(err.message); }
    } },
    h("p", {}, t("score_pad_intro")),
    h("div", { class: "field" }, h("label", { for: "pad-preset" }, t("preset")),
      h("select", { id: "pad-preset", name: "preset" }, presets.map((p) => h("option", { value: p.name }, p.label)))),
    h("fieldset", {}, h("legend", {}, t("players")), list,
      h("button", { type: "button", class: "btn small", id: "add-player", onclick: () => { if (names.length < 8) { names.push(""); draw(); } } }, `+ ${t("add_player")}`)),
    h("button", { type: "submit", class: "btn primary big", id: "start-pad" }, t("start_pad")));
    el.replaceChildren(h("h1", {}, t("score_pad")), form);
  }
  await render();
  return { el, title: () => t("score_pad"), relang: render };
}

/** the most points a pad takes for one player in one round (the server's bound) */
const PAD_MAX = 100000;

export async function padPage(id) {
  const el = h("section", { class: "page pad" });
  let pad = null;
  let editing = null; // the round being entered
  let mode = "points";
  let hands = [];
  let active = 0;
  let suit = "S";

  async function load() {
    try { pad = await api("GET", `/api/pads/${id}`); } catch (e) { el.replaceChildren(h("p", {}, e.message)); return; }
    if (editing === null) editing = pad.rounds.length < pad.plan.length ? pad.rounds.length + 1 : null;
    hands = pad.names.map(() => []);
    render();
  }

  async function save(body) {
    try {
      pad = await api("PUT", `/api/pads/${id}/rounds`, body);
      editing = pad.rounds.length < pad.plan.length ? pad.rounds.length + 1 : null;
      hands = pad.names.map(() => []);
      active = 0;
      render();
    } catch (e) { toast(e.message); }
  }

  function entry() {
    if (editing === null) return null;
    const r = pad.plan[editing - 1];
    const old = pad.rounds[editing - 1];
    const modeRow = h("div", { class: "row seg", role: "group" },
      h("button", { type: "button", class: `btn small ${mode === "points" ? "on" : ""}`, id: "mode-points", "aria-pressed": String(mode === "points"), onclick: () => { mode = "points"; render(); } }, t("enter_points")),
      h("button", { type: "button", class: `btn small ${mode === "cards" ? "on" : ""}`, id: "mode-cards", "aria-pressed": String(mode === "cards"), onclick: () => { mode = "cards"; render(); } }, t("count_cards")));
    let body;
    if (mode === "points") {
      body = h("form", { class: "points-form", id: "points-form", novalidate: true, onsubmit: (e) => {
        e.preventDefault();
        // each player's points, said by name when missing or out of range (the
        // server's own refusal would name a field, "points.1")
        const points = [];
        for (const [i, n] of pad.names.entries()) {
          const input = e.target.elements[`p${i}`];
          const raw = input.value.trim();
          const v = Number(raw);
          const why = raw === "" ? "pad_points_missing" : !Number.isInteger(v) || Math.abs(v) > PAD_MAX ? "pad_points_range" : null;
          if (why) { toast(t(why, { name: n, max: PAD_MAX.toLocaleString(getLang()) })); input.focus(); return; }
          points.push(v);
        }
        save({ round: editing, points });
      } },
      h("div", { class: "points-grid" }, pad.names.map((n, i) => h("label", { class: "field" }, h("span", {}, n),
        h("input", { type: "number", name: `p${i}`, inputmode: "numeric", step: 1, min: -PAD_MAX, max: PAD_MAX, required: true, value: old ? old[i] : "", "aria-label": t("points_of", { name: n }) })))),
      h("button", { type: "submit", class: "btn primary", id: "save-points" }, t("save")));
    } else {
      const rules = null;
      const pts = (hand) => hand.reduce((a, c) => a + cardPoints(c, pad.points, rules), 0);
      body = h("div", { class: "count" },
        h("p", { class: "hint" }, t("pad_count_hint")),
        h("div", { class: "count-players" }, pad.names.map((n, i) => h("button", { type: "button", class: `count-player ${i === active ? "on" : ""}`, dataset: { player: i }, "aria-pressed": String(i === active), onclick: () => { active = i; render(); } },
          h("span", { class: "nm" }, n), h("span", { class: "pts" }, t("points_n", { n: pts(hands[i]) })),
          h("span", { class: "mini-hand" }, hands[i].map((c, k) => h("span", { class: "rm", title: t("remove_card"), onclick: (e) => { e.stopPropagation(); hands[i].splice(k, 1); render(); } }, cardEl(c, { small: true }))))))),
        h("div", { class: "row seg suits", role: "group" }, [...SUITS].map((su) => h("button", { type: "button", class: `btn small suit-btn suit-${su} ${su === suit ? "on" : ""}`, "aria-pressed": String(su === suit), onclick: () => { suit = su; render(); } }, SUIT_SYMBOL[su]))),
        h("div", { class: "picker", id: "picker" }, [...RANKS].map((r) => h("button", { type: "button", class: `pick suit-${suit}`, dataset: { card: r + suit }, "aria-label": cardName(r + suit), onclick: () => { hands[active].push(r + suit); render(); } }, `${rankLabel(r)}${SUIT_SYMBOL[suit]}`)),
          h("button", { type: "button", class: "pick joker", dataset: { card: "*" }, onclick: () => { hands[active].push("*"); render(); } }, `★ ${t("joker")}`)),
        h("button", { type: "button", class: "btn primary", id: "save-hands", onclick: () => save({ round: editing, hands }) }, t("save")));
    }
    return h("section", { class: "card-panel entry", id: "pad-entry" },
      h("h2", {}, `${t("round_n", { round: editing })}: ${r.contract_text} · ${t("dealt", { n: r.deal })}`), modeRow, body);
  }

  function render() {
    const link = `${location.origin}${pad.url}`;
    const leaders = pad.leaders.map((i) => pad.names[i]);
    fill(el,
      h("h1", {}, t("score_pad")),
      h("div", { class: "card-panel link-row" }, h("small", {}, t("share_pad")), h("input", { readonly: true, value: link, id: "pad-link", "aria-label": t("share_pad"), onfocus: (e) => e.target.select() }),
        h("button", { type: "button", class: "btn small", onclick: (e) => copyText(link, e.currentTarget, t("copied")) }, t("copy"))),
      leaders.length ? h("p", { class: "leader", id: "pad-leader" }, "★ ", t("leader", { names: leaders.join(", ") })) : null,
      h("div", { class: "card-panel scroll-x" }, h("table", { class: "score-table pad-table", id: "pad-table" },
        h("thead", {}, h("tr", {}, h("th", {}, t("round_n", { round: "" }).trim() || "#"), h("th", {}, t("contract")), pad.names.map((n) => h("th", {}, n)))),
        h("tbody", {}, pad.plan.map((r, i) => {
          const pts = pad.rounds[i];
          return h("tr", { class: editing === i + 1 ? "editing" : "" },
            h("td", {}, String(r.round)), h("td", { class: "contract-cell" }, r.contract_text, h("small", {}, ` · ${r.deal}`)),
            pad.names.map((_, p) => h("td", {}, pts ? String(pts[p]) : "")),
            h("td", {}, pts || i === pad.rounds.length ? h("button", { type: "button", class: "btn tiny ghost", "aria-label": t("round_n", { round: r.round }), onclick: () => { editing = i + 1; render(); } }, "✎") : null));
        })),
        h("tfoot", {}, h("tr", {}, h("th", { colspan: 2 }, t("total")), pad.totals.map((p, i) => h("th", { class: pad.leaders.includes(i) ? "winner" : "" }, String(p))))))),
      entry(),
      pad.running.length ? h("div", { class: "card-panel" }, totalsChart(pad.names, pad.running, { title: t("total") }), legend(pad.names, pad.totals)) : null);
  }

  await load();
  return { el, title: () => t("score_pad"), relang: load };
}
