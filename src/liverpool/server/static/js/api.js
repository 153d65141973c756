// @ts-check
// HTTP calls and the seat tokens kept per table code.
import { getLang } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

export async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  const sep = path.includes("?") ? "&" : "?";
  const r = await fetch(`${path}${sep}lang=${getLang()}`, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await r.json(); } catch { data = null; }
  if (!r.ok) {
    const d = data && data.detail;
    const message = d && typeof d === "object" ? d.message : (typeof d === "string" ? d : Array.isArray(d) ? d.map((x) => x.msg).join("; ") : `HTTP ${r.status}`);
    throw new ApiError(r.status, d && d.code, message || `HTTP ${r.status}`);
  }
  return data;
}

export const tokens = {
  get(code) { return localStorage.getItem(`lv.seat.${String(code).toUpperCase()}`); },
  set(code, token) { localStorage.setItem(`lv.seat.${String(code).toUpperCase()}`, token); },
  drop(code) { localStorage.removeItem(`lv.seat.${String(code).toUpperCase()}`); },
  /** the codes of every table this browser holds a seat at */
  codes() {
    const out = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith("lv.seat.")) out.push(key.slice("lv.seat.".length));
    }
    return out.sort();
  },
};

export function savedName() { return localStorage.getItem("lv.name") || ""; }
export function saveName(n) { if (n) localStorage.setItem("lv.name", n); }
