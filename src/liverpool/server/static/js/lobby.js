// @ts-check
// The lobby: create a table (preset, every option, seats, bots, timers); open one by code.
import { api, savedName, saveName, tokens } from "./api.js";
import { fill, h, navigate, toast } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { optionValue, rulesView } from "./rules.js";

export async function lobbyPage() {
  const el = h("section", { class: "page lobby" });
  const state = { preset: localStorage.getItem("lv.preset") || "liverpool", presets: [], rules: null, seats: null, name: null };
  const saved = JSON.parse(localStorage.getItem("lv.lobby") || "{}");

  async function load() {
    state.presets = await api("GET", "/api/presets");
    if (!state.presets.some((p) => p.name === state.preset)) state.preset = state.presets[0].name;
    state.rules = await api("GET", `/api/rules/${state.preset}`);
    const [lo, hi] = state.rules.players;
    if (!state.seats || state.seats.length < lo || state.seats.length > hi) {
      // a new table starts from the defaults (you and bots), never the last table's seats
      const n = Math.min(hi, Math.max(lo, 4));
      state.seats = Array.from({ length: n }, (_, i) => (i === 0 ? { kind: "human" } : { kind: "bot", level: "medium" }));
    }
    render();
  }

  function optionInput(o) {
    const id = `opt-${o.key}`;
    let input;
    if (o.kind === "bool") {
      input = h("input", { type: "checkbox", id, name: o.key, checked: !!o.value });
    } else if (o.kind === "int") {
      input = h("input", { type: "number", id, name: o.key, value: o.value, step: 1, inputmode: "numeric" });
    } else if (o.kind === "choice") {
      input = h("select", { id, name: o.key }, o.choices.map((c) => h("option", { value: JSON.stringify(c.value), selected: c.value === o.value }, c.label)));
    } else if (o.kind === "int_or") {
      const isWord = typeof o.value === "string";
      input = h("select", { id, name: o.key, class: "int-or" },
        h("option", { value: "null", selected: o.value === null }, "—"),
        h("option", { value: "number", selected: typeof o.value === "number" }, "1, 2, 3…"),
        o.choices.map((c) => h("option", { value: JSON.stringify(c.value), selected: isWord && c.value === o.value }, c.label)));
      const num = h("input", { type: "number", class: "int-or-num", name: `${o.key}__n`, value: typeof o.value === "number" ? o.value : "", step: 1, "aria-label": o.name, hidden: typeof o.value !== "number" });
      input.addEventListener("change", () => { num.hidden = input.value !== "number"; });
      return h("div", { class: "opt", dataset: { key: o.key, kind: o.kind } },
        h("label", { for: id, class: "opt-name" }, o.name), h("span", { class: "opt-input" }, input, num),
        h("small", { class: "opt-desc" }, o.description));
    } else if (o.kind === "numbers") {
      input = h("input", { type: "text", id, name: o.key, value: o.text, spellcheck: "false", inputmode: "numeric", class: "numbers" });
    } else {  // (set by the preset: shown in words, not edited here)
      return h("div", { class: "opt opt-fixed", dataset: { key: o.key, kind: o.kind } },
        h("span", { class: "opt-name" }, o.name), h("span", { class: "opt-input", id }, optionValue(o)),
        h("small", { class: "opt-desc" }, o.description));
    }
    const row = h("div", { class: `opt ${o.kind === "bool" ? "opt-bool" : ""}`, dataset: { key: o.key, kind: o.kind } },
      h("label", { for: id, class: "opt-name" }, o.name), h("span", { class: "opt-input" }, input),
      h("small", { class: "opt-desc" }, o.description));
    return row;
  }

  function readOptions(form) {
    const out = {};
    for (const o of state.rules.options) {
      const row = form.querySelector(`.opt[data-key="${o.key}"]`);
      if (!row) continue;
      const input = row.querySelector(`[name="${o.key}"]`);
      let v;
      if (o.kind === "bool") v = input.checked;
      else if (o.kind === "int") v = input.value === "" ? o.value : parseInt(input.value, 10);
      else if (o.kind === "choice") v = JSON.parse(input.value);
      else if (o.kind === "int_or") {
        if (input.value === "number") {
          const n = row.querySelector(".int-or-num").value;
          v = n === "" ? o.value : parseInt(n, 10);
        } else v = JSON.parse(input.value);
      } else if (o.kind === "numbers") {
        const parts = input.value.replace(/[[\]]/g, "").split(/[\s,;]+/).filter((x) => x !== "");
        v = parts.map((x) => Number(x));
        if (!v.length || v.some((n) => !Number.isInteger(n))) throw new Error(`${o.name}: 10, 10, 12`);
      } else continue;
      if (JSON.stringify(v) !== JSON.stringify(o.value)) out[o.key] = v;
    }
    return out;
  }

  function seatRow(i) {
    const s = state.seats[i];
    const value = s.kind === "human" ? "human" : `bot:${s.level || "medium"}`;
    const sel = h("select", { name: `seat${i}`, "aria-label": t("seat_n", { n: i + 1 }), onchange: (e) => {
      const v = e.target.value;
      state.seats[i] = v === "human" ? { kind: "human" } : { kind: "bot", level: v.split(":")[1] };
    } },
    h("option", { value: "human", selected: value === "human" }, t("seat_human")),
    ["easy", "medium", "hard"].map((l) => h("option", { value: `bot:${l}`, selected: value === `bot:${l}` }, `${t("seat_bot")} (${t(`level_${l}`)})`)));
    return h("li", { class: "seat-row" }, h("span", { class: "seat-no" }, t("seat_n", { n: i + 1 })), i === 0 ? h("strong", {}, t("you")) : sel);
  }

  function seatList() {
    return h("ol", { class: "seat-list" }, state.seats.map((_, i) => seatRow(i)));
  }

  // the tables this browser holds a seat at that are still being played (the
  // seat tokens kept by api.js), each a link back to it; a table that is over
  // or gone is forgotten
  async function yourTables() {
    const box = h("div", { class: "card-panel your-tables", hidden: true });
    const codes = tokens.codes().slice(0, 8);
    const found = await Promise.all(codes.map(async (code) => {
      try {
        const info = await api("GET", `/api/tables/${code}`, undefined, tokens.get(code));
        if (info.status !== "playing" || info.you === null || info.you === undefined) {
          if (info.status !== "playing") tokens.drop(code);
          return null;
        }
        return info;
      } catch (err) {
        if (err.status === 404) tokens.drop(code);
        return null;
      }
    }));
    const live = found.filter((x) => x);
    if (!live.length) return box;
    box.hidden = false;
    const label = (p) => (state.presets.find((x) => x.name === p) || {}).label || p;
    fill(box, h("h2", {}, t("your_tables")),
      h("ul", { class: "your-tables-list" }, live.map((info) => h("li", {},
        h("a", { href: `/t/${info.code}`, "data-link": true, class: "btn" },
          t("continue_table", { code: info.code, rules: label(info.preset), players: info.players }))))));
    return box;
  }

  let mine = h("div", { hidden: true });

  function render() {
    const [lo, hi] = state.rules.players;
    const common = state.rules.options.filter((o) => o.common);
    const rest = state.rules.options.filter((o) => !o.common);
    const count = h("select", { id: "seat-count", name: "seat_count", onchange: (e) => {
      const n = parseInt(e.target.value, 10);
      while (state.seats.length < n) state.seats.push({ kind: "bot", level: "medium" });
      state.seats.length = n;
      // only the seats change: the rules and timers typed so far stay as they are
      const list = el.querySelector("ol.seat-list");
      if (list) list.replaceWith(seatList());
    } }, Array.from({ length: hi - lo + 1 }, (_, k) => lo + k).map((n) => h("option", { value: n, selected: n === state.seats.length }, String(n))));
    const form = h("form", { class: "card-panel create", id: "create-form", onsubmit: async (e) => {
      e.preventDefault();
      const btn = form.querySelector("button[type=submit]");
      let options;
      try { options = readOptions(form); } catch (err) { toast(err.message); return; }
      const name = form.elements.name.value.trim();
      saveName(name);
      const num = (v) => (v === "" ? null : Number(v));
      const body = {
        preset: state.preset, options, seats: state.seats, name, lang: getLang(),
        turn_seconds: num(form.elements.turn_seconds.value),
        away_seconds: num(form.elements.away_seconds.value) ?? 60,
        window_seconds: num(form.elements.window_seconds.value) ?? 15,
        chat: form.elements.chat.value,
        hints: form.elements.hints.checked,
      };
      localStorage.setItem("lv.lobby", JSON.stringify({ turn: body.turn_seconds, away: body.away_seconds, window: body.window_seconds }));
      btn.disabled = true;
      try {
        const r = await api("POST", "/api/tables", body);
        tokens.set(r.code, r.token);
        sessionStorage.setItem(`lv.created.${r.code}`, "1");
        navigate(r.url);
      } catch (err) {
        toast(err.message);
      } finally { btn.disabled = false; }
    } },
    h("h2", {}, t("new_table")),
    h("div", { class: "field" }, h("label", { for: "preset" }, t("preset")),
      h("select", { id: "preset", name: "preset", onchange: async (e) => {
        state.preset = e.target.value; localStorage.setItem("lv.preset", state.preset);
        state.rules = await api("GET", `/api/rules/${state.preset}`);
        const [a, b] = state.rules.players;
        if (state.seats.length < a) while (state.seats.length < a) state.seats.push({ kind: "bot", level: "medium" });
        if (state.seats.length > b) state.seats.length = b;
        render();
      } }, state.presets.map((p) => h("option", { value: p.name, selected: p.name === state.preset }, p.label)))),
    h("div", { class: "field" }, h("label", { for: "your-name" }, t("your_name")),
      h("input", { id: "your-name", name: "name", maxlength: 40, value: state.name ?? savedName(), autocomplete: "nickname",
        oninput: (e) => { state.name = e.target.value; } })),
    h("fieldset", { class: "seats" }, h("legend", {}, t("seats")),
      h("div", { class: "field inline" }, h("label", { for: "seat-count" }, t("players")), count),
      seatList()),
    h("div", { class: "field" }, h("label", { for: "turn-seconds" }, t("turn_timer")),
      h("input", { id: "turn-seconds", name: "turn_seconds", type: "number", min: 5, max: 3600, inputmode: "numeric", value: saved.turn ?? "" })),
    h("div", { class: "field" }, h("label", { for: "away-seconds" }, t("away_after")),
      h("input", { id: "away-seconds", name: "away_seconds", type: "number", min: 5, max: 86400, inputmode: "numeric", value: saved.away ?? 60 })),
    h("div", { class: "field" }, h("label", { for: "window-seconds" }, t("window_time")),
      h("input", { id: "window-seconds", name: "window_seconds", type: "number", min: 2, max: 600, inputmode: "numeric", value: saved.window ?? 15 })),
    h("div", { class: "field" }, h("label", { for: "chat-setting" }, t("chat_setting")),
      h("select", { id: "chat-setting", name: "chat" }, ["players", "all", "off"].map((c) => h("option", { value: c, selected: c === "players" }, t(`chat_${c}`))))),
    h("div", { class: "field" }, h("label", { class: "check", for: "hints-setting" }, h("input", { type: "checkbox", id: "hints-setting", name: "hints" }), ` ${t("hints_setting")}`)),
    h("fieldset", { class: "options common" }, h("legend", {}, t("common_options")), common.map(optionInput)),
    h("details", { class: "options more" }, h("summary", {}, t("more_options")), rest.map(optionInput)),
    h("button", { type: "submit", class: "btn primary big", id: "create" }, t("create")));

    const open = h("form", { class: "card-panel open", onsubmit: (e) => {
      e.preventDefault();
      const code = e.target.elements.code.value.trim().toUpperCase().replace(/^.*\/T\//, "");
      if (code) navigate(`/t/${code}`);
    } }, h("h2", {}, t("open_table")),
    h("div", { class: "field inline" }, h("label", { for: "open-code" }, t("code")),
      h("input", { id: "open-code", name: "code", maxlength: 80, autocapitalize: "characters", autocomplete: "off" }),
      h("button", { type: "submit", class: "btn" }, t("go"))));

    const rulesBox = h("details", { class: "card-panel rules-box" }, h("summary", {}, `${t("rules")}: ${(state.presets.find((p) => p.name === state.preset) || {}).label || state.preset}`), rulesView(state.rules));

    fill(el,
      h("div", { class: "hero" }, h("h1", {}, t("app_title")), h("p", {}, t("tagline"))),
      mine,
      h("div", { class: "lobby-grid" }, form, h("div", { class: "side" }, open, rulesBox,
        h("div", { class: "card-panel links" },
          h("a", { href: "/pad", "data-link": true, class: "btn" }, t("score_pad")),
          h("a", { href: "/games", "data-link": true, class: "btn" }, t("finished_games"))))));
  }

  const showYours = () => yourTables().then((box) => { mine.replaceWith(box); mine = box; }, () => {});
  await load();
  showYours();
  return {
    el, title: () => t("new_table"),
    relang: async () => {
      state.presets = await api("GET", "/api/presets");
      state.rules = await api("GET", `/api/rules/${state.preset}`);
      render();
      showYours();  // (its words in the new language)
    },
  };
}
