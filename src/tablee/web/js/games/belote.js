// Belote and contrée: teams, the turned card, bids, contre/surcontre, belote-rebelote.

import { h } from "../dom.js";
import { cardEl, cardShort } from "../cards.js";
import { LEVELS, suitName } from "../labels.js";
import { chip, lastTrickBox, suitEl, trickArea, trumpChip } from "../render.js";

const COINCHE = { 2: " contré", 4: " surcontré" };

function valueText(value, v) {
  const label = v?.bid_labels?.[String(value)];
  return label ? label.replace(/^./, (c) => c.toUpperCase()) : String(value);
}

function callText(b, v) {
  switch (b.type) {
    case "pass":
      return "Passe";
    case "take":
      return b.suit ? `Prend à ${suitName(b.suit)}` : "Prend";
    case "bid":
      return `${valueText(b.value, v)} ${suitName(b.suit)}`;
    case "contre":
      return "Contre !";
    case "surcontre":
      return "Surcontre !";
    case "decline":
      return "Pas de surcontre";
    default:
      return b.type;
  }
}

/** "tierce, carré de valets": the kinds of announcements, in words. */
function kindsText(kinds) {
  return (kinds || []).map((k) => LEVELS[k] ?? k).join(", ");
}

/** The annonces of the deal (option `annonces`): who announced what, then what was shown. */
function annoncesChips(v, ctx) {
  const a = v.annonces;
  if (!a || v.phase !== "play") return [];
  if (a.team == null) {
    if (!a.declared.length) return [];
    const said = a.declared.map((d) => `${ctx.name(d.seat)} : ${kindsText(d.kinds)}`).join(" · ");
    return [chip("Annonces :", said, { id: "annonces" })];
  }
  const label = `Annonces, ${a.points[a.team]} points :`;
  // shown during the second trick, cards and all; then a short reminder keeps the felt clear
  const played = (v.team_tricks || [0, 0]).reduce((x, y) => x + y, 0);
  if (played > 1) return [chip(label, teamName(a.team, ctx), { id: "annonces" })];
  const shown = a.shown.map((x) => `${ctx.name(x.seat)} : ${kindsText([x.kind])} ${x.cards.map((c) => cardShort(c, ctx.kind)).join(" ")}`);
  return [chip(label, shown.join(" · "), { id: "annonces", cls: "annonces-shown" })];
}

function teamName(i, ctx) {
  return `${ctx.name(i)} & ${ctx.name(i + 2)}`;
}

export function beloteRenderer(game) {
  const contree = game === "contree";
  return {
    labels: {
      announce: "Annoncer",
      take: "Prendre",
      bid: "Annoncer",
      contre: "Contrer !",
      surcontre: "Surcontrer !",
      decline: "Ne pas surcontrer",
      deal: "Donne suivante",
    },
    values: contree ? { value: { 250: "Capot (250)", 500: "Générale (500)" } } : {},
    team: (v, seat) => seat % 2,
    teamName,
    teamScores: (v) => v.team_scores,
    bubble(v, seat) {
      if (v.phase !== "bidding" && v.phase !== "surcontre") return null;
      const mine = (v.bids || []).filter((b) => b.seat === seat);
      return mine.length ? callText(mine[mine.length - 1], v) : null;
    },
    chips(v, ctx) {
      // In contrée the view's contract (and trump) is the best bid so far while the bidding
      // lasts: no trump is decided until the bidding is over.
      const bidding = v.phase === "bidding";
      const out = [bidding ? null : trumpChip(v)];
      const c = v.contract;
      if (c) {
        const what = [contree ? `${valueText(c.value, v)} ` : "", suitEl(c.trump), COINCHE[c.coinche] ?? ""];
        const label = bidding ? "Meilleure enchère :" : "Contrat :";
        if (!bidding || contree) out.push(chip(label, [`${ctx.name(c.taker)}, `, what], { id: "contract" }));
      }
      if (Array.isArray(v.team_tricks) && v.phase === "play") out.push(chip("Plis :", `${v.team_tricks[0]} – ${v.team_tricks[1]}`));
      // tout-atout: a belote in each suit, named
      out.push(...annoncesChips(v, ctx));
      for (const b of v.belote || []) out.push(chip("", `${b.type === "belote" ? "Belote" : "Rebelote"}${b.suit ? ` ${suitName(b.suit)}` : ""} (${ctx.name(b.seat)})`));
      return out.filter(Boolean);
    },
    seatExtras(v, seat) {
      const out = [];
      if (v.contract && v.contract.taker === seat && v.phase !== "bidding") out.push(h("span.tag.taker", "preneur"));
      return out;
    },
    center(v, ctx) {
      const parts = [];
      if (v.phase === "bidding" && v.turned) {
        parts.push(h("div.turned", { id: "turned" }, cardEl(v.turned, ctx.kind), h("small", `carte retournée${v.round ? ` · tour ${v.round}` : ""}`)));
      }
      if (v.phase === "deal_over" && v.sheet?.length) parts.push(dealResult(v.sheet[v.sheet.length - 1], v, ctx));
      if (v.phase !== "bidding") parts.push(trickArea(v.trick, ctx));
      parts.push(lastTrickBox(v, ctx));
      return parts.filter(Boolean);
    },
    prompt(v, legal) {
      if (v.phase === "bidding" && !contree) return v.round === 2 ? "Deuxième tour : prendre à une autre couleur, ou passer ?" : "Prenez-vous la carte retournée ?";
      if (v.phase === "bidding") return "À vous d'annoncer (ou de passer).";
      if (v.phase === "surcontre") return "Votre contrat est contré : surcontrer ?";
      const ann = legal.find((a) => a.type === "announce");
      if (ann) return `Annoncez votre ${kindsText(ann.kinds)} avec votre première carte, ou jouez sans annoncer.`;
      if (legal.some((a) => a.type === "deal")) return "Donne terminée : distribuez la suivante.";
      return null;
    },
    sheet(hist, v, ctx) {
      const head = h("tr", h("th", "Donne"), h("th", teamName(0, ctx)), h("th", teamName(1, ctx)));
      const rows = hist.map((r) =>
        h("tr", { class: r.cancelled ? "" : r.made ? "made" : "failed" },
          h("td", r.cancelled ? `${r.deal}. annulée` : `${r.deal}. ${ctx.name(r.taker)} ${contree ? `${valueText(r.value, v)} ` : ""}${suitName(r.trump)}${COINCHE[r.coinche] ?? ""} ${r.made ? "✓" : "✗"}`),
          (r.scores || []).map((x) => h("td.num", String(x)))));
      return h("div.sheet-scroll", h("table.sheet", h("thead", head), h("tbody", rows)));
    },
    formatters: {
      hand: () => null,
      deal: (e, c) => `Donne ${e.deal ?? ""} : ${c.who(e)} distribue${e.turned ? `, ${c.card(e.turned)} retournée` : ""}.`,
      pass: (e, c) => `${c.who(e)} passe.`,
      take: (e, c) => `${c.who(e)} prend${e.suit ? ` à ${suitName(e.suit)}` : ""}.`,
      bid: (e, c) => `${c.who(e)} annonce ${valueText(e.value, c.view)} ${suitName(e.suit)}.`,
      contre: (e, c) => `${c.who(e)} contre !`,
      surcontre: (e, c) => `${c.who(e)} surcontre !`,
      decline: (e, c) => `${c.who(e)} ne surcontre pas.`,
      complete: (e, c) => (Array.isArray(e.cards) ? `Vous recevez ${e.cards.map(c.card).join(" ")}.` : null),
      redeal: () => "Tout le monde passe : donne annulée.",
      contract: (e, c) => `Contrat : ${c.who(e)}${contree ? `, ${valueText(e.value, c.view)}` : ""} à ${suitName(e.trump)}${COINCHE[e.coinche] ?? ""}.`,
      announce: (e, c) => `${c.who(e)} annonce : ${kindsText(e.kinds)}.`,
      annonces_shown: (e, c) =>
        `${teamName(e.team, c)} montrent leurs annonces (${e.points} points) : ${(e.annonces || []).map((x) => `${c.name(x.seat)} ${kindsText([x.kind])} ${x.cards.map(c.card).join(" ")}`).join(" ; ")}.`,
      belote: (e, c) => `${c.who(e)} : « Belote ! »`,
      rebelote: (e, c) => `${c.who(e)} : « Rebelote ! »`,
      trick: (e, c) => `${c.who(e)} remporte le pli (${e.points} points).`,
      deal_end: (e, c) =>
        e.cancelled
          ? "Donne annulée."
          : `Fin de la donne : ${c.name(e.taker)} ${e.made ? "réussit" : "chute"} ; ${teamName(0, c)} ${e.scores[0]}, ${teamName(1, c)} ${e.scores[1]}.`,
      game_end: (e, c) => `Partie terminée : victoire de ${(e.winners || []).map(c.name).join(" et ")}.`,
    },
  };
}

function dealResult(r, v, ctx) {
  return h("div.result-box", { id: "deal-result" },
    h("b", r.cancelled ? "Donne annulée" : `${ctx.name(r.taker)} ${r.made ? "réussit" : "chute"}${r.capot ? " (capot)" : ""}`),
    r.cancelled ? null : h("div.small", `${teamName(0, ctx)} : ${r.scores[0]} · ${teamName(1, ctx)} : ${r.scores[1]}`));
}
