// @ts-check
// Cards drawn with CSS: rank + suit symbol (always shown), jokers marked; each
// card has a role and a spoken name in the page's language ("hjerter sju").
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const RANKS = "A23456789TJQK";
export const SUITS = "SHDC";
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };

export function isJoker(c) { return c === "*"; }
export function rankOf(c) { return isJoker(c) ? null : c[0]; }
export function suitOf(c) { return isJoker(c) ? null : c[1]; }
export function rankLabel(r) { return r === "T" ? "10" : r; }
export function cardLabel(c) {
  if (isJoker(c)) return t("joker");
  return `${rankLabel(c[0])}${SUIT_SYMBOL[c[1]]}`;
}

// the card in words, for screen readers: "seven of hearts", "hjerter sju", "Joker"
export function cardName(c) {
  if (isJoker(c)) return t("joker");
  return t("card_of", { rank: t(`rank_${c[0]}`), suit: t(`suit_${c[1]}`) });
}

// what a wild card stands for, in words: a card ("7H") or a rank only ("7", in a set)
function standName(w) {
  return w.length === 1 ? t(`rank_${w}`) : cardName(w);
}

// a text of the server's with its cards in symbols ("7♥", "T♠", "*") in words
const SYMBOL_SUIT = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
export function spokenText(text) {
  return String(text)
    .replace(/(^|[^\w])(10|[2-9TJQKA])([♠♥♦♣])/g, (m, pre, r, suit) => `${pre}${cardName(`${r === "10" ? "T" : r}${SYMBOL_SUIT[suit]}`)}`)
    .replace(/(^|[\s(«»"])\*(?=$|[\s,.;:)!«»"])/g, (m, pre) => `${pre}${t("joker")}`);
}

export function rankValue(c) { return isJoker(c) ? 99 : RANKS.indexOf(c[0]) + 1; }

export function sortKey(c, mode) {
  if (isJoker(c)) return mode === "rank" ? 1000 : 1000;
  const r = RANKS.indexOf(c[0]);
  const s = SUIT_ORDER[c[1]];
  return mode === "rank" ? r * 10 + s : s * 100 + r;
}

// what each card of a table meld stands for: null when it is itself
export function standsFor(meld, rules) {
  const out = [];
  const wildDeuce = rules && rules.wild_deuce_of_spades;
  const n = meld.cards.length;
  for (let i = 0; i < n; i++) {
    const c = meld.cards[i];
    let want;
    if (meld.kind === "run") {
      const start = RANKS.indexOf(meld.rank);
      const r = RANKS[(start + i) % 13];
      want = r + (meld.suit || "");
    } else {
      want = meld.rank + (meld.suit || "");
    }
    const wild = isJoker(c) || (wildDeuce && c === "2S" && want[0] !== "2");
    out.push(wild ? want : null);
  }
  return out;
}

// a card: a button where it acts (tag "button"), else an image with its name
// (role "listitem" where its parent is a list of cards)
export function cardEl(c, { tag = "span", small = false, stands = null, role = "img", attrs = {} } = {}) {
  const joker = isJoker(c);
  const suit = joker ? "J" : c[1];
  const cls = `card ${joker ? "joker" : `suit-${suit}`}${small ? " small" : ""}${stands ? " wild" : ""}`;
  const label = stands ? `${cardLabel(c)} — ${t("stands_for", { card: standLabel(stands) })}` : cardLabel(c);
  const spoken = stands ? `${cardName(c)} — ${t("stands_for", { card: standName(stands) })}` : cardName(c);
  const el = h(tag, { class: cls, role: tag === "button" ? null : role, "aria-label": spoken, title: label, dataset: { card: c }, ...attrs });
  if (joker) {
    el.append(h("span", { class: "corner", "aria-hidden": "true" }, h("span", { class: "r" }, "★")),
      h("span", { class: "pip", "aria-hidden": "true" }, "★"),
      h("span", { class: "jk", "aria-hidden": "true" }, t("joker")));
  } else {
    const r = rankLabel(c[0]);
    el.append(h("span", { class: "corner", "aria-hidden": "true" }, h("span", { class: "r" }, r), h("span", { class: "s" }, SUIT_SYMBOL[suit])),
      h("span", { class: "pip", "aria-hidden": "true" }, SUIT_SYMBOL[suit]));
  }
  if (stands) el.append(h("span", { class: "stands", "aria-hidden": "true" }, `=${standLabel(stands)}`));
  return el;
}

function standLabel(w) {
  if (w.length === 1) return rankLabel(w);
  return `${rankLabel(w[0])}${SUIT_SYMBOL[w[1]] || ""}`;
}

export function meldEl(meld, rules, attrs = {}) {
  const stands = standsFor(meld, rules);
  const el = h("div", { class: `meld ${meld.kind}`, ...attrs });
  meld.cards.forEach((c, i) => el.append(cardEl(c, { small: true, stands: stands[i] })));
  return el;
}

// a meld in words: "seven of hearts, eight of hearts, Joker — joker as nine of hearts"
export function meldName(meld, rules) {
  const stands = standsFor(meld, rules);
  return meld.cards.map((c, i) => (stands[i] ? `${cardName(c)} — ${t("stands_for", { card: standName(stands[i]) })}` : cardName(c))).join(", ");
}

export function cardBack(attrs = {}) {
  return h("span", { class: "card back", "aria-hidden": "true", ...attrs }, h("span", { class: "pip" }, "♠♥"));
}

// hand points for the score pad's preview (the server counts for real)
export function cardPoints(c, points, rules) {
  if (isJoker(c) || (rules && rules.wild_deuce_of_spades && c === "2S")) return points.wild;
  const r = c[0];
  if (r === "A") return points.ace;
  if (r === "T") return points.ten;
  if ("JQK".includes(r)) return points.face_cards;
  return points.two_to_nine;
}
