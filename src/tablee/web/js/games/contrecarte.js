// Contrecarte: piles in the centre, the colour in force, the direction, "Carte !" and catches.

import { h } from "../dom.js";
import { colorName } from "../labels.js";
import { piles } from "../render.js";

const CC_ORDER = ["R", "G", "Y", "B"];

const REASONS = { "+2": "un +2", "+4": "un +4", contest: "la contestation", catch: "une prise en faute" };

export default {
  labels: {
    play: "Poser",
    draw: "Piocher",
    pass: "Garder la carte et passer",
    contest: "Contester le +4",
    accept: "Accepter le +4",
    announce: "Carte !",
    catch: "Attraper",
  },
  values: {
    announce: { true: "et dire « Carte ! »", false: "sans rien dire" },
  },
  scoresFrom: "wins",
  // The next seat is the one on the viewer's right (seats go counterclockwise on screen, as
  // at a French table): the normal direction turns ↺. The hand is grouped by colour (two
  // lighter colours apart), numbers before actions, the wild cards last.
  handOrder(code) {
    const colour = CC_ORDER.indexOf(code[0]);
    if (code[0] === "W" || colour < 0) return 1000 + code.length;
    const face = code.slice(1);
    const n = /^\d$/.test(face) ? Number(face) : 10 + ["+2", "S", "R"].indexOf(face);
    return colour * 100 + n;
  },
  chips(v, ctx) {
    const out = [];
    if (v.direction != null) out.push(h("span.info-chip", { id: "direction", title: "sens du jeu" }, v.direction > 0 ? "sens : ↺ normal" : "sens : ↻ inversé"));
    if (v.pending) out.push(h("span.info-chip.hot", `+4 de ${ctx.name(v.pending.poser)} pour ${ctx.name(v.pending.target)}`));
    return out;
  },
  seatExtras(v, seat) {
    const out = [];
    if ((v.announced || []).includes(seat)) out.push(h("span.tag.taker", "Carte !"));
    return out;
  },
  center(v, ctx) {
    return [piles(v, ctx)].filter(Boolean);
  },
  prompt(v, legal, ctx) {
    if (v.phase === "contest") return `${ctx.name(v.pending?.poser)} vous a posé un +4 : contester ou accepter ?`;
    if (v.phase === "drawn") return "Vous pouvez poser la carte piochée, ou la garder.";
    return null;
  },
  formatters: {
    draw: (e, c) => {
      if (Array.isArray(e.cards)) return `Vous piochez ${e.cards.map(c.card).join(", ")}.`;
      const n = e.count ?? 1;
      const why = REASONS[e.reason] ? ` (${REASONS[e.reason]})` : "";
      return `${c.who(e)} pioche ${n === 1 ? "une carte" : `${n} cartes`}${why}.`;
    },
    play: (e, c) => `${c.who(e)} pose ${c.card(e.card)}${e.color ? ` et choisit ${colorName(e.color)}` : ""}${e.announce ? " : « Carte ! »" : ""}.`,
    skip: (e, c) => `${c.who(e)} passe son tour.`,
    reverse: () => "Le sens du jeu s'inverse.",
    contest: (e, c) =>
      e.verdict === "illegal"
        ? `${c.who(e)} conteste : le +4 était illégal, ${c.name(e.poser)} pioche 4.`
        : `${c.who(e)} conteste, mais le +4 de ${c.name(e.poser)} était régulier : ${c.who(e)} pioche 6.`,
    accept: (e, c) => `${c.who(e)} accepte le +4 et pioche 4.`,
    catch: (e, c) =>
      e.caught
        ? `${c.who(e)} attrape ${c.name(e.target)}, qui n'avait pas dit « Carte ! » : il pioche 2.`
        : `${c.who(e)} accuse ${c.name(e.target)} à tort et pioche 2.`,
    deal_end: (e, c) => `${c.name(e.winner)} a posé sa dernière carte et gagne !`,
  },
};
