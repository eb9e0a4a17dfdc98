// The WebSocket to /ws: hello with the token, subscriptions, actions with ids, and reconnection
// with back-off after a network drop or a server restart (subscriptions are re-sent, so the server
// pushes a fresh state: the page resyncs by itself).
//
// Its URL names the table the page shows, `/ws?table=ID` (none in the lobby): a proxy in front
// of several server processes sends every socket of a table to the same one (deploy/nginx.conf),
// where the table's home follows them (docs/scaling.md). A routing hint only: the server never
// reads it. The page shows another table: the socket reconnects at once with the new one (its
// subscriptions and unanswered moves sent again, as after a drop). Back in the lobby, it stays
// where it is: any process serves the lobby.

export class TableSocket {
  constructor(token, handlers = {}) {
    this.token = token;
    this.handlers = handlers;
    this.ws = null;
    // table -> its invitation code (a private table's, from its link), sent with each subscribe
    this.tables = new Map();
    this.lobby = false;
    this.pending = new Map();
    // the subscriptions sent on this socket: id -> { table (null: the lobby's chat), tries }
    this.subscribing = new Map();
    this.nextId = 1;
    // a move's id is its idempotency key at the server (per player and table): unique across
    // page loads and tabs, so a retry is the only way to send the same one again
    this.idPrefix = Array.from(crypto.getRandomValues(new Uint32Array(2)), (n) => n.toString(36)).join("");
    this.retry = 0;
    this.closed = false;
    this.ready = false;
    this.pingTimer = null;
    this.retryTimer = null;
    // connect() was called; a look at the socket's table is due (see settle())
    this.started = false;
    this.settling = false;
  }

  /** The table the page shows: the last one subscribed to (a page shows one), or null. */
  routeKey() {
    let key = null;
    for (const table of this.tables.keys()) key = table;
    return key;
  }

  /** Opens the socket: at the end of the page's current turn, so that the page that asked for
   * it (main.js, then the page it shows) has subscribed to its table by then and the first
   * socket already names it. */
  connect() {
    if (this.closed) return;
    this.started = true;
    this.settle();
  }

  /** Once the page's current turn is over (a move from a table to another unsubscribes, then
   * subscribes): a socket opened if there is none, or opened again if it names another table
   * than the page shows. */
  settle() {
    if (this.settling || !this.started) return;
    this.settling = true;
    queueMicrotask(() => {
      this.settling = false;
      if (this.closed) return;
      const key = this.routeKey();
      if (!this.ws) this.open(key);
      // a socket that is down waits for its retry, which names the table shown then
      else if (key != null && key !== this.ws.tableKey && this.ws.readyState !== WebSocket.CLOSED) this.moveTo(key);
    });
  }

  /** A socket to another table's process in place of this one. Moves and chat messages not
   * answered yet are sent again on the new one with their ids (made once), as after a drop; the
   * page is not told of a reconnection (no "connexion perdue" banner): nothing was lost. */
  moveTo(key) {
    const old = this.ws;
    this.ready = false;
    clearInterval(this.pingTimer);
    for (const [id, p] of this.pending) {
      if (p.msg) continue;
      // a request that is not sent again (a report) would wait for ever: told as after a drop
      p.reject(new Error("connexion perdue"));
      this.pending.delete(id);
    }
    // the old socket's close is not this one's business any more (its onclose sees another
    // this.ws); one still opening is closed once open (a browser reports closing it before)
    old.onmessage = null;
    if (old.readyState === WebSocket.CONNECTING) old.onopen = () => old.close(1000, "table");
    else old.close(1000, "table");
    this.open(key, { quiet: true });
  }

  open(key, { quiet = false } = {}) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const query = key == null ? "" : `?table=${encodeURIComponent(key)}`;
    const ws = new WebSocket(`${proto}//${location.host}/ws${query}`);
    ws.tableKey = key;
    this.ws = ws;
    if (!quiet) this.status("connecting");
    ws.onopen = () => {
      // nothing else goes before the welcome: a move or a subscription sent while the server
      // is still reading the player would be a stranger's (refused, or a spectator's view)
      ws.helloId = `${this.idPrefix}-${this.nextId++}`;
      ws.send(JSON.stringify({ type: "hello", token: this.token, id: ws.helloId }));
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ready = false;
      clearInterval(this.pingTimer);
      const refused = this.closed || ev.code === 4401 || ev.code === 4403;
      for (const [id, p] of this.pending) {
        if (p.msg && !refused) continue; // a move waits for the reconnection, to be sent again
        p.reject(new Error("connexion perdue"));
        this.pending.delete(id);
      }
      if (this.closed) return;
      // 4401/4403: the server refused the token (unknown, banned); it would refuse it again.
      if (ev.code === 4401 || ev.code === 4403) {
        this.status("refused", ev.reason);
        this.handlers.onRefused?.(ev.reason);
        return;
      }
      this.status("reconnecting");
      const delay = Math.min(5000, 300 * 2 ** this.retry) + Math.random() * 200;
      this.retry += 1;
      clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => {
        if (!this.closed) this.open(this.routeKey());
      }, delay);
    };
    ws.onerror = () => {};
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    if (this.ws) this.ws.close(1000, "bye");
  }

  status(state, detail) {
    this.handlers.onStatus?.(state, detail);
  }

  send(msg) {
    if (this.ready && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  subscribe(table, invitation = null) {
    this.tables.set(table, invitation);
    // a socket that names another table is about to be replaced (settle()): the new one
    // subscribes, this one need not
    if (this.ready && this.ws.tableKey === this.routeKey()) this.sendSubscribe(table);
    this.settle();
  }

  unsubscribe(table) {
    this.tables.delete(table);
    if (this.ready) this.send({ type: "unsubscribe", table });
    this.settle();
  }

  sync(table) {
    this.send({ type: "sync", table });
  }

  lobbySubscribe() {
    this.lobby = true;
    if (this.ready) this.sendSubscribe(null);
  }

  lobbyUnsubscribe() {
    this.lobby = false;
    if (this.ready) this.send({ type: "lobby_unsubscribe" });
  }

  /** A chat message (`payload`: {text} or {phrase}) at a table, or in the lobby (`table` null).
   * Like a move, its id makes a retry after a reconnection safe: the server stores it once. */
  chat(table, payload) {
    const msg = { type: "chat", id: `${this.idPrefix}-${this.nextId++}`, ...payload };
    if (table != null) msg.table = table;
    return this.request(msg, true);
  }

  /** A vote for a rematch at a finished table: resolves on the server's ack (its state follows);
   * not sent again after a drop (the new state tells whether the vote counted). */
  rematch(table) {
    return this.request({ type: "rematch", table, id: `${this.idPrefix}-${this.nextId++}` }, false);
  }

  /** Reports a chat message to the admins. */
  report(message, reason) {
    return this.request({ type: "chat_report", id: `${this.idPrefix}-${this.nextId++}`, message, reason }, false);
  }

  request(msg, retry) {
    return new Promise((resolve, reject) => {
      if (!this.send(msg) && !(retry && this.opening())) {
        reject(Object.assign(new Error("pas de connexion au serveur"), { code: "offline" }));
        return;
      }
      this.pending.set(msg.id, { resolve, reject, msg: retry ? msg : null });
    });
  }

  /** Resolves on the server's ack; rejects with the server's error (message and code).
   * ``version``: the table's version the move was decided on (the server refuses it as
   * ``stale_version`` if the table moved on). */
  act(table, action, version) {
    const id = `${this.idPrefix}-${this.nextId++}`;
    const msg = { type: "act", table, action, id };
    if (version != null) msg.version = version;
    return new Promise((resolve, reject) => {
      // a socket still opening (the page just moved to this table) sends it once welcomed
      if (!this.send(msg) && !this.opening()) {
        reject(Object.assign(new Error("pas de connexion au serveur"), { code: "offline" }));
        return;
      }
      this.pending.set(id, { resolve, reject, msg });
    });
  }

  /** The server knows the player on this socket: what the page holds is sent. */
  welcomed() {
    this.retry = 0;
    this.ready = true;
    this.subscribing.clear();
    for (const table of this.tables.keys()) this.sendSubscribe(table);
    if (this.lobby) this.sendSubscribe(null);
    // moves sent before the drop and never answered: sent again with the same id, the server
    // answers each as it did the first time (applied at most once)
    for (const [, p] of this.pending) if (p.msg) this.send(p.msg);
    this.status("open");
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
  }

  /** A subscription to the table (null: to the lobby's chat), with an id: one the server could
   * not serve (its database away a moment: `unavailable`, `conflict`) is sent again after a
   * back-off, as long as the page shows the table (or the lobby), which waits on it meanwhile. */
  sendSubscribe(table, tries = 0) {
    const id = `${this.idPrefix}-${this.nextId++}`;
    this.subscribing.set(id, { table, tries });
    if (table == null) {
      this.send({ type: "lobby_subscribe", id });
      return;
    }
    const invitation = this.tables.get(table);
    const msg = { type: "subscribe", table, id };
    if (invitation) msg.invitation = invitation;
    this.send(msg);
  }

  /** Whether the page still shows what a subscription was for. */
  shows(table) {
    return table == null ? this.lobby : this.tables.has(table);
  }

  /** Whether a message sent now is sent once the socket is ready (it is opening). */
  opening() {
    const state = this.ws?.readyState;
    return state === WebSocket.CONNECTING || (state === WebSocket.OPEN && !this.ready);
  }

  receive(msg) {
    if (msg.id != null && msg.id === this.ws?.helloId) {
      if (msg.type === "welcome") {
        this.welcomed();
        this.handlers.onMessage?.(msg);
      } else if (msg.type === "error" && msg.code !== "unauthorized" && msg.code !== "banned") {
        // the server could not read the player (its database away a moment): this socket is
        // given up, and another one tried after the back-off, as after a drop; a token refused
        // is closed by the server itself (4401, 4403)
        this.ws.close(1000, "hello");
      }
      return;
    }
    const subscribed = msg.type === "error" && msg.id != null ? this.subscribing.get(msg.id) : undefined;
    if (subscribed) {
      this.subscribing.delete(msg.id);
      if (msg.code === "unavailable" || msg.code === "conflict") {
        const ws = this.ws;
        const { table, tries } = subscribed;
        setTimeout(() => {
          if (this.ws === ws && this.ready && this.shows(table)) this.sendSubscribe(table, tries + 1);
        }, Math.min(5000, 500 * 2 ** tries));
        return;
      }
    }
    const waiting = msg.id != null ? this.pending.get(msg.id) : undefined;
    if (msg.type === "ack" && waiting) {
      this.pending.delete(msg.id);
      waiting.resolve(msg);
      return;
    }
    if (msg.type === "error") {
      if (waiting && msg.code === "conflict" && waiting.msg?.type === "act" && (waiting.tries ?? 0) < 3) {
        // the table was busy, or the server that keeps it did not answer in time (it may be
        // changing hands): the same move, with the same id, is made at most once, so it is sent
        // again a few times before the player is told
        waiting.tries = (waiting.tries ?? 0) + 1;
        setTimeout(() => {
          if (this.pending.get(msg.id) === waiting) this.send(waiting.msg);
        }, 400 * waiting.tries);
        return;
      }
      if (waiting) {
        this.pending.delete(msg.id);
        waiting.reject(Object.assign(new Error(msg.message || msg.code), { code: msg.code }));
      } else {
        this.handlers.onError?.(msg);
      }
      return;
    }
    if (msg.type === "state") {
      // the page that shows the table checks its versions (js/table/controller.js)
      this.handlers.onState?.(msg);
      return;
    }
    this.handlers.onMessage?.(msg);
  }
}
