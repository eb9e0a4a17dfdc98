// Tarot: bidding, king call, chien and écart, poignées, chelem; scores shared per deal.

import { h } from "../dom.js";
import { cardEl } from "../cards.js";
import { cardRow, chip, lastTrickBox, trickArea } from "../render.js";

const CONTRACTS = { prise: "Prise", garde: "Garde", garde_sans: "Garde sans", garde_contre: "Garde contre", pass: "Passe" };
const LEVELS = { simple: "simple", double: "double", triple: "triple" };
const contractName = (c) => CONTRACTS[c] ?? String(c);

export default {
  labels: {
    bid: "Annoncer",
    discard: "Écarter",
    undo: "Reprendre la dernière carte écartée",
    call: "Appeler",
    chelem: "Annoncer un chelem",
    no_chelem: "Pas de chelem",
    poignee: "Montrer une poignée",
    deal: "Donne suivante",
  },
  team() {
    return null;
  },
  // suits of alternate colours (♠ ♥ ♣ ♦), then the trumps and the Excuse as the server sorts them
  handOrder(code) {
    if (code === "EX" || /^A\d+$/.test(code)) return 10;
    return "SHCD".indexOf(code[1]);
  },
  bubble(v, seat) {
    if (v.phase !== "bid" || !Array.isArray(v.bids)) return null;
    const mine = v.bids.filter((b) => b.seat === seat);
    return mine.length ? contractName(mine[mine.length - 1].contract) : null;
  },
  chips(v, ctx) {
    const out = [];
    if (v.taker != null) out.push(chip("Preneur :", `${ctx.name(v.taker)}, ${contractName(v.contract).toLowerCase()}`, { id: "contract" }));
    if (v.called) out.push(h("span.info-chip", { id: "called" }, "Appel : ", cardEl(v.called, ctx.kind, { small: true })));
    if (v.partner != null && v.taker != null) out.push(chip("", v.partner === v.taker ? "seul contre tous" : `partenaire : ${ctx.name(v.partner)}`));
    if (v.chelem) out.push(chip("", "chelem annoncé", { cls: "hot" }));
    return out;
  },
  seatExtras(v, seat) {
    const out = [];
    if (v.taker === seat) out.push(h("span.tag.taker", "preneur"));
    if (v.partner != null && v.partner === seat && v.partner !== v.taker) out.push(h("span.tag.partner", "partenaire"));
    const p = (v.poignees || []).find((x) => x.seat === seat);
    if (p) out.push(h("span.tag", `poignée ${LEVELS[p.level] ?? p.level}`));
    return out;
  },
  center(v, ctx) {
    const parts = [];
    // the chien is on the table until the taker takes it: once the écart is made it is gone
    if ((v.phase === "ecart" || v.phase === "call") && Array.isArray(v.chien) && v.chien.length) {
      parts.push(cardRow(v.chien, ctx, "Le chien", "chien"));
    }
    if (v.phase === "ecart" && v.taker === ctx.mySeat && Array.isArray(v.ecart)) {
      const missing = (v.chien_size ?? 0) - v.ecart.length;
      parts.push(h("div.card-row", { id: "ecart" },
        h("div.caption-line", `Votre écart : ${v.ecart.length}/${v.chien_size}${missing > 0 ? ` (encore ${missing})` : ""}`),
        h("div.row.tight", v.ecart.map((c) => cardEl(c, ctx.kind, { small: true })))));
    }
    if (v.phase === "end" || v.phase === "over") {
      if (v.result) parts.push(resultBox(v.result, ctx));
      // what the taker put aside counts for them: the écart (the chien itself, untouched, in a
      // garde sans or contre)
      if (Array.isArray(v.ecart) && v.ecart.length) parts.push(cardRow(v.ecart, ctx, `L'écart de ${ctx.name(v.taker)}`, "ecart"));
      else if (Array.isArray(v.chien) && v.chien.length) parts.push(cardRow(v.chien, ctx, "Le chien", "chien"));
    }
    if (v.phase === "play" || (v.trick && v.trick.length)) parts.push(trickArea(v.trick, ctx));
    const shown = (v.poignees || []).filter((p) => Array.isArray(p.cards) && p.cards.length);
    if (shown.length && v.phase === "play" && !(v.trick && v.trick.length)) {
      for (const p of shown) parts.push(cardRow(p.cards, ctx, `Poignée de ${ctx.name(p.seat)}`));
    }
    parts.push(lastTrickBox(v, ctx));
    return parts.filter(Boolean);
  },
  prompt(v, legal, ctx) {
    if (v.phase === "bid") return "À vous de parler : passer ou prendre ?";
    if (v.phase === "call") return "Appelez un roi (ou la carte que vous permettent vos rois).";
    if (v.phase === "ecart") {
      const left = (v.chien_size ?? 0) - (v.ecart?.length ?? 0);
      return `Faites votre écart : encore ${left} carte${left > 1 ? "s" : ""} à écarter.`;
    }
    if (v.phase === "chelem") return "Annoncez-vous un chelem ?";
    if (v.phase === "end") return "Donne terminée : distribuez la suivante.";
    if (legal.some((a) => a.type === "poignee")) return "À vous de jouer (vous pouvez montrer une poignée).";
    return null;
  },
  sheet(hist, v, ctx) {
    const n = ctx.n;
    const head = [h("th", "Donne")];
    for (let i = 0; i < n; i++) head.push(h("th", { title: ctx.name(i) }, ctx.name(i)));
    const body = hist.map((r) =>
      h("tr", { class: r.made ? "made" : "failed" },
        h("td", { title: `${r.points} points, ${r.bouts} bout(s), il fallait ${r.required}` },
          `${r.deal}. ${ctx.name(r.taker)}, ${contractName(r.contract).toLowerCase()} ${r.made ? "✓" : "✗"}`),
        (r.shares || []).map((x) => h("td.num", `${x > 0 ? "+" : ""}${x}`))));
    return h("div.sheet-scroll", h("table.sheet", h("thead", h("tr", head)), h("tbody", body)));
  },
  formatters: {
    deal: (e, c) => `Donne ${e.deal} : ${c.who(e)} distribue.`,
    bid: (e, c) => `${c.who(e)} annonce : ${contractName(e.contract).toLowerCase()}.`,
    pass: (e, c) => `${c.who(e)} passe.`,
    taker: (e, c) => `${c.who(e)} prend (${contractName(e.contract).toLowerCase()}).`,
    redeal: (e, c) => (e.reason === "petit_sec" ? `Petit sec${e.player != null ? ` chez ${c.name(e.player)}` : ""} : on redistribue.` : "Tout le monde passe : on redistribue."),
    call: (e, c) => `${c.who(e)} appelle ${c.card(e.card)}.`,
    chien: (e, c) => `Le chien : ${(e.cards || []).map(c.card).join(" ")}.`,
    discard: (e, c) => (e.card ? `Vous écartez ${c.card(e.card)}.` : null),
    undo: (e, c) => (e.card ? `Vous reprenez ${c.card(e.card)}.` : null),
    ecart: (e, c) => `${c.who(e)} a fait son écart${e.trumps && e.trumps.length ? ` (atouts montrés : ${e.trumps.map(c.card).join(" ")})` : ""}.`,
    chelem: (e, c) => (e.announced ? `${c.who(e)} annonce un chelem !` : `${c.who(e)} n'annonce pas de chelem.`),
    poignee: (e, c) => `${c.who(e)} montre une poignée ${LEVELS[e.level] ?? e.level} : ${(e.cards || []).map(c.card).join(" ")}.`,
    partner: (e, c) => (e.seat === e.taker ? `${c.who(e)} joue seul.` : `${c.who(e)} est le partenaire de ${c.name(e.taker)}.`),
    trick: (e, c) => `${c.who(e)} remporte le pli.`,
    deal_end: (e, c) => {
      const r = e.result || {};
      return `Donne ${r.deal ?? ""} : ${c.name(r.taker)} ${r.made ? "réussit" : "chute"} sa ${contractName(r.contract).toLowerCase()} (${r.points} points pour ${r.required}) : ${r.score > 0 ? "+" : ""}${r.score}.`;
    },
    game_over: (e, c) => `Partie terminée : ${(e.winners || []).map(c.name).join(", ")} gagne.`,
  },
};

function resultBox(r, ctx) {
  return h("div.result-box", { id: "deal-result" },
    h("div", h("b", `${ctx.name(r.taker)} ${r.made ? "réussit" : "chute"}`), ` sa ${contractName(r.contract).toLowerCase()}`),
    h("div.small", `${r.points} points avec ${r.bouts} bout${r.bouts > 1 ? "s" : ""} (il en fallait ${r.required})`),
    r.petit_au_bout ? h("div.small", `Petit au bout : ${r.petit_au_bout === "attack" ? "attaque" : "défense"}`) : null,
    h("div.small", `Score de la donne : ${r.score}`),
  );
}
