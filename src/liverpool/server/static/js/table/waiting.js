// @ts-check
// Seats and people: the waiting room (a table before its creator starts it:
// who has come, the free seats, the bots, the invite link with its QR code,
// the creator's seat controls, "Start the game" and the chat), and the notice of a
// seat nobody took when it is that seat's turn, and the creator's seats after
// the start (docs/protocol.md: seat, start).
import { copyText, h, keptDetails } from "../dom.js";
import { t } from "../i18n.js";

const LEVELS = ["easy", "medium", "hard"];

/**
 * The waiting room and the untaken-seat notice of the table page ``ctx``.
 * @param {any} ctx
 */
export function tableWaiting(ctx) {
  const { s, code } = ctx;
  const { name, renamed } = ctx.st;
  const send = (m) => ctx.send(m);
  // the creator's buttons wait for the table's connection (the room is drawn
  // from the first HTTP answer, before the socket opens: a press then is lost)
  const offline = () => !(s.conn && s.conn.open);
  const creator = () => s.seat === 0;
  /** @type {Map<number, string>} the level chosen for each free seat (kept over renders) */
  const chosen = new Map();

  /**
   * The creator's "give seat i to the computer" (a level, a button).
   * @param {number} i
   * @param {string} [where] what the select's id begins with (ids are unique on the page)
   */
  function giveControls(i, where = "bot-level") {
    const id = `${where}-${i}`;
    const level = h("select", { id, class: "bot-level", "aria-label": `${t("seat_n", { n: i + 1 })}: ${t("bot_level")}`,
      onchange: (e) => chosen.set(i, e.target.value) },
    LEVELS.map((l) => h("option", { value: l, selected: (chosen.get(i) || "medium") === l }, t(`level_${l}`))));
    return h("span", { class: "give-bot" }, level,
      h("button", { type: "button", class: "btn small", dataset: { give: i }, disabled: offline(),
        onclick: () => send({ type: "seat", seat: i, kind: "bot", level: chosen.get(i) || "medium" }) }, t("give_to_bot")));
  }

  /**
   * One seat of the waiting room (or of the creator's seats after the start).
   * @param {any} seat
   * @param {string} [where]
   */
  function seatRow(seat, where) {
    const i = seat.seat;
    const free = seat.kind === "human" && !seat.taken;
    let state;
    if (seat.kind === "bot") state = h("span", { class: "badge bot" }, `${t("bot")} · ${t(`level_${seat.level || "medium"}`)}`);
    else if (free) state = h("span", { class: "badge free" }, t("free_seat"));
    else state = h("span", { class: `badge ${seat.connected ? "here" : "gone"}` }, seat.connected ? t("seat_here") : t("seat_not_here"));
    let controls = null;
    if (creator() && i > 0 && free) controls = giveControls(i, where);
    else if (creator() && i > 0 && seat.kind === "bot") {
      controls = h("button", { type: "button", class: "btn small ghost", dataset: { free: i }, disabled: offline(),
        onclick: () => send({ type: "seat", seat: i, kind: "human" }) }, t("free_for_player"));
    }
    return h("li", { class: `waiting-seat ${free ? "free" : ""}`, dataset: { seat: i, kind: seat.kind } },
      h("span", { class: "seat-no" }, t("seat_n", { n: i + 1 })),
      h("span", { class: "nm" }, free ? "—" : name(i), i === s.seat ? ` (${t("you")})` : "",
        // (another seat had the name a person gave: a number tells them apart; a
        // bot that takes another first name needs no word about it)
        !free && seat.kind !== "bot" && renamed(i) ? h("small", { class: "renamed" }, t("seat_renamed")) : null),
      state, controls);
  }

  /** The waiting room: the table before its creator starts it. */
  function renderWaiting() {
    const invite = `${location.origin}/t/${code}`;
    return h("section", { class: "card-panel waiting-room", id: "waiting-room", "aria-labelledby": "waiting-title" },
      // (the chat's button goes beside the title: those who came talk before the start)
      h("div", { class: "waiting-head" },
        h("h2", { id: "waiting-title" }, t("waiting_room"), " · ", h("span", { class: "code-tag" }, code)),
        h("span", { class: "chat-slot" })),
      h("p", { class: "hint" }, creator() ? t("waiting_intro_creator") : t("waiting_start", { name: name(0) })),
      h("ul", { class: "waiting-seats", id: "waiting-seats" }, s.table.seats.map((seat) => seatRow(seat))),
      h("div", { class: "waiting-invite" },
        h("img", { src: `/api/tables/${code}/qr.svg`, alt: t("qr_alt"), class: "qr", id: "invite-qr", width: 150, height: 150 }),
        h("div", { class: "invite-text" },
          h("label", { for: "invite-link" }, t("invite")),
          h("div", { class: "link-row" }, h("input", { readonly: true, value: invite, id: "invite-link", onfocus: (e) => e.target.select() }),
            h("button", { type: "button", class: "btn small", id: "copy-invite", onclick: (e) => copyText(invite, e.currentTarget, t("copied")) }, t("copy"))))),
      creator() ? h("button", { type: "button", class: "btn primary big", id: "start-game", disabled: offline(), onclick: () => send({ type: "start" }) }, t("start_game")) : null);
  }

  /** While a started game waits for a seat nobody took: says so, and the
   * creator may give the seat to a bot right here. */
  function renderUntaken() {
    const v = s.view;
    if (!v || v.phase === "game_over" || v.to_move === null || v.to_move === undefined) return null;
    // no player has come yet: nothing moves (no bot stands in for them)
    if (s.table.unclaimed) return h("div", { class: "seat-wait card-panel", id: "table-unclaimed", role: "status" }, h("p", {}, t("table_unclaimed")));
    const seat = s.table.seats[v.to_move];
    if (!seat || seat.kind !== "human" || seat.taken) return null;
    return h("div", { class: "seat-wait card-panel", id: "seat-wait", role: "status" },
      h("p", {}, t("seat_untaken_wait", { n: v.to_move + 1 })),
      creator() ? giveControls(v.to_move, "wait-level") : null);
  }

  /** After the start, the creator's seats (closed by default): a free seat to
   * a bot, a bot's seat back to a person who has come. */
  function renderSeatManager() {
    if (!creator() || !s.view || s.view.phase === "game_over") return null;
    return keptDetails(s.panels, "seat-manager", false, { class: "card-panel seat-manager" }, t("seats"),
    h("ul", { class: "waiting-seats" }, s.table.seats.map((seat) => seatRow(seat, "seats-level"))));
  }

  return { renderWaiting, renderUntaken, renderSeatManager };
}
