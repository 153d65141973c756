// @ts-check
// Whose turn, always: the header's sentence (who acts, and on what), its
// countdown, and — when it becomes your turn or you are offered a buy or a
// call — the tab's title and icon, and (switched on in the settings) a short
// sound made in the page and a vibration.
import { cardLabel } from "../cards.js";
import { h } from "../dom.js";
import { getLang, t } from "../i18n.js";

const SOUND = "lv.sound"; // "1": on (off by default)
const VIBRATE = "lv.vibrate"; // "0": off (on by default)
const ICON_TURN = "data:image/svg+xml,"
  + encodeURIComponent("<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'>"
    + "<rect x='2' y='1' width='12' height='14' rx='2' fill='#fff' stroke='#333'/>"
    + "<text x='8' y='12' font-size='10' text-anchor='middle' fill='#c00'>♥</text>"
    + "<circle cx='12' cy='4' r='4' fill='#e8a400' stroke='#fff'/></svg>");

export const soundOn = () => localStorage.getItem(SOUND) === "1";
export const vibrateOn = () => localStorage.getItem(VIBRATE) !== "0";

/**
 * The whose-turn part of the table page ``ctx`` (its state ``s`` and ``st``).
 * @param {any} ctx
 */
/** seconds left at which the countdown turns urgent */
const URGENT = 5;

export function tableTurn(ctx) {
  const { s } = ctx;
  const { legal, name, secondsLeft } = ctx.st;
  /** @type {AudioContext | null} */
  let audio = null;
  let was = false; // whether it was this seat's decision at the last render
  let ownTitle = ""; // the title this module set (to know when to put the page's back)
  let pageTitle = "";
  let pageIcon = null;

  // the first name of a seat: a bot's "Ada (bot, easy)" is "Ada" in a sentence
  function short(i) {
    const seat = s.table && s.table.seats[i];
    const n = name(i);
    return seat && seat.kind === "bot" && !seat.name ? n.replace(/\s*\(.*\)$/, "") : n;
  }
  function list(names) {
    try { return new Intl.ListFormat(getLang(), { type: "conjunction" }).format(names); } catch { return names.join(", "); }
  }

  /** The header's sentence: who acts now, and on what. */
  function sentence() {
    const v = s.view;
    if (!v) return "";
    if (v.phase === "game_over") return t("game_over");
    const me = s.seat;
    const mineNow = me !== null && legal().length > 0;
    if (v.phase === "buy" || v.phase === "call") {
      const card = v.offered_card ? cardLabel(v.offered_card) : "";
      const buy = v.phase === "buy";
      // the seats that may answer, in priority order (an early answer of another is not told)
      const queue = (v.queue || []).filter((i) => i !== me || mineNow);
      // "You, Ada and Ben may buy 7♦ (Ada first)": you first in the sentence, the order after
      // it; three or more are counted ("4 players may buy 7♦ (Ada first)", "You and 2 others…")
      const others = queue.filter((i) => i !== me).map(short);
      const names = [...(mineNow ? [t("you_subject")] : []), ...others];
      const kind = buy ? "buy" : "call";
      let text = names.length > 2
        ? t(mineNow ? `you_and_others_may_${kind}` : `many_may_${kind}`, { count: others.length, card })
        : t(`may_${kind}`, { names: list(names.length ? names : [short(v.to_move)]), card });
      if (queue.length > 1) text += ` (${queue[0] === me ? t("you_first") : t("first_of", { name: short(queue[0]) })})`;
      // whose turn comes next: in a buy window the seat about to draw is the turn
      // player; in a call window the turn player is the one who discarded, and
      // the next seat plays after it
      const next = buy ? v.turn_player : (v.turn_player + 1) % v.players;
      if (me !== null && next === me) text += ` · ${t("then_your_turn")}`;
      return text;
    }
    const who = v.to_move;
    if (who === null || who === undefined) return "";
    if (who === me && mineNow) {
      if (v.phase === "cut") return t("turn_cut");
      if (v.phase === "draw") return t("turn_draw");
      const kinds = new Set(legal().map((a) => a.type));
      if (!v.laid_down[me] && kinds.has("lay_down")) return t("turn_lay_down");
      if (v.pending_wilds) return t("turn_joker_owed");
      if (kinds.has("lay_off") || kinds.has("swap_joker")) return t("turn_lay_off");
      return t("turn_discard");
    }
    if (v.phase === "cut") return t("wait_cut", { name: short(who) });
    if (v.phase === "draw") return t("wait_draw", { name: short(who) });
    return t(v.laid_down[who] ? "wait_lay_off" : "wait_lay_down", { name: short(who) });
  }

  /** Whether this seat has a decision to make now (its turn, a buy or a call). */
  function attention() {
    return !!(s.view && s.seat !== null && s.view.phase !== "game_over" && legal().length > 0);
  }

  /** The public clock's message field (docs/protocol.md) taken on arrival. */
  function takeClock(clock) {
    s.clock = clock && typeof clock.seconds === "number"
      ? { seat: clock.seat, at: performance.now() + clock.seconds * 1000 } : null;
  }

  /** The seconds left of the decision under way: this seat's own, else the seat to move's. */
  function clockLeft() {
    const own = secondsLeft();
    if (own !== null) return own;
    if (!s.clock || !s.view || s.view.to_move !== s.clock.seat) return null;
    return Math.max(0, Math.ceil((s.clock.at - performance.now()) / 1000));
  }

  /** The header's "whose turn" element, with its countdown. */
  function renderWhose() {
    const left = clockLeft();
    const mine = attention();
    return h("span", { class: `turn ${mine ? "mine" : ""}`, id: "whose-turn" }, sentence(),
      h("span", { class: `countdown ${left !== null && left <= URGENT ? "urgent" : ""}`, id: "turn-clock", hidden: left === null, dataset: { clock: "1" } },
        left === null ? "" : ` · ${t("seconds_left", { n: left })}`));
  }

  /** The sound and vibration switches, for the table's settings. */
  function renderTurnSettings() {
    const sw = (id, label, on, set) => h("label", { class: "check small" },
      h("input", { type: "checkbox", id, checked: on, onchange: (e) => set(e.target.checked) }), ` ${label}`);
    return [
      sw("sound-on-turn", t("sound_on_turn"), soundOn(), (v) => {
        localStorage.setItem(SOUND, v ? "1" : "0");
        if (v) beep(); // (a tap lets the page play sound: let it be heard now)
      }),
      sw("vibrate-on-turn", t("vibrate_on_turn"), vibrateOn(), (v) => localStorage.setItem(VIBRATE, v ? "1" : "0")),
    ];
  }

  function beep() {
    try {
      audio = audio || new AudioContext();
      if (audio.state === "suspended") audio.resume();
      const now = audio.currentTime;
      [660, 880].forEach((f, k) => {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        const at = now + k * 0.13;
        osc.frequency.value = f;
        gain.gain.setValueAtTime(0.0001, at);
        gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.18);
        osc.connect(gain).connect(audio.destination);
        osc.start(at);
        osc.stop(at + 0.2);
      });
    } catch { /* no sound here */ }
  }

  function icon() { return /** @type {HTMLLinkElement | null} */ (document.querySelector("link[rel=icon]")); }

  /** After every render: the title and the icon; a sound and a vibration when a decision comes. */
  function afterRender() {
    const now = attention();
    const link = icon();
    if (now) {
      if (document.title !== ownTitle) pageTitle = document.title;
      ownTitle = `▶ ${sentence()} — ${pageTitle}`;
      document.title = ownTitle;
      if (link && pageIcon === null) { pageIcon = link.href; link.href = ICON_TURN; }
      if (!was) {
        s.alerts = (s.alerts || 0) + 1;
        if (soundOn()) beep();
        // (a page may vibrate only after the player has touched it: never a console error before)
        const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
        if (vibrateOn() && navigator.vibrate && touched) { try { navigator.vibrate([120, 60, 120]); } catch { /* not allowed yet */ } }
      }
    } else restore();
    was = now;
  }

  function restore() {
    if (ownTitle && document.title === ownTitle) document.title = pageTitle;
    ownTitle = "";
    const link = icon();
    if (link && pageIcon !== null) link.href = pageIcon;
    pageIcon = null;
  }

  // the countdown ticks without a re-render
  const ticker = setInterval(() => {
    const c = ctx.el.querySelector("#turn-clock");
    if (!c) return;
    const left = clockLeft();
    c.hidden = left === null;
    c.classList.toggle("urgent", left !== null && left <= URGENT);
    c.textContent = left === null ? "" : ` · ${t("seconds_left", { n: left })}`;
  }, 250);

  function destroy() { clearInterval(ticker); restore(); if (audio) audio.close(); }

  return { sentence, attention, takeClock, clockLeft, renderWhose, renderTurnSettings, afterRender, destroy };
}
