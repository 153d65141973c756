// @ts-check
// The table page's state: the view, the log, the hand's order and selection,
// and what the view allows (its legal actions, whose turn, the words for it).
import { sortKey } from "../cards.js";
import { getLang, t } from "../i18n.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The page's state of table ``code`` (shown to the tests as ``window.__lv``;
 * never the seat token).
 * @param {string} code
 */
export function newState(code) {
  return {
    code, seat: null, table: null, view: null, n: -1, lastSeq: -1,
    log: [], deadline: null, deadlineAt: null, clock: null, alerts: 0, autoPass: false, described: null,
    order: [], keyCard: new Map(), nextKey: 0, fresh: new Set(), cardEls: new Map(),
    sortMode: localStorage.getItem("lv.sort") || "suit", selected: new Set(), groups: [],
    pickMeld: null, summary: null, summaryOpen: false, standingsOpen: true,
    conn: null, resync: false, replaceLog: false, checking: false, dragging: null,
    joinHidden: false, fatal: null, seatsLeft: 0, seatsDecider: null,
    /** the side panels the player opened or closed (dom.js keptDetails) */
    panels: {},
  };
}

/**
 * What the page derives from the state ``s``; takeView() takes a snapshot's
 * or an update's view and events (docs/protocol.md).
 * @param {any} s the state of newState()
 */
export function stateOf(s) {
  function takeView(view, events, deadline, live) {
    const before = s.view;
    const seen = new Set(s.log.map((e) => e.event.seq));
    const fresh = [];
    for (const item of events || []) {
      const seq = item.event.seq;
      if (seen.has(seq)) {
        const i = s.log.findIndex((e) => e.event.seq === seq);
        s.log[i] = item;
      } else {
        s.log.push(item);
        fresh.push(item);
        seen.add(seq);
      }
      // (a round's summary says its sentence in the language the events come in)
      if (item.event.type === "round_over" && s.summary && s.summary.round === item.event.round) {
        s.summary.text = item.text;
      }
    }
    s.log.sort((a, b) => a.event.seq - b.event.seq);
    if (s.log.length > 400) s.log.splice(0, s.log.length - 400);
    if (s.log.length) s.lastSeq = Math.max(s.lastSeq, s.log[s.log.length - 1].event.seq);
    if (live) {
      for (const item of fresh) {
        const e = item.event;
        if (e.type === "round_over") {
          const mine = s.seat !== null && before && e.winner !== s.seat ? [...before.hand] : [];
          const hands = Array.isArray(e.hands_left) && e.hands_left.length ? e.hands_left : null;
          s.summary = { round: e.round, scores: e.scores, winner: e.winner, hand: hands ? [] : mine, hands, text: item.text, seq: e.seq };
          s.summaryOpen = true;
        }
      }
    }
    if (s.view && view.round !== s.view.round) {
      // a new deal: a new hand in the player's sort order (an order dragged by
      // hand was for the last hand), none of its cards marked new
      s.order = [];
      s.keyCard = new Map();
      if (s.sortMode === "custom") s.sortMode = localStorage.getItem("lv.sort") || "suit";
    }
    s.view = view;
    s.deadline = deadline;
    s.deadlineAt = deadline === null || deadline === undefined ? null : performance.now() + deadline * 1000;
    reconcileHand(view.hand || []);
    if (!myPlay() || (s.seat !== null && view.laid_down && view.laid_down[s.seat])) { s.groups = []; }
    if (!myPlay()) s.pickMeld = null;
  }

  // ----------------------------------------------------------------- hand
  function reconcileHand(hand) {
    const want = new Map();
    for (const c of hand) want.set(c, (want.get(c) || 0) + 1);
    const keep = [];
    for (const k of s.order) {
      const c = s.keyCard.get(k);
      if (want.get(c) > 0) { keep.push(k); want.set(c, want.get(c) - 1); } else s.keyCard.delete(k);
    }
    s.fresh = new Set();
    const first = s.order.length === 0;
    for (const [c, n] of want) {
      for (let i = 0; i < n; i++) {
        const k = `k${s.nextKey++}`;
        s.keyCard.set(k, c);
        keep.push(k);
        if (!first) s.fresh.add(k);
      }
    }
    s.order = keep;
    if (s.sortMode !== "custom") sortHand();
    const present = new Set(s.order);
    for (const k of [...s.selected]) if (!present.has(k)) s.selected.delete(k);
    s.groups = s.groups.map((g) => ({ ...g, keys: g.keys.filter((k) => present.has(k)) })).filter((g) => g.keys.length);
  }

  function sortHand() {
    const mode = s.sortMode === "rank" ? "rank" : "suit";
    s.order.sort((a, b) => sortKey(s.keyCard.get(a), mode) - sortKey(s.keyCard.get(b), mode));
  }

  const grouped = () => new Set(s.groups.flatMap((g) => g.keys));
  const handKeys = () => { const g = grouped(); return s.order.filter((k) => !g.has(k)); };
  const cardOf = (k) => s.keyCard.get(k);

  // ------------------------------------------------------------- helpers
  const legal = () => (s.view && s.view.legal_actions) || [];
  const legalOf = (type) => legal().filter((a) => a.type === type);
  const mine = () => s.seat !== null && s.view && s.view.to_move === s.seat;
  function myPlay() { return s.view && s.seat !== null && s.view.phase === "play" && s.view.turn_player === s.seat && legal().length > 0; }
  // a seat's name as the server gives it (no two alike at a table), in the page's language
  function name(i) {
    const shown = s.table && s.table.names && s.table.names[getLang()];
    if (shown && shown[i]) return shown[i];
    const seat = s.table && s.table.seats[i];
    if (seat && !seat.name && seat.kind === "bot") return t(`bot_${seat.level || "medium"}_${i}`);
    return (seat && seat.name) || t("seat_n", { n: i + 1 });
  }
  // a bot's first name alone ("Ola": its panel shows its mark and level beside it); a person's name
  function shortName(i) {
    const shown = s.table && s.table.short_names && s.table.short_names[getLang()];
    return (shown && shown[i]) || name(i);
  }
  /** Whether seat ``i`` shows another name than its own (a bot's or the one the person gave):
   * somebody else at the table has it. */
  function renamed(i) {
    const seat = s.table && s.table.seats[i];
    if (!seat || (seat.kind === "human" && !seat.name)) return false;
    const own = seat.kind === "bot" ? t(`bot_${seat.level || "medium"}_${i}`) : seat.name;
    return name(i) !== own;
  }
  function callWord() {
    const mode = s.table && s.table.rules.discard_call;
    return mode === "shanghai" ? t("call_shanghai") : t("call_liverpool");
  }
  function contractText(round) {
    const d = s.described;
    const rules = s.table.rules;
    const optVal = (k) => (d.options.find((o) => o.key === k) || {}).value;
    if (same(optVal("contracts"), rules.contracts) && same(optVal("deal"), rules.deal)) {
      const r = d.rounds.find((x) => x.round === round);
      if (r) return r.contract_text;
    }
    const c = s.view.contract;
    const parts = [];
    if (c.sets) parts.push(`${c.sets} × ${t("new_set")}`);
    if (c.runs) parts.push(`${c.runs} × ${t("new_run")}`);
    return parts.join(" + ");
  }
  function secondsLeft() {
    if (s.deadlineAt === null) return null;
    return Math.max(0, Math.ceil((s.deadlineAt - performance.now()) / 1000));
  }

  function selectedCards() { return s.order.filter((k) => s.selected.has(k)).map(cardOf); }
  function oneSelected() { const c = selectedCards(); return c.length === 1 ? c[0] : null; }

  return { takeView, reconcileHand, sortHand, grouped, handKeys, cardOf, legal, legalOf, mine, myPlay,
    name, shortName, renamed, callWord, contractText, secondsLeft, selectedCards, oneSelected };
}
