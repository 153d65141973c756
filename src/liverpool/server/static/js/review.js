// @ts-check
// The coach's review of one seat of a finished game (POST/GET /api/tables/{code}/review):
// a Review button, a progress bar while the server reviews, then the graph of the seat's
// expected final total, the accuracy per round (with its verdicts), the three costliest
// decisions and then every other one flagged, each with its verdict, the better move and
// why, and a link to its step of the replay. Only the table's players start a review (their seat
// token goes with it); to anyone else the server says so, in their language, and any
// review made is shown to everyone.
import { api, tokens } from "./api.js";
import { h } from "./dom.js";
import { getLang, t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const VERDICT_COLOURS = { good: "#1c8a4a", inaccuracy: "#b08a00", mistake: "#d16a00", blunder: "#d1342f" };

function svg(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

// The expected final total after each decision, the costly ones marked (a click goes to its step).
function graphChart(review, go) {
  const W = 360, H = 160, L = 40, R = 10, T = 10, B = 14;
  const values = review.graph;
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart review-graph", role: "img", "aria-label": t("review_graph") });
  root.append(svg("title", {}, t("review_graph")));
  if (!values.length) return root;
  const lo = Math.min(...values), hi = Math.max(...values);
  const pad = Math.max(5, (hi - lo) * 0.1);
  const min = lo - pad, max = hi + pad;
  const x = (i) => L + (values.length <= 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (values.length - 1));
  const y = (v) => T + ((max - v) * (H - T - B)) / (max - min || 1);
  for (const v of [lo, (lo + hi) / 2, hi]) {
    root.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    root.append(svg("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "axis" }, String(Math.round(v))));
  }
  let round = 0;
  review.decisions.forEach((d, i) => {  // a line where each round begins
    if (d.round !== round) {
      round = d.round;
      root.append(svg("line", { x1: x(i), x2: x(i), y1: T, y2: H - B, class: "grid" }));
      root.append(svg("text", { x: x(i) + 2, y: H - 3, class: "axis" }, String(round)));
    }
  });
  root.append(svg("polyline", { points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "), fill: "none", stroke: "#1f6fd1", "stroke-width": 2 }));
  review.decisions.forEach((d, i) => {
    if (d.verdict === "good") return;
    // the dot, and round it a circle nobody sees: a finger's tap target (44 px on a phone)
    const mark = svg("g", { class: "review-mark" });
    mark.append(svg("title", {}, `${t("step")} ${d.step + 1}: ${t(`review_verdict_${d.verdict}`)}`),
      svg("circle", { cx: x(i), cy: y(values[i]), r: 24, class: "review-hit" }),
      svg("circle", { cx: x(i), cy: y(values[i]), r: 5, fill: VERDICT_COLOURS[d.verdict], class: "review-dot" }));
    mark.addEventListener("click", () => go(d.step));
    root.append(mark);
  });
  return root;
}

// what the dots' colours mean
function verdictLegend() {
  return h("ul", { class: "legend review-legend", id: "review-legend", "aria-label": t("review_verdict") },
    ["inaccuracy", "mistake", "blunder"].map((v) => h("li", { dataset: { verdict: v } },
      h("span", { class: "swatch m-circle", style: { background: VERDICT_COLOURS[v] } }), ` ${t(`review_verdict_${v}`)}`)));
}

function decisionItem(d, go) {
  return h("li", { class: `review-decision verdict-${d.verdict}` },
    h("button", { type: "button", class: "linkish review-step", onclick: () => go(d.step) },
      t("review_goto", { step: d.step + 1 })),
    d.move ? ` ${d.move} — ` : " ", h("b", {}, t(`review_verdict_${d.verdict}`)),
    ` (${t("review_lost", { points: Math.floor(d.loss + 1e-9) })}) `,
    d.better ? h("span", { class: "review-better" }, d.better) : null);
}

const FLAGS = ["inaccuracy", "mistake", "blunder"];

function shown(review, go) {
  const byIndex = new Map(review.decisions.map((d) => [d.index, d]));
  // (as the review says: inaccuracies or worse; a review kept from before may list good ones)
  const costly = review.costliest.map((i) => byIndex.get(i)).filter((d) => d && d.verdict !== "good");
  // every other decision flagged, in the game's order (as the terminal's report lists them)
  const others = review.decisions.filter((d) => d.verdict !== "good" && !costly.includes(d));
  const counts = (r) => FLAGS.map((v) => h("td", { class: `verdict-${v}` }, String((r.verdicts || {})[v] ?? 0)));
  return h("div", { class: "review-result", id: "review-result" },
    h("p", { id: "review-accuracy" }, t("review_summary", { accuracy: Math.round(review.accuracy), total: review.final_total ?? "–", samples: review.samples })),
    h("h3", {}, t("review_graph")),
    graphChart(review, go),
    verdictLegend(),
    h("h3", {}, t("review_rounds")),
    h("div", { class: "review-rounds-wrap" }, h("table", { class: "review-rounds" },
      h("thead", {}, h("tr", {}, h("th", {}, t("review_round")), h("th", {}, t("review_accuracy")), h("th", {}, t("review_loss")), h("th", {}, t("review_decisions")),
        FLAGS.map((v) => h("th", { class: `verdict-${v}` }, t(`review_verdict_${v}`))))),
      h("tbody", {}, review.rounds.map((r) => h("tr", {}, h("td", {}, String(r.round)), h("td", {}, `${Math.round(r.accuracy)} %`), h("td", {}, String(Math.floor((r.lost ?? 0) + 1e-9))), h("td", {}, String(r.decisions)), counts(r)))))),
    h("h3", {}, t("review_costliest")),
    costly.length ? h("ol", { class: "review-costliest", id: "review-costliest" }, costly.map((d) => decisionItem(d, go))) : h("p", { class: "hint" }, t("review_none")),
    others.length ? h("h3", {}, t("review_all")) : null,
    others.length ? h("ul", { class: "review-others", id: "review-others" }, others.map((d) => decisionItem(d, go))) : null);
}

// The review panel of the replay page: `names` of the seats, `seat` chosen first,
// `go(step)` shows a step of the replay.
export function reviewPanel(code, names, seat, go) {
  const body = h("div", { class: "review-body", "aria-live": "polite" });
  const select = h("select", { id: "review-seat", "aria-label": t("review_seat") },
    names.map((n, i) => h("option", { value: String(i), selected: i === seat }, n)));
  let timer = 0;
  // Each poll, start and change of seat is a new generation: an answer that comes back
  // after a newer one began is dropped (a first poll's "none" must not wipe a refusal).
  let generation = 0;
  async function poll() {
    const mine = ++generation;
    const s = parseInt(select.value, 10);
    let data;
    try { data = await api("GET", `/api/tables/${code}/review?seat=${s}`); } catch (e) { if (mine === generation) body.replaceChildren(h("p", {}, e.message)); return; }
    if (mine !== generation || s !== parseInt(select.value, 10)) return;  // something newer began meanwhile
    button.disabled = data.status !== "none" && data.status !== "failed";
    if (data.status === "done") { body.replaceChildren(shown(data.review, go)); return; }
    if (data.status === "none" || data.status === "failed") {
      body.replaceChildren(data.status === "failed" ? h("p", {}, t("review_failed")) : "");
      return;
    }
    const label = data.total ? t("review_working", { done: data.done, total: data.total }) : t("review_queued");
    body.replaceChildren(h("label", { class: "review-progress" }, label,
      h("progress", { id: "review-progress", max: String(data.total || 1), value: String(data.done) })));
    timer = window.setTimeout(poll, 1000);
  }
  async function start() {
    window.clearTimeout(timer);
    const mine = ++generation;
    const s = parseInt(select.value, 10);
    try { await api("POST", `/api/tables/${code}/review`, { seat: s, lang: getLang() }, tokens.get(code) || undefined); } catch (e) { if (mine === generation) body.replaceChildren(h("p", { class: "review-refused" }, e.message)); return; }
    if (mine === generation) poll();
  }
  select.addEventListener("change", () => { window.clearTimeout(timer); body.replaceChildren(); poll(); });
  const button = h("button", { type: "button", class: "btn primary", id: "review-start", onclick: start }, t("review_button"));
  const panel = h("div", { class: "card-panel review", id: "review" },
    h("h2", {}, t("review_button")), h("div", { class: "row" }, select, button), body);
  poll();
  return panel;
}
