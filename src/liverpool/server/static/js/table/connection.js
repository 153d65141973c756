// @ts-check
// The table's WebSocket: connect, send, and every message the server sends
// (docs/protocol.md: snapshot, update, table, error, check, settings, chat, hint).
import { Connection } from "../conn.js";
import { banner, clearToast, toast } from "../dom.js";
import { getLang, t } from "../i18n.js";

/**
 * The connection of the table page ``ctx`` (its state ``s``, ``code``, ``st``
 * of stateOf(), ``render``, ``token()``, and ``onCheck`` of the actions).
 * @param {any} ctx
 */
/** the events of a seat's own decisions (what the turn timer may make for it) */
const MY_MOVES = new Set(["stock_chosen", "draw", "take", "discard", "lay_down", "lay_off", "swap"]);

export function tableConnection(ctx) {
  const { s, code } = ctx;
  const { takeView } = ctx.st;
  const render = () => ctx.render();
  const onCheck = (msg) => ctx.onCheck(msg);

  function wsUrl() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = new URLSearchParams({ lang: getLang(), symbols: "true" });
    return `${proto}://${location.host}/ws/${code}?${q}`;
  }

  function connect() {
    if (s.conn) s.conn.close();
    s.conn = new Connection(wsUrl, {
      token: ctx.token(),
      onMessage,
      onOpen: (again) => { banner(null); if (again) s.resync = true; if (s.seat !== null) s.conn.send({ type: "settings" }); if (!s.view) ctx.render(); },
      onDown: () => { banner(t("disconnected")); if (!s.view) ctx.render(); },
      onFatal: () => { s.fatal = true; banner(null); },
    });
  }

  function send(obj) {
    if (!s.conn || !s.conn.send(obj)) { toast(t("disconnected")); return false; }
    // a new move or lay-down to check: an earlier refusal no longer stands
    if (obj.type === "action" || obj.type === "check") clearToast();
    return true;
  }

  function act(action) {
    s.pickMeld = null;
    s.acted = true;
    return send({ type: "action", version: s.n, action });
  }

  function sync() { send({ type: "sync", events_since: s.lastSeq + 1 }); }

  // ------------------------------------------------------------- messages
  function onMessage(msg) {
    switch (msg.type) {
      case "snapshot": {
        ctx.flush(); // (the updates still waiting for the moves are older)
        s.seat = msg.seat;
        s.table = msg.table;
        const fromSync = !s.replaceLog && s.log.length > 0;
        if (s.replaceLog) { s.log = []; s.lastSeq = -1; s.replaceLog = false; }
        if (msg.view) takeView(msg.view, msg.events, msg.deadline, fromSync);
        else s.view = null; // (the waiting room: nothing dealt yet)
        ctx.takeClock(msg.clock);
        ctx.takeChat(msg.chat);
        s.n = msg.n;
        if (s.resync) { s.resync = false; sync(); }
        render();
        break;
      }
      case "update": // after the moves under way (js/table/motion.js)
        ctx.later(() => {
          const gap = s.n >= 0 && msg.n !== s.n + 1;
          // my own clock had run out and a move of mine came that I did not send:
          // the server moved for me (the turn timer), which the log alone does not say
          const ranOut = s.deadlineAt !== null && s.deadlineAt !== undefined
            && performance.now() >= s.deadlineAt - 1000;
          const movedForMe = ranOut && !s.acted && s.seat !== null
            && (msg.events || []).some((item) => item.event.seat === s.seat && MY_MOVES.has(item.event.type));
          s.acted = false;
          takeView(msg.view, msg.events, msg.deadline, true);
          ctx.takeClock(msg.clock);
          s.n = msg.n;
          render();
          // a call on my discard: said at once (the card back in my hand and a
          // penalty card, or the pile, or a card given to the caller), not only in
          // the log below the melds
          const called = (msg.events || []).find((item) => item.event.type === "call"
            && s.seat !== null && item.event.discarder === s.seat);
          if (called) toast(called.text, "info");
          else if (movedForMe) toast(t("timer_moved"), "info");
          if (gap) sync();
        }, msg.events);
        break;
      case "table":
        s.table = msg.table;
        if (!s.view && !msg.table.waiting) sync(); // (started: the deal comes in a snapshot)
        render();
        break;
      case "error":
        toast(msg.message);
        ctx.onChatError(msg);
        ctx.onHintError(msg);
        if (typeof msg.n === "number" && msg.n > s.n) sync();
        break;
      case "check":
        s.checking = false;
        onCheck(msg);
        break;
      case "chat":
        ctx.onChat(msg);
        break;
      case "hint":
        ctx.onHint(msg);
        break;
      case "settings":
        if (s.autoPass === !!msg.auto_pass) break; // (as shown: no second render on arrival)
        s.autoPass = !!msg.auto_pass;
        render();
        break;
      default:
        break;
    }
  }

  return { connect, send, act, sync };
}
