// @ts-check
// The hand: one button per card (kept while the card stays), laid out in
// overlapping rows; select by tap, move by keyboard or by dragging, and drop
// on the discard pile or a meld.
import { cardEl } from "../cards.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

// the least width of a card that shows beside the next one: its rank and suit
// and a finger's tap target (44 px); and more than its left half, so that its
// middle is its own
const MIN_STRIP = 44;

/**
 * The hand of the table page ``ctx``.
 * @param {any} ctx
 */
export function tableHand(ctx) {
  const { s, el } = ctx;
  const { handKeys, cardOf, sortHand, myPlay } = ctx.st;
  const render = () => ctx.render();
  const discard = (card) => ctx.discard(card);
  const layOffOrSwap = (card, meld) => ctx.layOffOrSwap(card, meld);
  // the fan follows its row's width whatever changes it (the window, a panel
  // beside it, a font loaded late), not only the window's resize event
  let laidWidth = -1;
  const sizes = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
    const rows = el.querySelector(".hand-rows");
    if (rows && rows.clientWidth !== laidWidth) layoutHand();
  }) : null;

  function renderHand() {
    const keys = handKeys();
    const wrap = h("section", { class: "hand", id: "hand", "data-testid": "hand", "aria-label": t("hand"), dataset: { drop: "hand" } });
    if (s.seat === null) {
      wrap.append(h("p", { class: "hint" }, t("spectator")));
      return wrap;
    }
    const rows = h("div", { class: "hand-rows" });
    if (sizes) { sizes.disconnect(); sizes.observe(rows); }
    const live = new Set(keys);
    for (const k of [...s.cardEls.keys()]) if (!live.has(k)) s.cardEls.delete(k);
    for (const k of keys) {
      let b = s.cardEls.get(k);
      if (!b) {
        // one element per card for as long as it is in the hand: a tap survives a re-render
        b = cardEl(cardOf(k), { tag: "button", attrs: { type: "button" } });
        b.classList.add("hand-card");
        b.dataset.key = k;
        b.dataset.focus = k;
        b.addEventListener("click", () => {
          if (s.suppressClick) { s.suppressClick = false; return; }
          toggle(k);
        });
        b.addEventListener("keydown", (e) => onHandKey(e, k));
        b.addEventListener("pointerdown", (e) => onPointerDown(e, k));
        s.cardEls.set(k, b);
      }
      b.setAttribute("aria-pressed", s.selected.has(k) ? "true" : "false");
      b.classList.toggle("selected", s.selected.has(k));
      b.classList.toggle("fresh", s.fresh.has(k));
      b.classList.remove("dragging", "drop-over");
      rows.append(b);
    }
    const sortBtn = h("button", { type: "button", class: "btn small", id: "sort-btn", onclick: () => {
      s.sortMode = s.sortMode === "rank" ? "suit" : "rank";
      localStorage.setItem("lv.sort", s.sortMode);
      sortHand(); render();
    } }, s.sortMode === "rank" ? t("sort_suit") : t("sort_rank"));
    // how many cards are in the hand (the staged ones are counted apart), and my buys
    const v = s.view;
    const staged = v.hand.length - keys.length;
    const count = staged ? t("hand_staged", { n: keys.length, staged }) : t("cards_left", { n: keys.length });
    wrap.append(h("div", { class: "hand-head" },
      h("h3", { "aria-level": "2" }, staged ? count : `${t("hand")} · ${count}`),
      h("span", { class: "hand-meta" }, t("buys_used", { n: `${v.buys[s.seat]}/${v.buy_limit ?? "∞"}` }),
        v.laid_down[s.seat] ? h("span", { class: "badge down" }, `✓ ${t("down")}`) : null),
      sortBtn), rows);
    return wrap;
  }

  // the cards overlap as a fan in one row (a phone's 375 px holds 8), each
  // showing at least MIN_STRIP px of itself (its rank, its suit, a tap);
  // when one row cannot, two or more rows, each showing the top of the one
  // behind it
  function layoutHand() {
    const rows = el.querySelector(".hand-rows");
    if (!rows) return;
    const cards = /** @type {HTMLElement[]} */ ([...rows.children]);
    if (!cards.length) return;
    const width = rows.clientWidth;
    laidWidth = width;
    const cw = cards[0].offsetWidth || 56;
    const ch = cards[0].offsetHeight || 80;
    const strip = Math.max(MIN_STRIP, Math.floor(cw / 2) + 1);
    const fits = (n) => n <= 1 || (width - cw - 2) / (n - 1) >= strip;
    let lines = 1;
    while (!fits(Math.ceil(cards.length / lines)) && lines < 6) lines += 1;
    const perRow = Math.ceil(cards.length / lines);
    const step = Math.min(perRow > 1 ? (width - cw - 2) / (perRow - 1) : cw, cw + 6);
    const rise = Math.round(ch * 0.62 + 6);
    rows.style.setProperty("--lines", String(lines));
    rows.classList.toggle("fanned", step < cw); // (the marks of a card on its left strip)
    cards.forEach((c, i) => {
      c.style.left = `${(i % perRow) * step}px`;
      c.style.top = `${Math.floor(i / perRow) * rise}px`;
      c.style.zIndex = String(i + 1);
    });
    rows.style.height = `${(lines - 1) * rise + ch + 12}px`;
  }

  // select a card of the hand, or let it go
  function toggle(k) {
    if (s.selected.has(k)) s.selected.delete(k); else s.selected.add(k);
    s.pickMeld = null;
    render();
  }

  function onHandKey(e, k) {
    if ((e.key === " " || e.key === "Enter") && !e.ctrlKey && !e.altKey && !e.metaKey) {
      // selected as the key goes down, not by the button's own click (at Space's
      // release): an update that re-renders the hand meanwhile would lose that
      e.preventDefault();
      if (!e.repeat) toggle(k);
      return;
    }
    const keys = handKeys();
    const i = keys.indexOf(k);
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
      e.preventDefault();
      const j = e.key === "ArrowLeft" ? i - 1 : i + 1;
      if (j < 0 || j >= keys.length) return;
      if (e.shiftKey || e.altKey) {
        moveKey(k, keys[j], e.key === "ArrowRight");
        render();
        const f = el.querySelector(`[data-key="${k}"]`);
        if (f) f.focus();
      } else {
        const f = el.querySelector(`[data-key="${keys[j]}"]`);
        if (f) f.focus();
      }
    } else if (e.key === "Delete" || e.key === "d" || e.key === "D") {
      if (myPlay()) { e.preventDefault(); discard(cardOf(k)); }
    }
  }

  function moveKey(k, target, after) {
    const o = s.order.filter((x) => x !== k);
    let j = o.indexOf(target);
    if (j < 0) j = o.length; else if (after) j += 1;
    o.splice(j, 0, k);
    s.order = o;
    s.sortMode = "custom";
  }

  // ------------------------------------------------------- drag and drop
  function onPointerDown(e, k) {
    if (e.button !== 0 && e.pointerType === "mouse") return;
    const src = e.currentTarget;
    s.dragging = { key: k, x0: e.clientX, y0: e.clientY, started: false, src, ghost: null, over: null, id: e.pointerId };
    const move = (ev) => onPointerMove(ev);
    const up = (ev) => { cleanup(); onPointerUp(ev); };
    const cancel = () => { cleanup(); endDrag(); };
    const cleanup = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", cancel);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", cancel);
  }

  function onPointerMove(e) {
    const d = s.dragging;
    if (!d) return;
    if (!d.started) {
      if (Math.hypot(e.clientX - d.x0, e.clientY - d.y0) < 8) return;
      d.started = true;
      const r = d.src.getBoundingClientRect();
      d.dx = d.x0 - r.left; d.dy = d.y0 - r.top;
      d.ghost = d.src.cloneNode(true);
      d.ghost.classList.add("ghost");
      d.ghost.style.left = "0px"; d.ghost.style.top = "0px";
      document.body.append(d.ghost);
      d.src.classList.add("dragging");
      el.classList.add("is-dragging");
    }
    e.preventDefault();
    d.ghost.style.transform = `translate(${e.clientX - d.dx}px, ${e.clientY - d.dy}px) rotate(4deg)`;
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const target = under && (under.closest(".hand-card") || under.closest("[data-drop]"));
    if (d.over && d.over !== target) d.over.classList.remove("drop-over");
    d.over = target && target !== d.src ? target : null;
    if (d.over) d.over.classList.add("drop-over");
  }

  function onPointerUp(e) {
    const d = s.dragging;
    if (!d) return;
    if (!d.started) { s.dragging = null; if (s.renderLater) { s.renderLater = false; render(); } return; }
    s.suppressClick = true;
    setTimeout(() => { s.suppressClick = false; }, 50);
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const card = cardOf(d.key);
    const over = /** @type {HTMLElement | null} */ (under && (under.closest(".hand-card") || under.closest("[data-drop]")));
    endDrag();
    if (!over) { render(); return; }
    if (over.classList.contains("hand-card") && over.dataset.key !== d.key) {
      const r = over.getBoundingClientRect();
      moveKey(d.key, over.dataset.key, e.clientX > r.left + r.width / 2);
      render();
    } else if (over.dataset.drop === "discard") {
      s.selected.clear();
      discard(card);
      render();
    } else if (over.dataset.drop === "meld") {
      s.selected.clear();
      layOffOrSwap(card, parseInt(over.dataset.meld, 10));
      render();
    } else if (over.dataset.drop === "hand") {
      moveKey(d.key, null, false);
      render();
    } else render();
  }

  function endDrag() {
    const d = s.dragging;
    if (!d) return;
    if (d.ghost) d.ghost.remove();
    if (d.over) d.over.classList.remove("drop-over");
    d.src.classList.remove("dragging");
    el.classList.remove("is-dragging");
    s.dragging = null;
    if (s.renderLater) { s.renderLater = false; render(); }
  }

  return { renderHand, layoutHand, stopHand: () => { if (sizes) sizes.disconnect(); } };
}
