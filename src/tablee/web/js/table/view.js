// The table page: its skeleton (the felt; the status line, the actions and the hand; the scores,
// the score sheet and the journal beside; the end-of-game dialog), drawn from the state by the
// render modules of this folder, and the player's clicks turned into a choice or a move.
// Each part is drawn again only when what it shows changed where that matters: the status line
// (a live region), the actions (a half-made choice), the hand (the card a keyboard is on) and the
// journal (only new lines: a live region).

import { analyse } from "../actions.js";
import { backEl } from "../cards.js";
import { TurnAlert } from "./alert.js";
import { h, replace } from "../dom.js";
import { feltParts } from "./felt.js";
import { FocusKeeper } from "./focus.js";
import { feltHeader } from "./header.js";
import { appendJournal } from "./journal.js";
import { fitHand, handCards, handKey, handLabel, spectatorNote } from "./hand.js";
import { closedPanel, outcomePanel } from "./outcome.js";
import { panelControls, panelKey, standInPanel } from "./panel.js";
import { closedBy, closedTitle, sceneOf } from "./scene.js";
import { scoresParts, sheetParts } from "./scores.js";
import { ONE_CLICK, forgetDealEnd } from "./state.js";
import { statusOf, statusParts } from "./status.js";
import { tickSeconds } from "./timer.js";
import { waitingRoom } from "./waiting.js";

/** How long a card takes from a seat (or the hand) to the felt, and a trick to its winner. */
const MOVE_MS = 380;
// events that put cards on the discard pile, and those that take one from a pile
const PUT_DOWN = new Set(["play", "discard", "replace", "take", "speed"]);
const TAKEN = new Set(["draw", "penalty"]);
const GATHER_MS = 420;

function reducedMotion() {
  return Boolean(window.matchMedia?.("(prefers-reduced-motion: reduce)").matches);
}

function centreOf(el) {
  const r = el.getBoundingClientRect();
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** A trick card's place plus an offset: its own centring (`translate(-50%, -50%)`) stays. */
function offset(dx, dy, scale = 1) {
  return `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px))${scale !== 1 ? ` scale(${scale})` : ""}`;
}

export class TableView {
  /** `actions`: the controller's operations the page offers (send, join, leaveSeat, startGame,
   * rematch). */
  constructor(root, { tableId, player, state, actions }) {
    this.root = root;
    this.tableId = tableId;
    this.player = player;
    this.S = state;
    this.actions = actions;
    // what is on screen, to draw a part again only when it changed
    this.panelKey = null;
    this.handKey = null;
    this.statusKey = null;
    this.logShown = 0;
    this.logEpoch = state.logEpoch;
    // the cards of the trick drawn last ("seat:card"), the ones still sliding in ({t0, dx, dy}),
    // and the card of the hand the player clicked last, where its slide starts
    this.trickKeys = null;
    this.sliding = new Map();
    this.played = null;

    const S = state;
    this.felt = h("div.felt", { id: "felt" });
    this.status = h("div.status-line", { id: "status", role: "status", "aria-live": "polite" });
    this.panel = h("div.actions", { id: "actions", role: "group", "aria-label": "Actions" });
    this.hand = h("div.hand", { id: "hand", role: "group", "aria-label": "Votre main" });
    const meZone = h("div.me-zone", this.status, this.panel, this.hand);
    this.scores = h("div.panel.scores", { id: "scores" });
    this.sheet = h("div.panel.sheet-box", { id: "sheet", hidden: true });
    // a log region: a screen reader says each line added (the moves), never the whole list again
    this.logList = h("ol.log-list", { id: "log", role: "log", "aria-live": "polite", "aria-label": "Journal de la partie" });
    const logBox = h("div.panel.log", h("h3", "Journal"), this.logList);
    const settings = h("label.check.small.oneclick",
      h("input", {
        type: "checkbox",
        id: "oneclick",
        checked: S.oneClick,
        onchange: (ev) => {
          S.oneClick = ev.target.checked;
          localStorage.setItem(ONE_CLICK, S.oneClick ? "1" : "0");
          this.redraw();
        },
      }),
      " jouer une carte en un clic");
    this.alert = new TurnAlert();
    const sound = h("label.check.small.oneclick",
      h("input", {
        type: "checkbox",
        id: "sound",
        checked: !this.alert.muted,
        onchange: (ev) => this.alert.setMuted(!ev.target.checked),
      }),
      " son quand c'est à vous");
    const notify = typeof Notification === "undefined" ? null : h("label.check.small.oneclick",
      h("input", {
        type: "checkbox",
        id: "notify",
        checked: this.alert.notifyOn && Notification.permission === "granted",
        onchange: async (ev) => {
          ev.target.checked = await this.alert.setNotify(ev.target.checked);
        },
      }),
      " notification quand c'est à vous");
    this.overlay = h("div.overlay", { id: "result", hidden: true });
    this.chatSlot = h("div.chat-slot");
    // leaving a running game: a robot plays on for the player, who may come back
    this.quit = h("button.btn.small.quit", {
      type: "button",
      id: "quit-table",
      hidden: true,
      onclick: () => {
        const ok = window.confirm("Quitter la table ? Un robot jouera à votre place ; vous pourrez la reprendre depuis le salon ou le lien de la table.");
        if (ok) this.actions.leaveGame();
      },
    }, "Quitter la table");
    const side = h("aside.side", this.scores, this.sheet, this.chatSlot, logBox, h("div.settings", settings, sound, notify, this.quit));
    this.page = h("div.table-page", { id: "table" }, h("div.play", this.felt, meZone, this.overlay), side);
    replace(root, this.page);
    document.getElementById("crumb").textContent = `Table ${tableId}`;

    this.focus = new FocusKeeper(this.hand, this.panel);
    this.onResize = () => fitHand(this.hand);
    window.addEventListener("resize", this.onResize);
    this.stopTicking = tickSeconds(this.page);
  }

  /** The table's chat box (js/chat.js), in the side column. */
  addChat(el) {
    replace(this.chatSlot, el);
  }

  stop() {
    window.removeEventListener("resize", this.onResize);
    this.focus.stop();
    this.stopTicking();
    this.alert.stop();
  }

  scene() {
    return sceneOf(this.S, { player: this.player, send: this.actions.send, rerender: () => this.redraw() });
  }

  /** Draws again, the actions included (a game's own choice changed). */
  redraw() {
    this.invalidatePanel();
    this.draw();
  }

  /** The actions are drawn anew at the next drawing, even if the legal actions are the same. */
  invalidatePanel() {
    this.panelKey = null;
  }

  // -- what the controller calls -----------------------------------------------------------

  draw() {
    const S = this.S;
    if (S.stopped) return;
    const c = this.scene();
    const { page } = this;
    const v = c.view;
    const msg = S.msg;
    page.classList.toggle("spectator", c.mySeat == null);
    if (c.game) page.dataset.game = c.game;
    // plain facts for tests and the curious: which state is on screen
    page.dataset.version = msg ? String(msg.version) : "";
    page.dataset.phase = v?.phase ?? S.info?.status ?? "";
    page.dataset.over = msg?.over ? "1" : "0";
    page.dataset.mine = msg && !msg.over && (msg.legal || []).length ? "1" : "0";
    page.dataset.seat = c.mySeat == null ? "" : String(c.mySeat);
    page.dataset.toAct = msg && !msg.over ? (msg.to_act || []).join(",") : "";
    page.dataset.busy = S.busy ? "1" : "0";
    page.dataset.refused = String(S.refused);
    page.dataset.tricks = Array.isArray(v?.tricks_won) ? String(v.tricks_won.reduce((a, b) => a + b, 0)) : "";
    page.dataset.closed = closedBy(msg) ? "1" : "0";
    page.dataset.behind = msg?.behind != null ? String(msg.behind) : "";
    this.alert.update({ mine: c.legal.length > 0, deadline: msg?.deadline ?? null, tableName: `Table ${this.tableId}` });
    if (!v) {
      this.drawWithoutGame(c);
      return;
    }
    replace(this.felt, feltParts(c, {
      notice: S.notice,
      replaced: S.replaced,
      showLast: S.showLast,
      onToggleLast: () => {
        S.showLast = !S.showLast;
        this.draw();
      },
      onGather: () => this.actions.gather?.(),
      onCloseDealEnd: () => {
        forgetDealEnd(S);
        this.draw();
      },
    }));
    this.slideCards(c);
    this.movePiles(c, msg);
    this.drawMe(c);
    this.drawSide(c);
    this.drawOutcome(c);
  }

  /** Each card new on the felt's trick slides in from the seat that played it (the player's
   * own from the card clicked in the hand). The felt is drawn anew at every state, so a slide
   * is started again on the new element where it had got to (a negative delay): a robot's move
   * never cuts it short. */
  slideCards(c) {
    const els = [...this.felt.querySelectorAll("#trick .card.in-trick")];
    const keys = new Set(els.map((el) => `${el.dataset.seat}:${el.dataset.card}`));
    const first = this.trickKeys == null;
    const before = this.trickKeys ?? new Set();
    this.trickKeys = keys;
    if (first || reducedMotion() || typeof Element.prototype.animate !== "function") {
      this.sliding.clear();
      return;
    }
    const now = performance.now();
    for (const key of [...this.sliding.keys()]) {
      if (!keys.has(key) || now - this.sliding.get(key).t0 >= MOVE_MS) this.sliding.delete(key);
    }
    for (const el of els) {
      const key = `${el.dataset.seat}:${el.dataset.card}`;
      if (!before.has(key) && !this.sliding.has(key)) {
        const seat = Number(el.dataset.seat);
        const fromHand = seat === c.mySeat && this.played?.card === el.dataset.card ? this.played.at : null;
        const seatEl = this.felt.querySelector(`.seat[data-seat="${seat}"]`);
        const from = fromHand ?? (seatEl ? centreOf(seatEl) : null);
        if (!from) continue;
        const to = centreOf(el);
        this.sliding.set(key, { t0: now, dx: from.x - to.x, dy: from.y - to.y });
      }
      const s = this.sliding.get(key);
      if (!s) continue;
      el.classList.add("sliding");
      el.animate([{ transform: offset(s.dx, s.dy) }, { transform: offset(0, 0) }], {
        duration: MOVE_MS,
        delay: -(now - s.t0),
        easing: "cubic-bezier(.2,.7,.3,1)",
      });
    }
  }

  /** The piles' cards move (Contrecarte, yaniv, freeze), once per state: the cards now on the
   * discard pile slide in from the seat that put them there (the player's own from the card
   * clicked), a drawn card (or a penalty) flies face down from its pile to the seat or the hand
   * that took it, and a new deal sends a card to every seat. */
  movePiles(c, msg) {
    const key = msg ? `${msg.info?.game_no ?? ""}:${msg.version}` : null;
    if (key === this.pileKey) return;
    const first = this.pileKey == null;
    this.pileKey = key;
    const discard = this.felt.querySelector("#discard");
    if (first || !msg || !discard || reducedMotion() || typeof Element.prototype.animate !== "function") return;
    const place = (seat) => (seat === c.mySeat ? this.hand : this.felt.querySelector(`.seat[data-seat="${seat}"]`));
    let flights = 0;
    // a draw is told twice to the one who drew (everyone's line, and their own with the cards)
    const taken = new Set();
    for (const e of Array.isArray(msg.events) ? msg.events : []) {
      if (typeof e.seat !== "number") continue;
      if (TAKEN.has(e.type)) {
        if (taken.has(`${e.type}:${e.seat}`)) continue;
        taken.add(`${e.type}:${e.seat}`);
      }
      if (PUT_DOWN.has(e.type) && !(e.type === "speed" && !e.good)) {
        const fromEl = place(e.seat);
        if (!fromEl) continue;
        const mine = e.seat === c.mySeat && this.played?.at;
        const from = mine ? this.played.at : centreOf(fromEl);
        for (const el of discard.querySelectorAll(".card")) {
          const to = centreOf(el);
          el.animate([{ transform: `translate(${from.x - to.x}px, ${from.y - to.y}px)` }, { transform: "none" }], {
            duration: MOVE_MS,
            easing: "cubic-bezier(.2,.7,.3,1)",
          });
        }
      } else if (TAKEN.has(e.type)) {
        const pile = e.from === "discard" && e.type === "draw" ? discard : this.felt.querySelector("#stock");
        const toEl = place(e.seat);
        const count = Math.min(3, Number(e.count) || (Array.isArray(e.cards) ? e.cards.length : 1) || 1);
        for (let i = 0; i < count && pile && toEl; i++) this.fly(pile, toEl, c.kind, (flights++) * 90);
      } else if (e.type === "deal") {
        const stock = this.felt.querySelector("#stock") ?? discard;
        for (let seat = 0; seat < c.n; seat++) {
          const toEl = place(seat);
          if (toEl) this.fly(stock, toEl, c.kind, (flights++) * 70);
        }
      }
    }
  }

  /** A face-down card from ``fromEl`` to ``toEl`` over the page, removed once there. */
  fly(fromEl, toEl, kind, delay) {
    const from = centreOf(fromEl);
    const to = centreOf(toEl);
    const card = backEl(kind);
    card.classList.add("flying");
    card.setAttribute("aria-hidden", "true");
    card.style.left = `${from.x}px`;
    card.style.top = `${from.y}px`;
    document.body.append(card);
    const a = card.animate([
      { transform: "translate(-50%, -50%)", opacity: 1 },
      { transform: `translate(calc(-50% + ${to.x - from.x}px), calc(-50% + ${to.y - from.y}px)) scale(.8)`, opacity: 0.6 },
    ], { duration: MOVE_MS, delay, easing: "ease-in-out", fill: "backwards" });
    a.finished.catch(() => {}).then(() => card.remove());
  }

  /** The trick held on the felt goes to its winner's seat; resolves once it is there. */
  gatherTrick(held) {
    const cards = [...this.felt.querySelectorAll("#trick .card.in-trick")];
    const seatEl = this.felt.querySelector(`.seat[data-seat="${held.winner}"]`);
    if (!cards.length || !seatEl || reducedMotion() || typeof Element.prototype.animate !== "function") return Promise.resolve();
    const to = centreOf(seatEl);
    return Promise.all(cards.map((el) => {
      const from = centreOf(el);
      const a = el.animate([
        { transform: offset(0, 0), opacity: 1 },
        { transform: offset(to.x - from.x, to.y - from.y, 0.45), opacity: 0.15 },
      ], { duration: GATHER_MS, easing: "ease-in", fill: "forwards" });
      return a.finished.catch(() => {});
    })).then(() => {});
  }

  /** A move is on its way (or no longer): the actions look it at once, before any drawing. */
  markBusy(on) {
    this.panel.classList.toggle("busy", on);
    if (on) this.page.dataset.busy = "1";
  }

  /** The table does not exist (or no longer). */
  showMissing() {
    replace(this.root, h("div.panel.center-msg",
      h("h2", "Table introuvable"),
      h("p", `La table ${this.tableId} n'existe pas (ou plus).`),
      h("a.btn.primary", { href: "#/" }, "Retour au salon")));
  }

  setOnline(online) {
    this.page.classList.toggle("offline", !online);
  }

  // -- the parts ----------------------------------------------------------------------------

  /** Before the start (the waiting room), or a table closed before it started (only why). */
  drawWithoutGame(c) {
    const S = this.S;
    const closed = closedBy(S.msg);
    if (closed) {
      replace(this.felt, feltHeader(c, { notice: S.notice }), h("div.waiting", closedPanel(c, { onHide: () => this.hideResult() })));
    } else {
      replace(this.felt,
        feltHeader(c, { notice: S.notice }),
        waitingRoom(c, {
          isCreator: Boolean(S.info?.creator && String(S.info.creator.id) === String(this.player.id)),
          link: `${location.origin}${location.pathname}#/table/${this.tableId}${S.info?.invitation ? `?invitation=${encodeURIComponent(S.info.invitation)}` : ""}`,
          onJoin: (seat) => this.actions.join(seat),
          onLeave: () => this.actions.leaveSeat(),
          onStart: () => this.actions.startGame(true),
        }));
    }
    this.panel.replaceChildren();
    this.hand.replaceChildren();
    this.handKey = null;
    this.statusKey = null;
    if (closed) replace(this.status, h("span", `${closedTitle(closed)}.`));
    else this.status.replaceChildren();
    this.overlay.hidden = true;
    this.drawSide(c);
  }

  /** The viewer's zone: the status line, the actions, the hand. */
  drawMe(c) {
    const S = this.S;
    const v = c.view;
    const model = analyse(c.legal, v.hand);
    const line = statusOf(c);
    // A live region: drawn again only when what it says changes, so a screen reader says each
    // turn once (and the seconds ticking by never).
    if (line.key !== this.statusKey) {
      this.statusKey = line.key;
      replace(this.status, statusParts(c, line));
    }
    this.status.classList.toggle("mine", c.legal.length > 0);
    this.focus.keep();

    // a robot plays for the viewer (they left, or the timer played for them too often): the
    // bar offers the seat back instead of moves
    const away = c.mySeat != null && !c.msg?.over ? c.seats[c.mySeat]?.away : null;
    const key = away ? JSON.stringify(["away", away]) : panelKey(c, S);
    if (key !== this.panelKey) {
      this.panelKey = key;
      replace(this.panel, away ? standInPanel(away, () => this.actions.takeBack()) : panelControls(c, model, S));
    }
    this.quit.hidden = !(c.mySeat != null && S.info?.status === "playing" && !away);

    if (c.mySeat == null || v.hand == null) {
      replace(this.hand, spectatorNote(S.msg?.behind));
      this.hand.classList.add("spect");
      this.handKey = null;
      return;
    }
    this.hand.classList.remove("spect");
    const custom = c.renderer.hand?.(v, c, model);
    if (custom) {
      replace(this.hand, custom);
      this.handKey = null;
      this.focus.restore();
      return;
    }
    const hk = handKey(c, S);
    if (hk === this.handKey) {
      this.focus.restore();
      return;
    }
    this.handKey = hk;
    this.hand.setAttribute("aria-label", handLabel(v.hand));
    replace(this.hand, handCards(c, model, S, (code, selected, ev) => this.clickCard(code, model, selected, ev)));
    fitHand(this.hand);
    this.focus.restore();
  }

  drawSide(c) {
    replace(this.scores, scoresParts(c));
    const sheet = sheetParts(c);
    if (sheet) {
      replace(this.sheet, sheet);
      this.sheet.hidden = false;
    } else {
      this.sheet.hidden = true;
    }
    if (this.logEpoch !== this.S.logEpoch) {
      // a new game: its journal starts empty
      this.logEpoch = this.S.logEpoch;
      this.logList.replaceChildren();
      this.logShown = 0;
    }
    this.logShown = appendJournal(this.logList, this.S.log, this.logShown);
  }

  drawOutcome(c) {
    const S = this.S;
    const { overlay } = this;
    if (!S.msg.over || S.resultHidden === S.gameNo) {
      overlay.hidden = true;
      return;
    }
    overlay.hidden = false;
    if (closedBy(S.msg)) {
      // the server refuses a rematch at a closed table: none is offered
      replace(overlay, closedPanel(c, { onHide: () => this.hideResult() }));
      return;
    }
    replace(overlay, outcomePanel(c, {
      onRematch: async (ev) => {
        ev.target.disabled = true;
        if (!(await this.actions.rematch())) ev.target.disabled = false;
      },
      onHide: () => this.hideResult(),
    }));
  }

  hideResult() {
    this.S.resultHidden = this.S.gameNo;
    this.overlay.hidden = true;
  }

  // -- the player's clicks ------------------------------------------------------------------

  clickCard(code, model, selected, ev) {
    const S = this.S;
    if (S.busy) return;
    // where the card is, for its slide to the felt once played
    const el = ev?.currentTarget ?? this.hand.querySelector(`.card[data-card="${code}"]`);
    if (el?.getBoundingClientRect) this.played = { card: code, at: centreOf(el) };
    // Enter or Space on a card (a click of detail 0) plays it: a keyboard has no second click
    // to confirm with, and the confirm button sits above the hand.
    const keyboard = ev?.detail === 0;
    const single = model.byCard.get(code);
    if (model.multi.length && (!single || S.multi.length)) {
      if (selected) S.multi.splice(S.multi.lastIndexOf(code), 1);
      else S.multi.push(code);
      this.draw();
      return;
    }
    if (!single) return;
    if (S.selected === code) {
      // a second click on the selected card confirms it, when there is nothing else to choose
      if (single.length === 1) this.actions.send(single[0]);
      else {
        S.selected = null;
        this.draw();
      }
      return;
    }
    if ((S.oneClick || keyboard) && single.length === 1) {
      this.actions.send(single[0]);
      return;
    }
    S.selected = code;
    // the variants (a colour) are buttons of the panel: the keyboard goes there
    if (keyboard) this.focus.next = "panel";
    this.draw();
  }
}
