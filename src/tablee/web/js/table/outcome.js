// The end of a game: the outcome (winners, scores, the rematch vote), or why an admin closed the
// table; a dialog over the play area that can be put away to look at the table.

import { h } from "../dom.js";
import { dealEndPanel } from "./dealend.js";
import { closeReason, closedBy, closedTitle } from "./scene.js";

/** The panel of a table an admin closed. `onHide`: "Voir la table" (only once there is one). */
export function closedPanel(scene, { onHide } = {}) {
  const closed = closedBy(scene.msg);
  const reason = closeReason(closed);
  return h("div.result.panel.closed", { id: "closed", role: "dialog", "aria-label": "table fermée" },
    h("h2", closedTitle(closed)),
    h("p", "La partie s'arrête ici, sans vainqueur : on ne peut plus jouer à cette table."),
    reason ? h("p.reason", "Motif : ", h("em", `« ${reason} »`)) : null,
    h("div.row",
      scene.msg?.view ? h("button.btn", { type: "button", id: "close-result", onclick: onHide }, "Voir la table") : null,
      h("a.btn.primary", { href: "#/" }, "Retour au salon")));
}

/** The outcome of a game that ended. `onRematch(ev)`: the viewer's vote; `onHide`: "Voir la
 * table". */
export function outcomePanel(scene, { onRematch, onHide } = {}) {
  const { msg, name } = scene;
  const out = msg.outcome || {};
  const winners = out.winners || [];
  const outScores = out.scores || [];
  const me = scene.mySeat;
  const won = me != null && winners.includes(me);
  const votes = scene.info?.rematch_votes || [];
  const voted = me != null && votes.includes(me);
  const humans = scene.seats.filter((s) => s.kind === "player").length;
  const rows = outScores.map((sc, i) =>
    h("tr", { class: winners.includes(i) ? "win" : "" }, h("td", name(i)), h("td.num", String(sc)), h("td", winners.includes(i) ? "vainqueur" : "")));
  return h("div.result.panel", { role: "dialog", "aria-label": "fin de partie" },
    h("h2", me == null ? "Partie terminée" : won ? "Gagné !" : "Partie terminée"),
    h("p.winners", winners.length ? `${winners.length > 1 ? "Vainqueurs" : "Vainqueur"} : ${winners.map(name).join(", ")}` : "Pas de vainqueur."),
    rows.length ? h("table.sheet", h("tbody", rows)) : null,
    scene.dealEnd ? dealEndPanel(scene.dealEnd, scene, { full: true }) : null,
    votes.length ? h("p.muted", `Revanche : ${votes.length}/${humans} joueur${humans > 1 ? "s" : ""} d'accord (${votes.map(name).join(", ")}).`) : null,
    h("div.row",
      me != null ? h("button.btn.primary", { type: "button", id: "rematch", disabled: voted, onclick: onRematch }, voted ? "Revanche demandée…" : "Revanche") : null,
      h("button.btn", { type: "button", id: "close-result", onclick: onHide }, "Voir la table"),
      scene.info ? h("a.btn", { id: "replay-link", href: `#/replay/${scene.info.id}/${scene.info.game_no}${scene.info.invitation ? `?invitation=${encodeURIComponent(scene.info.invitation)}` : ""}` }, "Revoir la partie") : null,
      h("a.btn", { href: "#/" }, "Retour au salon")));
}
