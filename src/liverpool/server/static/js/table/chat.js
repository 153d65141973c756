// @ts-check
// The table's chat (docs/protocol.md, "Chat"): a button with the count of new
// lines opens a panel (a dialog that is not modal) placed above the hand and
// the decision, so that neither is ever under it. Every line is shown as text
// (text nodes, never markup); a spectator's line is marked as one.
import { h } from "../dom.js";
import { getLang, t } from "../i18n.js";

/** the quick reactions: their names (docs/protocol.md) and emoji (null: their words)
 * @type {[string, string | null][]} */
export const REACTIONS = [["thumbs_up", "👍"], ["laugh", "😂"], ["wow", "😮"], ["good_game", null]];
const EMOJI = new Map(REACTIONS);
// the longest line the server keeps (characters, after cleaning)
const LENGTH = 200;
// what the panel must never cover: the hand and the current decision
const KEEP_CLEAR = ["[data-testid=\"hand\"]", "#hand", "[data-testid=\"decision\"]", "#actions", "#buy-prompt", "#call-prompt"];

/**
 * One chat line as an element (text only). ``nameOf(seat)`` names a seat.
 * @param {any} line a chat line of the server
 * @param {(seat: number) => string} nameOf
 */
export function chatLine(line, nameOf) {
  const spectator = line.seat === null || line.seat === undefined;
  const who = spectator ? t("chat_spectator") : nameOf(line.seat);
  let said;
  if (line.reaction) {
    const emoji = EMOJI.get(line.reaction);
    said = emoji ? h("span", { class: "chat-emoji", role: "img", "aria-label": t(`reaction_${line.reaction}`), title: t(`reaction_${line.reaction}`) }, emoji) : h("i", {}, t(`reaction_${line.reaction}`));
  } else said = h("span", { class: "chat-text" }, String(line.text || ""));
  const at = typeof line.at === "number" && Number.isFinite(line.at) ? new Date(line.at * 1000) : null;
  const when = at ? h("time", { class: "chat-at", datetime: at.toISOString() },
    at.toLocaleTimeString(getLang(), { hour: "2-digit", minute: "2-digit" })) : null;
  return h("li", { class: `chat-line${spectator ? " spectator" : ""}`, dataset: { id: String(line.id) } },
    when, when ? " " : null, h("b", { class: "chat-who" }, who), " ", said);
}

/**
 * The chat of the table page ``ctx`` (its state ``s``, ``code``, ``st`` of
 * stateOf(), ``send``): ``place()`` after each render, ``takeChat(lines)`` of
 * a snapshot, ``onChat(msg)`` of a ``chat`` message, ``onChatError(msg)``,
 * ``destroy()``.
 * @param {any} ctx
 */
export function tableChat(ctx) {
  const { s, code } = ctx;
  const key = `lv.chat.${code}`;
  s.chat = [];
  let seen = Number(localStorage.getItem(key) || 0);
  let lastSent = "";

  const count = h("span", { class: "chat-count", "aria-hidden": "true" });
  const label = h("span", { class: "chat-label btn-label" });
  // (a speech bubble; on a phone the button is the bubble and the count, its name in aria-label)
  const icon = h("span", { class: "chat-icon", "aria-hidden": "true" });
  const button = h("button", { type: "button", class: "btn small chat-btn", id: "chat-btn", "data-testid": "chat-button", "aria-haspopup": "dialog", "aria-expanded": "false", "aria-controls": "chat-panel", onclick: () => (panel.open ? close() : open()) }, icon, label, count);
  const title = h("h2", { id: "chat-title" });
  const closeBtn = h("button", { type: "button", class: "btn small ghost", id: "chat-close", onclick: () => close() });
  const list = h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", "aria-relevant": "additions" });
  const note = h("p", { class: "chat-note hint", id: "chat-note" });
  const input = /** @type {HTMLInputElement} */ (h("input", { id: "chat-input", name: "text", maxlength: LENGTH, autocomplete: "off", enterkeyhint: "send" }));
  const sendBtn = h("button", { type: "submit", class: "btn small primary", id: "chat-send" });
  const reactions = h("div", { class: "chat-reactions" }, REACTIONS.map(([name, emoji]) => h("button", {
    type: "button", class: "btn small ghost chat-reaction", dataset: { reaction: name },
    onclick: () => ctx.send({ type: "chat", reaction: name }),
  }, emoji || "")));
  const form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (e) => { e.preventDefault(); say(); } }, input, sendBtn);
  const panel = /** @type {HTMLDialogElement} */ (h("dialog", { class: "chat-panel", id: "chat-panel", "data-testid": "chat-panel", "aria-labelledby": "chat-title" },
    h("div", { class: "chat-head" }, title, closeBtn), list, note, reactions, form));
  // keys typed in the chat are the chat's: never the table's shortcuts
  panel.addEventListener("keydown", (e) => { e.stopPropagation(); if (e.key === "Escape") { e.preventDefault(); close(); } });
  panel.addEventListener("close", () => { button.setAttribute("aria-expanded", "false"); });
  document.body.append(panel);

  const mode = () => (s.table && s.table.settings && s.table.settings.chat) || "players";
  const mayWrite = () => mode() === "all" || (mode() === "players" && s.seat !== null);
  const nameOf = (seat) => ctx.st.name(seat);

  function say() {
    const text = input.value.trim();
    if (!text) return;
    if (ctx.send({ type: "chat", text })) { lastSent = text; input.value = ""; }
  }

  function unread() {
    return s.chat.filter((l) => l.id > seen && (l.seat === null || l.seat !== s.seat)).length;
  }

  function markSeen() {
    const last = s.chat.length ? s.chat[s.chat.length - 1].id : 0;
    if (last > seen) { seen = last; localStorage.setItem(key, String(seen)); }
  }

  // the words (again after a change of language), the count, who may write
  function refresh() {
    const n = panel.open ? 0 : unread();
    label.textContent = t("chat");
    count.textContent = n ? String(Math.min(n, 99)) : "";
    count.hidden = !n;
    button.setAttribute("aria-label", n ? `${t("chat")}: ${t("chat_unread", { n })}` : t("chat"));
    button.hidden = mode() === "off";
    title.textContent = t("chat");
    closeBtn.textContent = t("close");
    sendBtn.textContent = t("chat_send");
    input.placeholder = t("chat_say");
    input.setAttribute("aria-label", t("chat_say"));
    for (const b of reactions.querySelectorAll("button")) {
      const word = t(`reaction_${b.dataset.reaction}`);
      b.setAttribute("aria-label", word);
      b.title = word;
      if (!EMOJI.get(b.dataset.reaction)) b.textContent = word;
    }
    const writes = mayWrite();
    form.hidden = !writes;
    reactions.hidden = !writes;
    note.textContent = !s.chat.length ? t("chat_none") : "";
    if (!writes) note.textContent = mode() === "off" ? t("chat_is_off") : t("chat_players_only");
    note.hidden = !note.textContent;
  }

  let drawnNames = ""; // the seats' names the lines were drawn with
  function drawLines() {
    list.replaceChildren(...s.chat.map((l) => chatLine(l, nameOf)));
    drawnNames = s.chat.map((l) => (l.seat === null ? "" : nameOf(l.seat))).join("\n");
    list.scrollTop = list.scrollHeight;
  }

  // the panel between the top of the page and the hand or the decision,
  // whichever is higher (what the player needs stays in view)
  function fit() {
    if (!panel.open) return;
    const vh = window.innerHeight;
    let bottom = vh - 8;
    for (const sel of KEEP_CLEAR) {
      for (const el of document.querySelectorAll(sel)) {
        const r = el.getBoundingClientRect();
        if (r.height > 0 && r.top > 0 && r.top < bottom + 8) bottom = Math.min(bottom, r.top - 8);
      }
    }
    const header = document.querySelector("header.top");
    const below = header ? header.getBoundingClientRect().bottom + 8 : 8;
    const top = bottom - below >= 300 ? below : 8;  // (below the site's header if there is room)
    const height = Math.max(150, bottom - top);
    panel.style.top = `${top}px`;
    panel.style.maxHeight = `${height}px`;
    panel.style.height = `${Math.min(height, 480)}px`;
  }

  function open() {
    refresh();
    panel.show();
    button.setAttribute("aria-expanded", "true");
    fit();
    drawLines();
    markSeen();
    refresh();
    // the field takes the focus where typing is at hand; on a touch screen a
    // keyboard would cover the table, so only when the player taps the field
    const typing = mayWrite() && window.matchMedia("(pointer: fine)").matches;
    (typing ? input : closeBtn).focus({ preventScroll: true });
  }

  function close() {
    if (panel.open) panel.close();
    button.focus({ preventScroll: true });
    refresh();
  }

  function takeLine(line) {
    if (s.chat.some((l) => l.id === line.id)) return false;
    s.chat.push(line);
    s.chat.sort((a, b) => a.id - b.id);
    if (s.chat.length > 100) s.chat.splice(0, s.chat.length - 100);
    return true;
  }

  /** @param {any[]} lines the chat of a snapshot */
  function takeChat(lines) {
    for (const line of lines || []) takeLine(line);
    if (panel.open) { drawLines(); markSeen(); }
    refresh();
  }

  /** @param {any} msg a ``chat`` message */
  function onChat(msg) {
    if (!takeLine(msg.line)) return;
    if (msg.line.seat === s.seat && msg.line.text === lastSent) lastSent = "";
    if (panel.open) {
      const near = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
      list.append(chatLine(msg.line, nameOf));
      if (near) list.scrollTop = list.scrollHeight;
      markSeen();
    }
    refresh();
  }

  /** @param {any} msg an ``error`` refusing a chat line: the text comes back to the field */
  function onChatError(msg) {
    if (String(msg.code || "").startsWith("server_chat") && lastSent && !input.value) {
      input.value = lastSent;
      lastSent = "";
    }
  }

  // after each render of the page: the button in the header's status line
  // (or the waiting room's title, or the header, or the page), the panel fitted
  function place() {
    const slot = ctx.el.querySelector(".table-top .status") || ctx.el.querySelector(".chat-slot")
      || ctx.el.querySelector(".table-top") || ctx.el;
    if (button.parentElement !== slot) {
      const focused = document.activeElement === button;
      slot.append(button);
      if (focused) button.focus({ preventScroll: true });
    }
    refresh();
    fit();
    // a seat's name came (a player joined after saying a line): the lines again
    const names = s.chat.map((l) => (l.seat === null ? "" : nameOf(l.seat))).join("\n");
    if (names !== drawnNames && panel.open) drawLines();
  }

  const onResize = () => fit();
  window.addEventListener("resize", onResize);
  window.addEventListener("scroll", onResize, { passive: true });

  function destroy() {
    window.removeEventListener("resize", onResize);
    window.removeEventListener("scroll", onResize);
    panel.remove();
    button.remove();
  }

  return { place, takeChat, onChat, onChatError, destroyChat: destroy };
}
