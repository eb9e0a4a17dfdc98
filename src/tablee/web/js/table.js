// The table page: seats around the felt, the centre (trick, piles, layouts), your hand, the
// actions the server lists as legal, scores, the score sheet and the log; the waiting room before
// the start and the outcome at the end. Everything shown comes from the server's state messages
// (`view`, `legal`, `to_act`, `deadline`, `over`, `outcome`, `events`, and `info`, the table).

import { h, replace, toastError } from "./dom.js";
import { api } from "./api.js";
import { backEl, cardEl, cardNameWithArticle, deckKind } from "./cards.js";
import { analyse, cardControls, multiCandidates, multiControls, otherControls } from "./actions.js";
import { describeEvent } from "./events.js";
import { fieldText, fieldsOf, phaseLabel, typeLabel } from "./labels.js";
import { gameTitle, loadGames, mySeat as mySeatIn, seatsOf } from "./lobby.js";
import { rendererFor } from "./games.js";
import { botIcon, trophyIcon } from "./icons.js";

const ONE_CLICK = "tablee.oneclick";
const LOG_MAX = 300;
const POLL_MS = 4000;
const NOTICE_MS = 6000;
const LOG_SHOWN = 80;
/** Events that also show as a notice on the felt: a move nobody at the table chose, a seat a
 * robot now plays. */
const noticeWorthy = (e) => e.type === "auto" || (e.type === "player_left" && e.replaced_by === "bot");

/** The outcome says an admin closed the table (docs/admin.md): no winner, no rematch. */
export function closedBy(msg) {
  return msg?.over && msg.outcome?.closed ? msg.outcome : null;
}

/** An admin's reason, unless it is the server's default (which says nothing more). */
export function closeReason(outcome) {
  const reason = outcome?.reason;
  return reason && reason !== "closed by an admin" ? reason : null;
}

/** Where seat `rel` (0 = the viewer, at the bottom) sits: counterclockwise, as at a French table. */
export function seatAngle(rel, n) {
  return ((90 - (rel * 360) / n) * Math.PI) / 180;
}

/** The table's public description in a state message (`info`, or an object `table`). */
export function infoOf(msg) {
  if (!msg) return null;
  if (msg.info) return msg.info;
  if (msg.table && typeof msg.table === "object") return msg.table;
  return null;
}

export function tableIdOf(msg) {
  return msg.table && typeof msg.table === "object" ? msg.table.id : msg.table;
}

/** Events without the public twin of a private event this viewer also got (the drawer sees
 * "you draw 7♥", not also "Alice draws a card"). */
export function withoutPublicTwins(events) {
  return events.filter((e) => !events.some((o) => o !== e && o.type === e.type && o.seat === e.seat
    && Object.keys(o).length > Object.keys(e).length
    && Object.keys(e).every((k) => k === "count" || JSON.stringify(o[k]) === JSON.stringify(e[k]))));
}

export function showTable(root, rawId, { socket, player }) {
  const tableId = /^\d+$/.test(rawId) ? Number(rawId) : rawId;
  const S = {
    info: null,
    msg: null,
    selected: null,
    multi: [],
    log: [],
    busy: false,
    pending: null,
    refused: 0,
    oneClick: localStorage.getItem(ONE_CLICK) === "1",
    stopped: false,
    poll: null,
    showLast: false,
    panelKey: null,
    gameNo: null,
    closedOverlay: null,
    notice: null,
    replaced: {},
    ui: {},
    logSeq: 0,
    logShown: 0,
    statusKey: null,
    handKey: null,
    // where the keyboard was in the controls, to put it back when they are drawn anew
    focus: null,
    focusNext: null,
    keyboard: false,
  };

  const felt = h("div.felt", { id: "felt" });
  const status = h("div.status-line", { id: "status", role: "status", "aria-live": "polite" });
  const panel = h("div.actions", { id: "actions", role: "group", "aria-label": "Actions" });
  const hand = h("div.hand", { id: "hand", role: "group", "aria-label": "Votre main" });
  const meZone = h("div.me-zone", status, panel, hand);
  const scores = h("div.panel.scores", { id: "scores" });
  const sheet = h("div.panel.sheet-box", { id: "sheet", hidden: true });
  // a log region: a screen reader says each line added (the moves), never the whole list again
  const logList = h("ol.log-list", { id: "log", role: "log", "aria-live": "polite", "aria-label": "Journal de la partie" });
  const logBox = h("div.panel.log", h("h3", "Journal"), logList);
  const settings = h("label.check.small.oneclick",
    h("input", {
      type: "checkbox",
      id: "oneclick",
      checked: S.oneClick,
      onchange: (ev) => {
        S.oneClick = ev.target.checked;
        localStorage.setItem(ONE_CLICK, S.oneClick ? "1" : "0");
        S.panelKey = null;
        render();
      },
    }),
    " jouer une carte en un clic");
  const overlay = h("div.overlay", { id: "result", hidden: true });
  const side = h("aside.side", scores, sheet, logBox, settings);
  const page = h("div.table-page", { id: "table" }, h("div.play", felt, meZone, overlay), side);
  replace(root, page);
  document.getElementById("crumb").textContent = `Table ${tableId}`;

  const view = () => S.msg?.view ?? null;
  const game = () => view()?.game ?? S.info?.game;
  const kind = () => deckKind(game());
  const seats = () => (S.info ? seatsOf(S.info) : []);
  const nSeats = () => view()?.players ?? S.info?.players ?? seats().length;

  function mySeat() {
    const v = view();
    if (v && v.seat !== undefined) return v.seat;
    return S.info ? mySeatIn(S.info, player) : null;
  }

  function name(seat) {
    if (seat == null) return "?";
    const s = seats()[seat];
    if (s?.name) return s.name;
    return s?.kind === "bot" ? `Robot ${seat + 1}` : `Place ${seat + 1}`;
  }

  function ctx() {
    const r = rendererFor(game());
    const n = nSeats();
    const me = mySeat() ?? 0;
    return {
      kind: kind(),
      name,
      game: game(),
      mySeat: mySeat(),
      n,
      labels: r.labels,
      values: r.values,
      view: view(),
      msg: S.msg,
      legal: S.msg && !S.msg.over ? S.msg.legal || [] : [],
      send,
      busy: S.busy,
      showLast: S.showLast,
      ui: S.ui,
      rerender: () => {
        S.panelKey = null;
        render();
      },
      seatAngle: (seat) => seatAngle((seat - me + n) % n, n),
    };
  }

  // -- data ---------------------------------------------------------------------------------

  async function loadInfo() {
    try {
      setInfo(await api.table(tableId));
    } catch (e) {
      if (e.status === 404 || e.status === 422) {
        S.stopped = true;
        replace(root, h("div.panel.center-msg",
          h("h2", "Table introuvable"),
          h("p", `La table ${tableId} n'existe pas (ou plus).`),
          h("a.btn.primary", { href: "#/" }, "Retour au salon")));
        return;
      }
      toastError(e);
    }
    render();
  }

  function setInfo(info) {
    if (!info) return;
    if (S.gameNo != null && info.game_no !== S.gameNo) {
      // a rematch: a new game at the same table
      S.log = [];
      S.logShown = -1;
      S.selected = null;
      S.multi = [];
      S.closedOverlay = null;
      S.notice = null;
      S.ui = {};
    }
    S.gameNo = info.game_no;
    S.info = info;
  }

  // The socket pushes every change; a slow poll only covers a socket that is down.
  function schedulePoll() {
    clearTimeout(S.poll);
    if (S.stopped) return;
    S.poll = setTimeout(async () => {
      if (!socket.ready) await loadInfo();
      schedulePoll();
    }, POLL_MS);
  }

  function onState(msg, { repeat }) {
    if (String(tableIdOf(msg)) !== String(tableId)) return;
    setInfo(infoOf(msg));
    S.msg = msg;
    if (!repeat && Array.isArray(msg.events) && msg.events.length) {
      const c = ctx();
      c.formatters = rendererFor(game()).formatters;
      for (const e of withoutPublicTwins(msg.events)) {
        const text = describeEvent(e, c);
        if (text) S.log.push({ seq: ++S.logSeq, text, type: e.type, mine: e.seat != null && e.seat === mySeat() });
        if (e.type === "player_left" && e.replaced_by === "bot") S.replaced[e.seat] = e.name ?? name(e.seat);
        if (e.type === "player_joined") delete S.replaced[e.seat];
        if (noticeWorthy(e) && text) notify(text, e.type);
      }
      if (S.log.length > LOG_MAX) S.log.splice(0, S.log.length - LOG_MAX);
    }
    // a selection that is no longer legal is dropped
    const model = analyse(msg.legal, msg.view?.hand);
    if (S.selected && !model.byCard.has(S.selected)) S.selected = null;
    if (S.multi.length && !model.multi.length) S.multi = [];
    pendingSeen(msg);
    render();
  }

  /** A move the table made for someone, a seat a robot took over: a line in the log, and for
   * a few seconds a notice on the felt, where the eyes are. */
  function notify(text, type) {
    clearTimeout(S.notice?.timer);
    const notice = { text, type, timer: null };
    notice.timer = setTimeout(() => {
      if (S.notice !== notice) return;
      S.notice = null;
      render();
    }, NOTICE_MS);
    S.notice = notice;
  }

  // Busy from the click until the state that follows the move is on screen: the server acks
  // first and broadcasts next, and between the two the old controls must not be clicked again.
  const SETTLE_MS = 4000;

  function settle() {
    clearTimeout(S.pending?.timer);
    S.pending = null;
    S.busy = false;
    panel.classList.remove("busy");
    S.panelKey = null;
    render();
  }

  function send(action) {
    if (S.busy) return;
    S.busy = true;
    const pending = { from: S.msg?.version ?? null, game: S.gameNo, acked: false, seen: false, timer: null };
    S.pending = pending;
    panel.classList.add("busy");
    page.dataset.busy = "1";
    socket.act(tableId, action)
      .then(() => {
        if (S.pending !== pending) return;
        S.selected = null;
        S.multi = [];
        pending.acked = true;
        if (pending.seen) {
          settle();
          return;
        }
        // the state normally follows the ack at once; if it got lost, ask for it
        pending.timer = setTimeout(() => {
          if (S.pending !== pending) return;
          socket.sync(tableId);
          settle();
        }, SETTLE_MS);
        render();
      })
      .catch((err) => {
        if (S.pending !== pending) return;
        S.refused += 1;
        toastError(err);
        settle();
      });
  }

  /** Called with every state: the move sent is on screen once a newer state is. */
  function pendingSeen(msg) {
    const p = S.pending;
    if (!p) return;
    if (S.gameNo !== p.game || p.from == null || msg.version > p.from) {
      p.seen = true;
      if (p.acked) settle();
    }
  }

  // -- rendering ----------------------------------------------------------------------------

  function render() {
    if (S.stopped) return;
    const v = view();
    page.classList.toggle("spectator", mySeat() == null);
    const r = rendererFor(game());
    if (game()) page.dataset.game = game();
    // plain facts for tests and the curious: which state is on screen
    page.dataset.version = S.msg ? String(S.msg.version) : "";
    page.dataset.phase = v?.phase ?? S.info?.status ?? "";
    page.dataset.over = S.msg?.over ? "1" : "0";
    page.dataset.mine = S.msg && !S.msg.over && (S.msg.legal || []).length ? "1" : "0";
    page.dataset.seat = mySeat() == null ? "" : String(mySeat());
    page.dataset.toAct = S.msg && !S.msg.over ? (S.msg.to_act || []).join(",") : "";
    page.dataset.busy = S.busy ? "1" : "0";
    page.dataset.refused = String(S.refused);
    page.dataset.tricks = Array.isArray(v?.tricks_won) ? String(v.tricks_won.reduce((a, b) => a + b, 0)) : "";
    page.dataset.closed = closedBy(S.msg) ? "1" : "0";
    if (!v) {
      if (closedBy(S.msg)) renderClosedWaiting(r);
      else renderWaiting(r);
      return;
    }
    renderFelt(r);
    renderMe(r);
    renderSide(r);
    renderOverlay();
  }

  function closedPanel() {
    const out = closedBy(S.msg);
    const reason = closeReason(out);
    return h("div.result.panel.closed", { id: "closed", role: "dialog", "aria-label": "table fermée" },
      h("h2", "Table fermée par l'administration"),
      h("p", "La partie s'arrête ici, sans vainqueur : on ne peut plus jouer à cette table."),
      reason ? h("p.reason", "Motif : ", h("em", `« ${reason} »`)) : null,
      h("div.row",
        S.msg?.view ? h("button.btn", { type: "button", id: "close-result", onclick: () => { S.closedOverlay = S.gameNo; overlay.hidden = true; } }, "Voir la table") : null,
        h("a.btn.primary", { href: "#/" }, "Retour au salon")));
  }

  /** A table closed before it started: no game to show, only why. */
  function renderClosedWaiting(r) {
    replace(felt, header(), h("div.waiting", closedPanel()));
    panel.replaceChildren();
    hand.replaceChildren();
    S.handKey = null;
    S.statusKey = null;
    replace(status, h("span", "Table fermée par l'administration."));
    overlay.hidden = true;
    renderSide(r);
  }

  function header(extra) {
    const v = view();
    const bits = [h("strong", S.info?.title || gameTitle(game()) || "")];
    if (v?.deal != null) bits.push(h("span", `donne ${v.deal}${v.deals ? `/${v.deals}` : ""}`));
    if (v?.phase) bits.push(h("span.phase", phaseLabel(v.phase)));
    if (S.info?.turn_seconds) bits.push(h("span.muted-light", `${S.info.turn_seconds} s par coup`));
    if (S.info && mySeat() == null) bits.push(h("span.badge.spect", "spectateur"));
    if (S.notice) bits.push(h("span.felt-notice", { id: "notice", role: "status", dataset: { type: S.notice.type } }, S.notice.text));
    return h("div.felt-head", bits, extra);
  }

  function renderWaiting(r) {
    const all = seats();
    const me = mySeat();
    const st = S.info?.status;
    const isCreator = S.info?.creator && String(S.info.creator.id) === String(player.id);
    const empty = all.filter((s) => s.kind === "empty").length;
    const rows = all.map((s) =>
      h("li", { class: `wait-seat ${s.kind}`, dataset: { seat: s.seat } },
        h("span.sn", `Place ${s.seat + 1}`),
        h("span.nm", s.kind === "empty" ? "libre" : [s.kind === "bot" ? botIcon() : null, `${s.name || name(s.seat)}${s.seat === me ? " (vous)" : ""}`]),
        s.kind === "player" && s.seat !== me ? h("span.conn-dot", { class: s.connected ? "on" : "off", title: s.connected ? "connecté" : "absent" }) : null,
        s.kind === "empty" && me == null && st === "waiting"
          ? h("button.btn.small.primary", { type: "button", dataset: { joinSeat: s.seat }, onclick: () => doJoin(s.seat) }, "S'asseoir ici")
          : null),
    );
    const buttons = [];
    if (me != null && st === "waiting") buttons.push(h("button.btn", { type: "button", id: "leave", onclick: doLeave }, "Quitter la table"));
    if (isCreator && st === "waiting" && empty) {
      buttons.push(h("button.btn.primary", { type: "button", id: "start-bots", onclick: () => doStart(true) }, "Démarrer avec des robots"));
    }
    const link = `${location.origin}${location.pathname}#/table/${tableId}`;
    replace(felt,
      header(),
      h("div.waiting.panel",
        h("h2", st === "waiting" ? "En attente des joueurs" : "Connexion à la table…"),
        S.info ? h("p.muted", `${S.info.title || gameTitle(S.info.game)} · ${S.info.players} joueurs · ${S.info.turn_seconds ? `${S.info.turn_seconds} s par coup` : "sans minuteur"}`) : null,
        h("ul.wait-seats", rows),
        st === "waiting" && empty ? h("p.muted.small", `La partie commence dès que ${empty === 1 ? "la dernière place est prise" : `les ${empty} places libres sont prises`}.`) : null,
        h("div.row", buttons),
        st === "waiting" ? h("p.muted.small", "Invitez vos amis avec ce lien : ", h("code", link)) : null));
    panel.replaceChildren();
    hand.replaceChildren();
    S.handKey = null;
    S.statusKey = null;
    status.replaceChildren();
    overlay.hidden = true;
    renderSide(r);
  }

  async function doJoin(seat) {
    try {
      setInfo(await api.join(tableId, seat));
      // the socket's subscription was a spectator's: subscribe again to get this seat's view
      socket.subscribe(tableId);
      render();
    } catch (e) {
      toastError(e);
    }
  }

  async function doLeave() {
    try {
      await api.leave(tableId);
      location.hash = "#/";
    } catch (e) {
      toastError(e);
    }
  }

  async function doStart(fill) {
    try {
      setInfo(await api.start(tableId, fill));
      render();
    } catch (e) {
      toastError(e);
    }
  }

  function deadlineBar(deadline, big = false) {
    if (!deadline) return null;
    const end = Date.parse(deadline);
    if (Number.isNaN(end)) return null;
    const total = (S.info?.turn_seconds ?? 30) * 1000;
    const left = Math.max(0, end - Date.now());
    const fill = h("span.fill", { style: { width: `${Math.min(100, (left / total) * 100)}%` } });
    const secs = h("span.secs", { dataset: { end: String(end) } }, `${Math.ceil(left / 1000)} s`);
    const bar = h(`span.timer${big ? ".big" : ""}`, { title: "temps restant" }, fill);
    requestAnimationFrame(() => requestAnimationFrame(() => {
      fill.style.transition = `width ${left}ms linear`;
      fill.style.width = "0%";
    }));
    if (left < 5000) bar.classList.add("hurry");
    else setTimeout(() => bar.classList.add("hurry"), left - 5000);
    return big ? h("span.timer-wrap", bar, secs) : bar;
  }

  function seatBadge(seat, r) {
    const v = view();
    const s = seats()[seat] || {};
    const toAct = !S.msg.over && (S.msg.to_act || []).includes(seat);
    const classes = ["seat"];
    if (toAct) classes.push("to-act");
    if (seat === mySeat()) classes.push("me");
    if (s.kind === "bot") classes.push("bot");
    if (s.kind === "player" && s.connected === false) classes.push("away");
    const team = r.team?.(v, seat);
    if (team != null) classes.push(`team-${team}`);
    const count = Array.isArray(v.counts) ? v.counts[seat] : null;
    const bits = [
      h("div.seat-name",
        s.kind === "bot" ? botIcon() : h("span.dot", { title: s.connected === false ? "absent" : "connecté" }),
        h("span.nm", name(seat)),
        v.dealer === seat ? h("span.chip.dealer", { title: "donneur" }, "D") : null),
    ];
    const facts = [];
    if (count != null) {
      facts.push(h("span.count", { title: `${count} carte${count > 1 ? "s" : ""} en main` }, backEl(kind(), { small: true }), `${count}`));
    }
    if (Array.isArray(v.tricks_won)) facts.push(h("span.tricks", { title: "plis remportés" }, `${v.tricks_won[seat]} pli${v.tricks_won[seat] > 1 ? "s" : ""}`));
    if (team != null) facts.push(h("span.team", r.teamName(team, ctx())));
    for (const extra of r.seatExtras?.(v, seat, ctx()) || []) facts.push(extra);
    if (s.kind === "bot" && S.replaced[seat]) facts.push(h("span.tag.replaced", { title: `${S.replaced[seat]} a quitté la table` }, `remplace ${S.replaced[seat]}`));
    bits.push(h("div.seat-facts", facts));
    const bubble = r.bubble?.(v, seat, ctx());
    if (bubble) bits.push(h("div.bubble", bubble));
    if (toAct) bits.push(deadlineBar(S.msg.deadline));
    return h("div", { class: classes.join(" "), dataset: { seat } }, bits);
  }

  function renderFelt(r) {
    const v = view();
    const n = nSeats();
    const me = mySeat() ?? 0;
    const c = ctx();
    const lastBtn = v.last_trick
      ? h("button.btn.ghost.small.lastbtn", { type: "button", id: "last-trick-btn", "aria-pressed": S.showLast ? "true" : "false", onclick: () => { S.showLast = !S.showLast; render(); } }, S.showLast ? "masquer le dernier pli" : "dernier pli")
      : null;
    const chips = r.chips?.(v, c);
    const layer = h("div.seats");
    for (let seat = 0; seat < n; seat++) {
      const rel = (seat - me + n) % n;
      const a = seatAngle(rel, n);
      const badge = seatBadge(seat, r);
      badge.style.left = `${50 + 43 * Math.cos(a)}%`;
      badge.style.top = `${50 + 42 * Math.sin(a)}%`;
      const pos = rel === 0 ? "bottom" : Math.abs(Math.cos(a)) < 0.35 ? (Math.sin(a) < 0 ? "top" : "bottom") : Math.cos(a) > 0 ? "right" : "left";
      badge.classList.add(`pos-${pos}`);
      layer.append(badge);
    }
    const center = h("div.center", r.center(v, c));
    replace(felt, header(lastBtn), chips ? h("div.info-chips", chips) : null, h("div.table-surface", center, layer));
  }

  function renderMe(r) {
    const v = view();
    const msg = S.msg;
    const me = mySeat();
    const legal = msg.over ? [] : msg.legal || [];
    const model = analyse(legal, v.hand);
    const c = ctx();
    const toAct = msg.over ? [] : msg.to_act || [];
    const myTurn = me != null && toAct.includes(me) && legal.length > 0;
    let text;
    if (closedBy(msg)) text = "Table fermée par l'administration.";
    else if (msg.over) text = "Partie terminée.";
    else if (myTurn) text = r.prompt?.(v, legal, c) || "À vous de jouer !";
    else if (legal.length) text = "Vous pouvez intervenir.";
    else if (toAct.length) text = `${toAct.map(name).join(", ")} ${toAct.length > 1 ? "réfléchissent" : "réfléchit"}…`;
    else text = "";
    // A live region: drawn again only when what it says changes, so a screen reader says each
    // turn once (and the seconds ticking by never).
    const statusKey = JSON.stringify([text, myTurn ? msg.deadline : null]);
    if (statusKey !== S.statusKey) {
      S.statusKey = statusKey;
      // The others' turns are for the eyes only: said aloud, each robot's move would drown what
      // concerns the player (their turn, the time left, the end).
      const forMe = closedBy(msg) || msg.over || legal.length > 0;
      replace(status, h("span", { "aria-hidden": forMe ? null : "true" }, text), myTurn ? timeLeft(msg.deadline) : null);
    }
    status.classList.toggle("mine", legal.length > 0);
    keepFocus();

    // The panel is rebuilt only when something it shows changed, so a half-made choice (a bid
    // value picked, a suit to come) survives other players' moves.
    const key = JSON.stringify([legal, S.selected, S.multi, v.hand, S.busy, S.oneClick, S.ui]);
    if (key !== S.panelKey) {
      S.panelKey = key;
      const controls = [];
      if (S.selected && model.byCard.has(S.selected)) {
        controls.push(cardControls(S.selected, model.byCard.get(S.selected), c, send));
      } else if (model.byCard.size && !model.multi.length) {
        controls.push(h("div.group.hint", S.oneClick ? "Cliquez sur une carte pour la jouer." : "Choisissez une carte, puis confirmez."));
      }
      if (model.multi.length) controls.push(multiControls(model.multi, S.multi, c, send));
      const custom = r.panel?.(model, c);
      if (custom) controls.push(custom);
      else controls.push(...otherControls(model.others, c, send));
      replace(panel, controls);
    }

    if (me == null || v.hand == null) {
      replace(hand, h("p.muted.spectator-note", "Vous regardez la partie : les mains restent cachées."));
      hand.classList.add("spect");
      S.handKey = null;
      return;
    }
    hand.classList.remove("spect");
    const custom = r.hand?.(v, c, model);
    if (custom) {
      replace(hand, custom);
      S.handKey = null;
      restoreFocus();
      return;
    }
    // The hand too is drawn again only when it changed: the card a keyboard is on stays put
    // while the others play.
    const handKey = JSON.stringify([legal, v.hand, S.selected, S.multi, S.oneClick]);
    if (handKey === S.handKey) {
      restoreFocus();
      return;
    }
    S.handKey = handKey;
    hand.setAttribute("aria-label", `Votre main : ${v.hand.length} carte${v.hand.length > 1 ? "s" : ""}`);
    const candidates = model.multi.length ? multiCandidates(model.multi, S.multi) : new Set();
    const anyCard = model.byCard.size > 0 || model.multi.length > 0;
    const picked = [...S.multi];
    let selectedShown = false;
    const cards = v.hand.map((code) => {
      let selected = false;
      if (S.selected === code && !selectedShown) {
        selected = true;
        selectedShown = true;
      }
      const mi = picked.indexOf(code);
      if (mi >= 0) {
        selected = true;
        picked.splice(mi, 1);
      }
      const playable = model.byCard.has(code) || candidates.has(code) || selected;
      const multiMode = model.multi.length > 0 && (!model.byCard.has(code) || S.multi.length > 0);
      return cardEl(code, kind(), {
        playable,
        dimmed: anyCard && !playable,
        selected,
        button: true,
        label: playable ? cardLabel(code, model.byCard.get(code), multiMode, c) : undefined,
        pressed: playable && (multiMode || S.selected === code) ? String(selected) : undefined,
        onclick: playable ? (ev) => clickCard(code, model, selected, ev) : undefined,
      });
    });
    replace(hand, cards);
    fitHand();
    restoreFocus();
  }

  /** What a card of the hand does, said in full: "Jouer le 10 de cœur", "Écarter le roi de
   * pique"; a card with variants (a colour to choose) ends in "…". */
  function cardLabel(code, actions, multiMode, c) {
    const name = cardNameWithArticle(code, kind());
    if (multiMode || !actions?.length) return `Choisir ${name}`;
    if (actions.length > 1) return `${typeLabel(actions[0].type, c)} ${name}…`;
    const a = actions[0];
    const extra = fieldsOf(a).filter((k) => k !== "card").map((k) => fieldText(k, a[k], c));
    return [typeLabel(a.type, c), name, ...extra].join(" ");
  }

  /** The time left said once in words (the bar and the seconds are for the eyes), and once more
   * when five seconds are left. */
  function timeLeft(deadline) {
    const bar = deadlineBar(deadline, true);
    if (!bar) return null;
    bar.setAttribute("aria-hidden", "true");
    const left = Math.max(0, Date.parse(deadline) - Date.now());
    const said = h("span.sr-only", `Il vous reste ${Math.ceil(left / 1000)} secondes.`);
    if (left > 5000) {
      setTimeout(() => {
        if (said.isConnected) said.textContent = "Plus que 5 secondes !";
      }, left - 5000);
    }
    return [said, bar];
  }

  // The keyboard's place in the controls: where it was when they are drawn anew (the same card,
  // else the one at the same place, else the first control), once they are there again.
  function keepFocus() {
    const a = document.activeElement;
    if (!a || a === document.body || !a.isConnected) return;
    if (hand.contains(a)) {
      S.focus = { zone: "hand", card: a.dataset.card, index: [...hand.querySelectorAll(".card")].indexOf(a) };
    } else if (panel.contains(a)) {
      S.focus = { zone: "panel", action: a.dataset.action };
    } else {
      S.focus = null;
    }
  }

  function restoreFocus() {
    const want = S.focus;
    if (!want || !S.keyboard) return;
    const a = document.activeElement;
    if (a && a !== document.body && a.isConnected) return;
    const cards = [...hand.querySelectorAll("button.card:not(:disabled)")];
    const buttons = [...panel.querySelectorAll("button:not(:disabled)")];
    let target;
    if (S.focusNext === "panel" || want.zone === "panel") {
      target = (want.action && buttons.find((b) => b.dataset.action === want.action)) || buttons[0] || cards[0];
    } else {
      target = cards.find((el) => el.dataset.card === want.card) || cards[Math.min(want.index, cards.length - 1)] || buttons[0];
    }
    if (target) {
      S.focusNext = null;
      target.focus();
    }
  }

  function clickCard(code, model, selected, ev) {
    if (S.busy) return;
    // Enter or Space on a card (a click of detail 0) plays it: a keyboard has no second click
    // to confirm with, and the confirm button sits above the hand.
    const keyboard = ev?.detail === 0;
    const single = model.byCard.get(code);
    if (model.multi.length && (!single || S.multi.length)) {
      if (selected) S.multi.splice(S.multi.lastIndexOf(code), 1);
      else S.multi.push(code);
      render();
      return;
    }
    if (!single) return;
    if (S.selected === code) {
      // a second click on the selected card confirms it, when there is nothing else to choose
      if (single.length === 1) send(single[0]);
      else {
        S.selected = null;
        render();
      }
      return;
    }
    if ((S.oneClick || keyboard) && single.length === 1) {
      send(single[0]);
      return;
    }
    S.selected = code;
    // the variants (a colour) are buttons of the panel: the keyboard goes there
    if (keyboard) S.focusNext = "panel";
    render();
  }

  /** Cards overlap to fit the width, each showing a strip wide enough for a finger (28 px at
   * least); a hand too big for one row takes as many rows as it needs, of equal length. */
  function fitHand() {
    for (const br of hand.querySelectorAll(":scope > .hand-break")) br.remove();
    const cards = [...hand.querySelectorAll(":scope > .card")];
    if (!cards.length) return;
    const style = getComputedStyle(hand);
    // a pixel spare: rounded overlaps must never push a row's last card onto the next row
    const width = hand.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 2;
    const cw = cards[0].offsetWidth || 60;
    const strip = Math.max(28, cw * 0.5);
    const n = cards.length;
    const fits = Math.max(1, Math.floor((width - cw) / strip) + 1);
    const rows = Math.ceil(n / fits);
    const perRow = Math.ceil(n / rows);
    const gap = perRow > 1 ? Math.min(6, Math.floor(((width - perRow * cw) / (perRow - 1)) * 10) / 10) : 0;
    cards.forEach((el, i) => {
      const first = i % perRow === 0;
      el.style.marginLeft = first ? "0" : `${gap}px`;
      if (first && i > 0) el.before(h("span.hand-break", { "aria-hidden": "true" }));
    });
    hand.classList.toggle("tight", gap < 0);
    hand.classList.toggle("two-rows", rows > 1);
  }

  function renderSide(r) {
    const v = view();
    const n = nSeats();
    const me = mySeat();
    const wins = S.info?.wins;
    const showWins = Array.isArray(wins) && wins.some((w) => w > 0);
    const teamTotals = v && r.teamScores?.(v);
    if (v && r.scoresFrom === "wins") {
      replace(scores, h("h3", "Victoires à cette table"), h("table.sheet", h("tbody",
        seats().map((s, i) => h("tr", { class: i === me ? "me" : "" }, h("td", name(i)), h("td.num", String(wins?.[i] ?? 0)))))));
    } else if (Array.isArray(teamTotals)) {
      replace(scores, h("h3", v.target ? `Scores (partie en ${v.target})` : "Scores"), h("table.sheet", h("tbody",
        teamTotals.map((sc, i) => h("tr", { class: me != null && me % 2 === i ? "me" : "" }, h("td", r.teamName(i, ctx())), h("td.num", String(sc)))))));
    } else if (v && Array.isArray(v.scores)) {
      const rows = v.scores.map((sc, i) =>
        h("tr", { class: i === me ? "me" : "" },
          h("td", name(i)),
          h("td.num", String(sc)),
          showWins ? h("td.num.wins", { title: "parties gagnées à cette table" }, `${wins[i]} `, trophyIcon()) : null));
      replace(scores, h("h3", r.scoresTitle || "Scores"), h("table.sheet", h("tbody", rows)));
    } else {
      replace(scores, h("h3", "Joueurs"), h("ul.plain", seats().map((s) => h("li", s.kind === "bot" ? botIcon() : null, s.kind === "empty" ? "place libre" : name(s.seat)))));
    }
    const hist = v && (v.sheet ?? v.history);
    if (Array.isArray(hist) && hist.length) {
      replace(sheet, h("h3", "Feuille de marque"), sheetTable(hist, r, v));
      sheet.hidden = false;
    } else {
      sheet.hidden = true;
    }
    renderLog();
  }

  /** Only the new lines are added (a live region says what is added: the whole list drawn
   * again would be read again). */
  function renderLog() {
    if (S.logShown < 0) {
      logList.replaceChildren();
      S.logShown = 0;
    }
    const fresh = S.log.filter((l) => l.seq > S.logShown).slice(-LOG_SHOWN);
    if (!fresh.length) return;
    logList.append(...fresh.map((l) => h("li", { class: `ev-${l.type}${l.mine ? " mine" : ""}`, dataset: { seq: l.seq } }, l.text)));
    S.logShown = fresh[fresh.length - 1].seq;
    while (logList.children.length > LOG_SHOWN) logList.firstElementChild.remove();
    logList.scrollTop = logList.scrollHeight;
  }

  function sheetTable(hist, r, v) {
    const custom = r.sheet?.(hist, v, ctx());
    if (custom) return custom;
    const rowsOf = (row) => (Array.isArray(row) ? row : row.scores ?? row.points ?? row.deltas ?? []);
    const width = Math.max(...hist.map((row) => rowsOf(row).length));
    const teams = width !== nSeats();
    const head = [h("th", "#")];
    for (let i = 0; i < width; i++) head.push(h("th", teams ? r.teamName(i, ctx()) : name(i)));
    const body = hist.map((row, k) =>
      h("tr", h("td", r.rowLabel?.(row, k, ctx()) ?? String(row.deal ?? k + 1)), rowsOf(row).map((x) => h("td.num", x == null ? "" : String(x)))));
    return h("div.sheet-scroll", h("table.sheet", h("thead", h("tr", head)), h("tbody", body)));
  }

  function renderOverlay() {
    const msg = S.msg;
    if (!msg.over) {
      overlay.hidden = true;
      return;
    }
    if (S.closedOverlay === S.gameNo) {
      overlay.hidden = true;
      return;
    }
    if (closedBy(msg)) {
      // the server refuses a rematch at a closed table: none is offered
      overlay.hidden = false;
      replace(overlay, closedPanel());
      return;
    }
    const out = msg.outcome || {};
    const winners = out.winners || [];
    const outScores = out.scores || [];
    const me = mySeat();
    const won = me != null && winners.includes(me);
    const votes = S.info?.rematch_votes || [];
    const voted = me != null && votes.includes(me);
    const humans = seats().filter((s) => s.kind === "player").length;
    const rows = outScores.map((sc, i) =>
      h("tr", { class: winners.includes(i) ? "win" : "" }, h("td", name(i)), h("td.num", String(sc)), h("td", winners.includes(i) ? "vainqueur" : "")));
    overlay.hidden = false;
    replace(overlay, h("div.result.panel", { role: "dialog", "aria-label": "fin de partie" },
      h("h2", me == null ? "Partie terminée" : won ? "Gagné !" : "Partie terminée"),
      h("p.winners", winners.length ? `${winners.length > 1 ? "Vainqueurs" : "Vainqueur"} : ${winners.map(name).join(", ")}` : "Pas de vainqueur."),
      rows.length ? h("table.sheet", h("tbody", rows)) : null,
      votes.length ? h("p.muted", `Revanche : ${votes.length}/${humans} joueur${humans > 1 ? "s" : ""} d'accord (${votes.map(name).join(", ")}).`) : null,
      h("div.row",
        me != null ? h("button.btn.primary", {
          type: "button",
          id: "rematch",
          disabled: voted,
          onclick: async (ev) => {
            ev.target.disabled = true;
            try {
              setInfo(await api.rematch(tableId));
              render();
            } catch (e) {
              ev.target.disabled = false;
              toastError(e);
            }
          },
        }, voted ? "Revanche demandée…" : "Revanche") : null,
        h("button.btn", { type: "button", id: "close-result", onclick: () => { S.closedOverlay = S.gameNo; overlay.hidden = true; } }, "Voir la table"),
        h("a.btn", { href: "#/" }, "Retour au salon"))));
  }

  // -- wiring -------------------------------------------------------------------------------

  const onResize = () => fitHand();
  window.addEventListener("resize", onResize);
  // the focus is put back after a redraw for a keyboard only: a finger or a mouse is left alone
  const onKey = (ev) => {
    if (ev.key === "Tab" || ev.key === "Enter" || ev.key === " " || ev.key.startsWith("Arrow")) S.keyboard = true;
  };
  const onPointer = () => {
    S.keyboard = false;
  };
  window.addEventListener("keydown", onKey, true);
  window.addEventListener("pointerdown", onPointer, true);
  const ticker = setInterval(() => {
    for (const el of page.querySelectorAll(".secs[data-end]")) {
      el.textContent = `${Math.max(0, Math.ceil((Number(el.dataset.end) - Date.now()) / 1000))} s`;
    }
  }, 250);
  loadGames().catch(() => {});
  socket.subscribe(tableId);
  loadInfo().then(schedulePoll);

  return {
    onState,
    onConn(state) {
      page.classList.toggle("offline", state !== "open");
    },
    onSocketError(msg) {
      if (msg.code === "unknown_table") return;
      toastError(msg);
    },
    leave() {
      S.stopped = true;
      clearTimeout(S.poll);
      window.removeEventListener("resize", onResize);
      window.removeEventListener("keydown", onKey, true);
      window.removeEventListener("pointerdown", onPointer, true);
      clearInterval(ticker);
      socket.unsubscribe(tableId);
    },
  };
}
