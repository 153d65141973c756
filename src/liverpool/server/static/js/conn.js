// @ts-check
// One table's WebSocket: reconnects by itself with backoff, answers pings.
// The seat token goes in the upgrade as a subprotocol ("token.<TOKEN>" beside
// "liverpool"), never in the URL; it is kept in a private field.
export class Connection {
  #token;

  constructor(url, { onMessage, onOpen, onDown, onFatal, token }) {
    this.url = url;
    this.#token = token || null;
    this.handlers = { onMessage, onOpen, onDown, onFatal };
    this.ws = null;
    this.tries = 0;
    this.closed = false;
    this.everOpen = false;
    this.timer = null;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    let ws;
    const protocols = ["liverpool", ...(this.#token ? [`token.${this.#token}`] : [])];
    try { ws = new WebSocket(typeof this.url === "function" ? this.url() : this.url, protocols); } catch { this.retry(); return; }
    this.ws = ws;
    ws.onopen = () => {
      const again = this.everOpen;
      this.everOpen = true;
      this.tries = 0;
      this.handlers.onOpen && this.handlers.onOpen(again);
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch { return; }
      if (msg.type === "ping") { this.send({ type: "pong" }); return; }
      if (msg.type === "pong") return;
      this.handlers.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (e.code === 4404 || e.code === 1008) { this.handlers.onFatal && this.handlers.onFatal(e.code); return; }
      this.handlers.onDown && this.handlers.onDown();
      this.retry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  retry() {
    if (this.closed) return;
    const delay = Math.min(10000, 400 * 2 ** this.tries) * (0.75 + Math.random() * 0.5);
    this.tries += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  get open() { return !!this.ws && this.ws.readyState === WebSocket.OPEN; }

  send(obj) {
    if (!this.open) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  // drop the connection as if the network went away (the tests use it)
  drop() { if (this.ws) this.ws.close(); }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) { const ws = this.ws; this.ws = null; ws.close(); }
  }
}
