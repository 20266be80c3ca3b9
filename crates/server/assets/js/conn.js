// The page's one WebSocket (docs/protocol.md), reconnecting with back-off. Views listen to
// every message and keep to their own; `onOpen` handlers run after each (re)connect.
import { t } from './i18n.js';

// Protocol version 3: single-use invitation links (a `join` through one answers with the
// joiner's own token), updates after moves, review and signals.
export const PROTOCOL = 3;

export const conn = {
  ws: null, queue: [], handlers: new Set(), onOpen: new Set(), delay: 500,
  open() {
    const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
    this.ws = ws;
    ws.onopen = () => {
      this.delay = 500;
      setBanner('');
      for (const m of this.queue.splice(0)) ws.send(m);
      for (const f of this.onOpen) f();
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch (_) { return; }
      for (const f of [...this.handlers]) f(msg);
    };
    ws.onclose = () => {
      setBanner(t('conn.lost'));
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    };
  },
  send(msg) {
    const text = JSON.stringify({ v: PROTOCOL, ...msg });
    if (this.ws && this.ws.readyState === 1) this.ws.send(text); else this.queue.push(text);
  },
  // Calls `f` with every message until the returned function is called.
  listen(f) { this.handlers.add(f); return () => this.handlers.delete(f); },
};

function setBanner(text) {
  const b = document.getElementById('conn');
  b.textContent = text;
  b.hidden = !text;
}
