// @ts-check
// Motion: cards move between the stock, the discard pile, the hands (the
// others' seats too) and the melds on the table, with the Web Animations API
// and FLIP (measure before a render, measure after, animate the difference).
// The updates of a burst wait their turn, played quicker the more are behind;
// the last move stays marked until the next one. `prefers-reduced-motion:
// reduce` turns the motion off (the marks stay).
import { cardBack, cardEl } from "../cards.js";

const DURATION = 420; // ms of one card's move
const STAGGER = 90; // ms between the cards of one update
const MOVES = new Set(["draw", "take", "buy", "penalty", "discard", "lay_down", "lay_off", "swap", "call", "upcard"]);
const EASE = "cubic-bezier(.2,.7,.3,1)";

/**
 * The motion of the table page ``ctx`` (its state ``s`` and element ``el``).
 * @param {any} ctx
 */
export function tableMotion(ctx) {
  const { s, el } = ctx;
  // no motion when asked for less, nor in a tab nobody sees (its timers are slowed down:
  // the updates would wait, and the tab's title would tell of a decision late)
  const still = () => document.hidden
    || !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  let seen = -1; // the last event shown (its seq)
  /** @type {{type: string, seat: number | null, melds: number[]} | null} */
  let last = null;
  /** @type {(() => void)[]} */
  const queue = [];
  let busyUntil = 0;
  let timer = 0;
  let speed = 1; // 1: full time; less when updates are waiting
  /** @type {Set<HTMLElement>} */
  const ghosts = new Set();

  // ---------------------------------------------------------------- queue
  /** Apply ``apply`` (an update with ``events``) after the moves under way;
   * at once when it holds a move of this seat's own (the person who just
   * acted sees it at once: the updates before it are applied without motion). */
  function later(apply, events) {
    const own = s.seat !== null && (events || []).some((item) => item.event.seat === s.seat);
    if (own) {
      flush();
      speed = 1;
      apply();
      return;
    }
    queue.push(apply);
    pump();
  }

  function pump() {
    if (timer) return;
    while (queue.length) {
      const wait = busyUntil - performance.now();
      if (wait > 0 && !still()) { timer = window.setTimeout(() => { timer = 0; pump(); }, wait); return; }
      const apply = queue.shift();
      // behind: the next moves go quicker; far behind: at once
      speed = queue.length >= 3 ? 0 : 1 / (1 + queue.length);
      apply();
    }
  }

  /** Apply every waiting update now (a snapshot replaces them all). */
  function flush() {
    if (timer) { clearTimeout(timer); timer = 0; }
    while (queue.length) { speed = 0; queue.shift()(); }
    speed = 0; // (a snapshot after them: no motion either)
    busyUntil = 0;
  }

  // -------------------------------------------------------------- measure
  const rect = (/** @type {Element | null} */ e) => (e ? e.getBoundingClientRect() : null);

  /** Where things are before a render. */
  function measure() {
    const hand = new Map();
    const cards = new Map(); // (the state's hand may have changed already: the page's cards say which)
    for (const b of /** @type {NodeListOf<HTMLElement>} */ (el.querySelectorAll("#hand [data-key]"))) {
      hand.set(b.dataset.key, b.getBoundingClientRect());
      cards.set(b.dataset.key, b.dataset.card);
    }
    const seats = new Map();
    for (const c of el.querySelectorAll("#seats [data-seat]")) seats.set(Number(/** @type {HTMLElement} */ (c).dataset.seat), c.getBoundingClientRect());
    return {
      hand, seats, cards,
      stock: rect(el.querySelector("#stock .card")),
      discard: rect(el.querySelector("#discard .card")),
      handBox: rect(el.querySelector("#hand")),
    };
  }

  // ------------------------------------------------------------------ play
  /** Move the element ``target`` (after the render) from where ``from`` was:
   * a copy of it flies above the page (never moving the page's layout) while
   * the element itself waits hidden. */
  function flip(target, from, delay, duration) {
    if (!target || !from) return;
    const to = target.getBoundingClientRect();
    if (!to.width || !to.height) return;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    const k = Math.min(3, Math.max(0.2, from.width / to.width));
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(k - 1) < 0.02) return;
    const g = /** @type {HTMLElement} */ (target.cloneNode(true));
    g.removeAttribute("id");
    g.classList.remove("last-move");
    ghost(g, to);
    target.animate([{ opacity: 0 }, { opacity: 0 }], { duration: delay + duration }).id = "lv-wait";
    const a = g.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${k})` },
      { transform: "none" },
    ], { duration, delay, easing: EASE, fill: "both" });
    a.id = "lv-move";
    a.onfinish = a.oncancel = () => drop(g);
  }

  /** ``g`` placed above the page at ``box``. */
  function ghost(g, box) {
    g.classList.add("motion-ghost");
    g.setAttribute("aria-hidden", "true");
    // (a copy of a card the player can focus: hidden from screen readers, so
    // never focusable either — axe's aria-hidden-focus)
    g.inert = true;
    for (const el of [g, ...g.querySelectorAll("button, a, [tabindex]")]) el.setAttribute("tabindex", "-1");
    Object.assign(g.style, { left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px`, transform: "none" });
    document.body.append(g);
    ghosts.add(g);
  }

  function drop(g) { g.remove(); ghosts.delete(g); }

  /** A card that flies on its own from ``from`` to ``to`` (a hand that is not shown). */
  function fly(card, from, to, delay, duration) {
    if (!from || !to) return;
    const g = /** @type {HTMLElement} */ (card ? cardEl(card) : cardBack());
    ghost(g, from);
    const dx = to.left + to.width / 2 - (from.left + from.width / 2);
    const dy = to.top + to.height / 2 - (from.top + from.height / 2);
    const k = Math.max(0.25, Math.min(1, to.height / from.height));
    const a = g.animate([
      { transform: "none", opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) scale(${k})`, opacity: 0.2 },
    ], { duration, delay, easing: EASE, fill: "both" });
    a.id = "lv-fly";
    a.onfinish = a.oncancel = () => drop(g);
  }

  /** After a render: play the events not shown yet, then mark the last move. */
  function after(before) {
    const fresh = s.log.filter((item) => item.event.seq > seen).map((item) => item.event);
    const first = seen < 0;
    if (s.log.length) seen = Math.max(seen, s.log[s.log.length - 1].event.seq);
    const moves = fresh.filter((e) => MOVES.has(e.type));
    for (const e of moves) {
      if (e.type === "upcard") continue;
      last = { type: e.type, seat: e.seat ?? null, melds: meldsOf(e) };
    }
    if (fresh.some((e) => e.type === "round_started" || e.type === "round_over")) last = null;
    mark();
    const duration = Math.round(DURATION * speed);
    if (first || !before || !moves.length || duration < 60 || still()) return;
    let delay = 0;
    let longest = 0;
    const removed = [...before.hand.keys()].filter((k) => !s.keyCard.has(k));
    const handEl = (k) => el.querySelector(`#hand [data-key="${CSS.escape(k)}"]`);
    const seatRect = (i) => rect(el.querySelector(`#seats [data-seat="${i}"]`)) || before.seats.get(i);
    const fromHand = (card) => {
      const k = removed.find((x) => before.cards.get(x) === card);
      if (k) { removed.splice(removed.indexOf(k), 1); return before.hand.get(k); }
      return before.handBox;
    };
    const fresher = [...s.fresh];
    const toHand = (card) => {
      const k = fresher.find((x) => s.keyCard.get(x) === card) || fresher[0];
      if (k) fresher.splice(fresher.indexOf(k), 1);
      return k ? handEl(k) : null;
    };
    const mine = (e) => s.seat !== null && e.seat === s.seat;
    for (const e of moves) {
      const from = e.type === "take" || e.type === "buy" || e.type === "call" ? before.discard : before.stock;
      if (["draw", "take", "buy", "penalty"].includes(e.type)) {
        if (mine(e)) flip(toHand(e.card), from, delay, duration);
        else fly(e.type === "take" || e.type === "buy" ? e.card : null, from, seatRect(e.seat), delay, duration);
      } else if (e.type === "discard" || e.type === "upcard") {
        const src = e.type === "upcard" ? before.stock : mine(e) ? fromHand(e.card) : seatRect(e.seat);
        flip(el.querySelector("#discard .card"), src, delay, duration);
      } else {
        const src = e.type === "call" ? before.discard : mine(e) ? fromHand(e.card || null) : seatRect(e.seat);
        for (const i of meldsOf(e)) flip(el.querySelector(`#melds [data-meld="${i}"]`), src, delay, duration);
        if (e.type === "call" && !meldsOf(e).length) {
          // a Liverpool call: the discarder takes the card back (the whole pile,
          // liverpool_pile); the caller gets nothing
          if (s.seat !== null && e.discarder === s.seat) {
            for (const c of e.cards && e.cards.length ? e.cards : [e.card]) flip(toHand(c), before.discard, delay, duration);
          } else fly(e.card, before.discard, seatRect(e.discarder), delay, duration);
        }
      }
      longest = delay + duration;
      delay += Math.round(STAGGER * (duration / DURATION));
    }
    // the cards of the hand that stayed slide to their new places
    for (const [k, was] of before.hand) {
      if (s.keyCard.has(k) && !s.fresh.has(k)) flip(handEl(k), was, 0, duration);
    }
    busyUntil = performance.now() + longest;
  }

  function meldsOf(e) {
    if (e.type === "lay_down") return (e.melds || []).map((_, i) => e.first + i);
    if (typeof e.meld === "number" && e.meld >= 0) return [e.meld];
    return [];
  }

  /** Mark the last move: the card just discarded, the melds just made or
   * laid off on, the seat that just drew. */
  function mark() {
    for (const m of el.querySelectorAll(".last-move")) m.classList.remove("last-move");
    if (!last) return;
    const add = (e) => { if (e) e.classList.add("last-move"); };
    if (last.type === "discard") add(el.querySelector("#discard .card"));
    for (const i of last.melds) add(el.querySelector(`#melds [data-meld="${i}"]`));
    if (last.seat !== null) add(el.querySelector(`#seats [data-seat="${last.seat}"]`));
  }

  const onHide = () => { if (document.hidden) flush(); };
  document.addEventListener("visibilitychange", onHide);

  function destroy() {
    document.removeEventListener("visibilitychange", onHide);
    if (timer) clearTimeout(timer);
    for (const g of [...ghosts]) drop(g);
  }

  return { later, flush, measure, after, destroy };
}
