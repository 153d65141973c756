// @ts-check
// A ruleset in words: the rounds (contract and cards dealt) and every option,
// each value as the server worded it in the page's language (GET
// /api/rules/{preset} or /api/tables/{code}/rules); points as a small table.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/**
 * An option's value for people: its words, or a small table (the points).
 * @param {{text: string, table?: string[][]}} o an option of the described rules
 */
export function optionValue(o) {
  if (o.table) {
    return h("table", { class: "points-table" },
      h("tbody", {}, o.table.map(([cards, points]) => h("tr", {}, h("th", { scope: "row" }, cards), h("td", {}, points)))));
  }
  return o.text;
}

/**
 * The rules as tables: the rounds, then the options (the house rules first).
 * @param {{options: any[], rounds: any[]}} described
 */
export function rulesView(described) {
  const sorted = [...described.options].sort((a, b) => Number(b.common) - Number(a.common));
  const rows = sorted.map((o) => h("tr", {},
    h("th", { scope: "row", title: o.description }, o.name, h("small", {}, o.description)),
    h("td", {}, optionValue(o))));
  return h("div", { class: "rules-view" },
    h("h3", {}, t("rounds")),
    h("table", { class: "plan" }, h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("contract")), h("th", {}, t("dealt", { n: "" }).trim()))),
      h("tbody", {}, described.rounds.map((r) => h("tr", {}, h("td", {}, String(r.round)), h("td", {}, r.contract_text), h("td", {}, String(r.deal)))))),
    h("h3", {}, t("rules")),
    h("table", { class: "options-table" }, h("tbody", {}, rows)));
}
