// What every part of the table is drawn from: a scene, made from the page's state by one pure
// function. It is also the context a game's renderer receives (js/games/*.js: `name`, `kind`,
// `view`, `legal`, `send`, `ui`, `rerender`, `seatAngle`...), so a game plugs into every part
// of the table through the same object.

import { deckKind } from "../cards.js";
import { rendererFor } from "../games.js";
import { mySeat as mySeatIn, seatsOf } from "../lobby.js";

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

/** The outcome says an admin closed the table (docs/admin.md): no winner, no rematch. */
export function closedBy(msg) {
  return msg?.over && msg.outcome?.closed ? msg.outcome : null;
}

/** "Table fermée par l'administration", or "Table fermée" when the server closed it itself
 * (every person left; a waiting table nobody came to). */
export function closedTitle(outcome) {
  return outcome?.by === "server" ? "Table fermée" : "Table fermée par l'administration";
}

/** An admin's reason, unless it is the server's default (which says nothing more). */
export function closeReason(outcome) {
  const reason = outcome?.reason;
  return reason && reason !== "closed by an admin" ? reason : null;
}

/** A seat's name: the person's, else "Robot 2" ("Robot 2 confirmé" at that level) or "Place 2". */
export function seatName(seats, seat) {
  if (seat == null) return "?";
  const s = seats[seat];
  if (s?.name) return s.name;
  if (s?.kind !== "bot") return `Place ${seat + 1}`;
  return s.level === "confirme" ? `Robot ${seat + 1} confirmé` : `Robot ${seat + 1}`;
}

/**
 * The scene of state `S` for `player`. `send` and `rerender` are the two things a game's own
 * controls may do: send an action, draw again after changing `ui` (its half-made choice).
 */
export function sceneOf(S, { player, send = () => {}, rerender = () => {} } = {}) {
  const info = S.info;
  const msg = S.msg;
  const view = msg?.view ?? null;
  const game = view?.game ?? info?.game;
  const seats = info ? seatsOf(info) : [];
  const n = view?.players ?? info?.players ?? seats.length;
  const mySeat = view && view.seat !== undefined ? view.seat : info ? mySeatIn(info, player) : null;
  const renderer = rendererFor(game);
  const live = Boolean(msg && !msg.over);
  const me = mySeat ?? 0;
  return {
    kind: deckKind(game),
    // read when called: a control drawn earlier names the seats as they are now
    name: (seat) => seatName(S.info ? seatsOf(S.info) : [], seat),
    game,
    mySeat,
    n,
    labels: renderer.labels,
    values: renderer.values,
    view,
    msg,
    legal: live ? msg.legal || [] : [],
    send,
    busy: S.busy,
    showLast: S.showLast,
    held: S.held ?? null,
    dealEnd: S.dealEnd ?? null,
    ui: S.ui,
    rerender,
    seatAngle: (seat) => seatAngle((seat - me + n) % n, n),
    // the table's own parts also read these
    info,
    seats,
    renderer,
    toAct: live ? msg.to_act || [] : [],
  };
}
