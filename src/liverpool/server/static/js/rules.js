// @ts-check
// A ruleset in words: the options (names and values) and the rounds.
import { h } from "./dom.js";
import { t } from "./i18n.js";

// described: GET /api/rules/{preset}; actual: a table's rules dict (may differ)
export function rulesView(described, actual = null) {
  const rows = [];
  const sorted = [...described.options].sort((a, b) => Number(b.common) - Number(a.common));
  for (const o of sorted) {
    let text = o.text;
    if (actual && o.key in actual && JSON.stringify(actual[o.key]) !== JSON.stringify(o.value)) {
      const v = actual[o.key];
      const c = o.choices.find((x) => x.value === v);
      if (c) text = c.label;
      else if (typeof v === "boolean") text = v ? t("yes") : t("no");
      else if (typeof v === "number") text = String(v);
      else text = JSON.stringify(v);
    }
    rows.push(h("tr", {}, h("th", { scope: "row", title: o.description }, o.name, h("small", {}, o.description)), h("td", {}, text)));
  }
  let rounds = described.rounds;
  if (actual && (JSON.stringify(actual.contracts) !== JSON.stringify(described.options.find((o) => o.key === "contracts").value)
      || JSON.stringify(actual.deal) !== JSON.stringify(described.options.find((o) => o.key === "deal").value))) {
    rounds = actual.contracts.map((code, i) => {
      const sets = [...code].filter((x) => x === "S").length;
      const runs = [...code].filter((x) => x === "R").length;
      const parts = [];
      if (sets) parts.push(`${sets} × ${t("new_set")}`);
      if (runs) parts.push(`${runs} × ${t("new_run")}`);
      return { round: i + 1, contract_text: parts.join(" + "), deal: actual.deal[i] ?? actual.deal[actual.deal.length - 1] };
    });
  }
  return h("div", { class: "rules-view" },
    h("h3", {}, t("rounds")),
    h("table", { class: "plan" }, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("contract")), h("th", {}, t("dealt", { n: "" }).trim()))),
      h("tbody", {}, rounds.map((r) => h("tr", {}, h("td", {}, String(r.round)), h("td", {}, r.contract_text), h("td", {}, String(r.deal)))))),
    h("h3", {}, t("rules")),
    h("table", { class: "options-table" }, h("tbody", {}, rows)));
}
