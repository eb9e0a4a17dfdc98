// The table's controller: everything between the server and the page's state. It subscribes,
// receives the states (asking for a `sync` when versions skip), decides when each is shown,
// sends the player's moves and keeps them pending until their state is on screen, polls the
// table while the socket is down, and makes the REST calls of the waiting room and the end.
// The socket itself (socket.js) reconnects and subscribes again by itself; the server then
// answers with the whole current state, which arrives here like any other.
//
// Drawing is not its business: it calls `draw()` (view.js) whenever the state changed.

import { analyse } from "../actions.js";
import { api as restApi } from "../api.js";
import { toastError } from "../dom.js";
import { LOG_MAX, describeEvents, noticeWorthy } from "./journal.js";
import { infoOf, sceneOf, tableIdOf } from "./scene.js";
import { forgetDealEnd, forgetGame } from "./state.js";

/** The socket pushes every change; a slow poll only covers a socket that is down. */
const POLL_MS = 4000;
/** How long a move's state may trail its ack before a `sync` asks for it. */
const SETTLE_MS = 4000;
/** How long a notice stays on the felt. */
const NOTICE_MS = 6000;
/** How long a completed trick stays on the felt before it is gathered (unless the player
 * gathers it, or leads the next one). */
export const TRICK_PAUSE_MS = 1500;
/** How long the last deal's breakdown stays once the next deal is dealt (a robot deals at once),
 * unless the player moves or puts it away first. */
export const DEAL_END_MS = 20000;

/** That while; a page may set `window.tableeDealEndPause` (ms), as the browser tests do to look at
 * it at leisure. */
function dealEndPause() {
  const p = typeof window !== "undefined" ? window.tableeDealEndPause : undefined;
  return typeof p === "number" ? p : DEAL_END_MS;
}
/** Held states beyond this many (a spectator of a fast robot table) shorten the pause, so the
 * screen never trails the table for long. */
const QUEUE_LAG = 3;

/** The pause; a page may set `window.tableeTrickPause` (ms, 0: none), as the browser tests do
 * to play fast. */
function trickPause() {
  const p = typeof window !== "undefined" ? window.tableeTrickPause : undefined;
  return typeof p === "number" ? p : TRICK_PAUSE_MS;
}

/** The trick a state completes (its `trick` event, with the cards and the winner), if any. */
export function completedTrick(msg) {
  const e = (msg.events || []).find((x) => x.type === "trick" && Array.isArray(x.cards) && x.cards.length);
  return e ? { cards: e.cards, winner: e.seat } : null;
}

export class TableController {
  /**
   * `state`: the page's state (state.js); `draw()`: draws it; `markBusy(on)`: shows at once
   * that a move is on its way (before any drawing); `invalidate()`: the actions are drawn anew
   * at the next draw; `gone()`: the table does not exist.
   */
  constructor(tableId, { socket, player, invitation = null, state, draw, markBusy, invalidate, gone, gather = async () => {}, api = restApi }) {
    this.tableId = tableId;
    // a private table's invitation code, from the link the page was opened with
    this.invitation = invitation;
    this.socket = socket;
    this.player = player;
    this.state = state;
    this.draw = draw;
    this.markBusy = markBusy;
    this.invalidate = invalidate;
    this.gone = gone;
    this.gatherAnimation = gather;
    this.api = api;
    // states received but not shown yet, while a completed trick stays on the felt
    this.queue = [];
    this.holdTimer = null;
    this.gathering = false;
    this.lastVersion = null;
    // the table's info as last received (a change's state may leave it out)
    this.lastInfo = null;
    this.pending = null;
    this.poll = null;
  }

  start() {
    this.subscribe();
    this.loadInfo().then(() => this.schedulePoll());
  }

  stop() {
    this.state.stopped = true;
    clearTimeout(this.poll);
    clearTimeout(this.holdTimer);
    this.socket.unsubscribe(this.tableId);
  }

  subscribe() {
    // a new subscription starts a new run of versions: the first state is never a gap
    this.lastVersion = null;
    this.socket.subscribe(this.tableId, this.invitation);
  }

  // -- states -------------------------------------------------------------------------------

  /** Every state message of the socket. A state is whole, so it is shown anyway; a gap only
   * means some events were missed, and a sync makes sure nothing newer was missed too. A lower
   * version is a new game (a rematch); the same version again carries no new events. */
  receive(msg) {
    if (String(tableIdOf(msg)) !== String(this.tableId)) return;
    // a change's state leaves `info` out when it did not change: the last one holds, at this
    // state's version and deadline (every subscribe and sync answer carries it whole)
    if (msg.info) this.lastInfo = msg.info;
    else if (this.lastInfo) msg.info = { ...this.lastInfo, version: msg.version, deadline: msg.deadline };
    const last = this.lastVersion;
    this.lastVersion = msg.version;
    const gap = last != null && msg.version > last + 1;
    this.queue.push({ msg, repeat: last != null && msg.version === last });
    this.pump();
    if (gap) this.socket.sync(this.tableId);
  }

  /** Shows the states received, in turn, until one holds a completed trick on the felt. */
  pump() {
    while (!this.state.held && !this.gathering && this.queue.length) {
      const { msg, repeat } = this.queue.shift();
      this.present(msg, { repeat });
    }
  }

  /** The trick held on the felt goes to its winner; the states held back follow. Called when
   * its time is up, by a click on the felt, and when the player moves. */
  async gather() {
    const S = this.state;
    if (!S.held || this.gathering) return;
    clearTimeout(this.holdTimer);
    this.gathering = true;
    try {
      // an animation that never ends must not hold the table back
      await Promise.race([this.gatherAnimation(S.held), new Promise((r) => setTimeout(r, 800))]);
    } catch {
      // only the animation failed: the states still follow
    }
    this.gathering = false;
    S.held = null;
    this.draw();
    this.pump();
  }

  /**
   * The one place a received state reaches the screen, with its events in the journal and the
   * move it answers settled. A state that completes a trick keeps the trick on the felt (`held`)
   * for a moment: the states that follow wait in `queue` and are shown in turn after it, so the
   * screen always ends equal to the last state received.
   */
  present(msg, { repeat = false } = {}) {
    const S = this.state;
    this.setInfo(infoOf(msg));
    S.msg = msg;
    const done = repeat ? null : completedTrick(msg);
    const pause = trickPause();
    if (done && pause > 0 && !S.stopped) {
      S.held = done;
      clearTimeout(this.holdTimer);
      this.holdTimer = setTimeout(() => this.gather(), this.queue.length >= QUEUE_LAG ? pause / 5 : pause);
    }
    if (Array.isArray(msg.journal)) this.rebuildJournal(msg.journal);
    else if (!repeat && Array.isArray(msg.events) && msg.events.length) this.journal(msg.events);
    // a selection that is no longer legal is dropped
    const model = analyse(msg.legal, msg.view?.hand);
    if (S.selected && !model.byCard.has(S.selected)) S.selected = null;
    if (S.multi.length && !model.multi.length) S.multi = [];
    this.pendingSeen(msg);
    this.draw();
  }

  /** The answer to a subscription carries the current deal's events as this seat saw them
   * (`journal`): the lines of the current deal are written again from them (a reload, a late
   * joiner, a spectator, a socket that came back after missing some), the earlier deals' lines
   * this page wrote stay. Nothing of it is a notice: it already happened. */
  rebuildJournal(events) {
    const S = this.state;
    // the shuffle's lines come from `info`, not from the events: they stay
    S.log = S.log.filter((l) => l.seq < S.dealSeq || l.type === "commitment");
    S.dealSeq = S.logSeq + 1;
    S.logEpoch += 1;
    this.journal(events, { quiet: true });
  }

  journal(events, { quiet = false } = {}) {
    const S = this.state;
    const scene = sceneOf(S, { player: this.player });
    for (const { event: e, text } of describeEvents(events, scene)) {
      // the server's journal starts at a deal's `deal` event: a rebuild replaces from there
      if (e.type === "deal") S.dealSeq = S.logSeq + 1;
      if (text) S.log.push({ seq: ++S.logSeq, text, type: e.type, mine: e.seat != null && e.seat === scene.mySeat });
      if (e.type === "player_left" && e.replaced_by === "bot") S.replaced[e.seat] = e.name ?? scene.name(e.seat);
      if (e.type === "player_joined") delete S.replaced[e.seat];
      if (e.type === "deal_end" && e.breakdown) {
        forgetDealEnd(S);
        S.dealEnd = e;
      } else if (e.type === "deal" && S.dealEnd && !S.dealEndTimer) {
        S.dealEndTimer = setTimeout(() => {
          forgetDealEnd(S);
          this.draw();
        }, dealEndPause());
      }
      if (noticeWorthy(e) && text && !quiet) this.notify(text, e.type);
    }
    if (S.log.length > LOG_MAX) S.log.splice(0, S.log.length - LOG_MAX);
  }

  /** A move the table made for someone, a seat a robot took over: a line in the log, and for
   * a few seconds a notice on the felt, where the eyes are. */
  notify(text, type) {
    const S = this.state;
    clearTimeout(S.notice?.timer);
    const notice = { text, type, timer: null };
    notice.timer = setTimeout(() => {
      if (S.notice !== notice) return;
      S.notice = null;
      this.draw();
    }, NOTICE_MS);
    S.notice = notice;
  }

  setInfo(info) {
    const S = this.state;
    if (!info) return;
    if (S.gameNo != null && info.game_no !== S.gameNo) forgetGame(S);
    S.gameNo = info.game_no;
    S.info = info;
    this.shuffleLines(info);
  }

  /** The journal says the shuffle's commitment once per game, and its seed once revealed
   * (docs/fairness.md). */
  shuffleLines(info) {
    const S = this.state;
    const sh = info.shuffle;
    if (!sh?.commitment || info.status === "waiting") return;
    const key = `${info.game_no}:${sh.commitment}`;
    if (S.shuffleTold !== key) {
      S.shuffleTold = key;
      S.log.push({ seq: ++S.logSeq, text: `Donne engagée avant le premier coup : sha256 ${sh.commitment.slice(0, 16)}…${sh.stacked ? " (paquet arrangé : non vérifiable)" : ""}`, type: "commitment", mine: false });
    }
    if (sh.seed != null && S.seedTold !== key) {
      S.seedTold = key;
      S.log.push({ seq: ++S.logSeq, text: `Graine révélée : ${sh.seed}, sel ${sh.salt.slice(0, 16)}… — la donne se vérifie avec « tablee verify ».`, type: "commitment", mine: false });
    }
  }

  // -- moves --------------------------------------------------------------------------------

  /** Sends a move. Busy from the click until the state that follows the move is on screen: the
   * server acks first and broadcasts next, and between the two the old controls must not be
   * clicked again. */
  send(action) {
    const S = this.state;
    if (S.busy) return;
    // the player leads the next trick: the last one is gathered at once
    if (S.held) this.gather();
    // the player moves on: the last deal's breakdown is put away
    if (S.dealEnd && !S.msg?.over) forgetDealEnd(S);
    S.busy = true;
    const pending = { from: S.msg?.version ?? null, game: S.gameNo, acked: false, seen: false, timer: null };
    this.pending = pending;
    this.markBusy(true);
    this.socket.act(this.tableId, action, pending.from)
      .then(() => {
        if (this.pending !== pending) return;
        S.selected = null;
        S.multi = [];
        pending.acked = true;
        if (pending.seen) {
          this.settle();
          return;
        }
        // the state normally follows the ack at once; if it got lost, ask for it
        pending.timer = setTimeout(() => {
          if (this.pending !== pending) return;
          this.socket.sync(this.tableId);
          this.settle();
        }, SETTLE_MS);
        this.draw();
      })
      .catch((err) => {
        if (this.pending !== pending) return;
        S.refused += 1;
        toastError(err);
        this.settle();
      });
  }

  /** Called with every state shown: the move sent is on screen once a newer state is. */
  pendingSeen(msg) {
    const p = this.pending;
    if (!p) return;
    if (this.state.gameNo !== p.game || p.from == null || msg.version > p.from) {
      p.seen = true;
      if (p.acked) this.settle();
    }
  }

  settle() {
    clearTimeout(this.pending?.timer);
    this.pending = null;
    this.state.busy = false;
    this.markBusy(false);
    this.invalidate();
    this.draw();
  }

  // -- the table over REST ------------------------------------------------------------------

  async loadInfo() {
    try {
      const info = await this.api.table(this.tableId, this.invitation);
      // a reply read before this socket's subscription counted it (who watches, who is
      // connected) must not overwrite the info of a state at the same version or newer
      const shown = this.state.msg;
      const stale = shown && infoOf(shown)?.game_no === info.game_no && shown.version >= info.version;
      if (!stale) this.setInfo(info);
    } catch (e) {
      if (e.status === 404 || e.status === 422) {
        this.state.stopped = true;
        this.gone();
        return;
      }
      toastError(e);
    }
    this.draw();
  }

  schedulePoll() {
    clearTimeout(this.poll);
    if (this.state.stopped) return;
    this.poll = setTimeout(async () => {
      if (!this.socket.ready) await this.loadInfo();
      this.schedulePoll();
    }, POLL_MS);
  }

  async join(seat) {
    try {
      this.setInfo(await this.api.join(this.tableId, seat, this.invitation));
      // the socket's subscription was a spectator's: subscribe again to get this seat's view
      this.subscribe();
      this.draw();
    } catch (e) {
      toastError(e);
    }
  }

  async leaveSeat() {
    try {
      await this.api.leave(this.tableId);
      location.hash = "#/";
    } catch (e) {
      toastError(e);
    }
  }

  /** Leaves a running game: a robot plays on for the player, who stays at the table (watching
   * their seat) and may take it back. */
  async leaveGame() {
    try {
      this.setInfo(await this.api.leave(this.tableId));
      this.invalidate();
      this.draw();
    } catch (e) {
      toastError(e);
    }
  }

  /** Takes back the seat a robot plays for the player (at once, or after the robot's move). */
  async takeBack() {
    try {
      this.setInfo(await this.api.takeBack(this.tableId));
    } catch (e) {
      toastError(e);
    }
    this.invalidate();
    this.draw();
  }

  async startGame(fill) {
    try {
      this.setInfo(await this.api.start(this.tableId, fill));
      this.draw();
    } catch (e) {
      toastError(e);
    }
  }

  /** Votes for a rematch: over the socket (the state that follows shows it), or over REST while
   * the socket is down; false when the server refused it. */
  async rematch() {
    try {
      if (this.socket.ready) {
        await this.socket.rematch(this.tableId);
      } else {
        this.setInfo(await this.api.rematch(this.tableId));
        this.draw();
      }
      return true;
    } catch (e) {
      toastError(e);
      return false;
    }
  }
}
