// Events as short French sentences for the table's log ("Bob pose +4 et choisit bleu").
// Each game's events are listed in its module's docstring; unknown ones still read sensibly.

import { cardShort } from "./cards.js";
import { colorName, fieldText, suitName, typeLabel } from "./labels.js";

const plural = (n, one, many) => `${n} ${n === 1 || n === -1 ? one : many}`;

function pts(n) {
  return plural(n, "point", "points");
}

/** Formatters: (event, ctx) => string | null (null: not worth a line). */
export const FORMATTERS = {
  deal: (e, c) => (e.dealer != null ? `${c.name(e.dealer)} distribue.` : "Nouvelle donne."),
  new_deal: (e, c) => (e.dealer != null ? `${c.name(e.dealer)} distribue.` : "Nouvelle donne."),
  start: () => "La partie commence.",
  turn_up: (e, c) => `Carte retournée : ${c.card(e.card)}.`,
  turned: (e, c) => `Carte retournée : ${c.card(e.card)}.`,
  flip: (e, c) => `Carte retournée : ${c.card(e.card)}.`,
  play: (e, c) => {
    const verb = c.kind === "cc" ? "pose" : "joue";
    let text = `${c.who(e)} ${verb} ${c.card(e.card)}`;
    if (e.color) text += ` et choisit ${colorName(e.color)}`;
    return `${text}.`;
  },
  draw: (e, c) => {
    if (e.card) return `${c.who(e)} pioche ${c.card(e.card)}.`;
    if (Array.isArray(e.cards)) return `${c.who(e)} pioche ${e.cards.map((x) => c.card(x)).join(", ")}.`;
    const n = e.count ?? 1;
    const from = e.source === "discard" || e.from === "discard" ? " dans la défausse" : "";
    return `${c.who(e)} pioche ${n === 1 ? "une carte" : `${n} cartes`}${from}${e.reason === "penalty" ? " (pénalité)" : ""}.`;
  },
  pass: (e, c) => `${c.who(e)} passe.`,
  skip: (e, c) => `${c.who(e)} passe son tour.`,
  skipped: (e, c) => `${c.who(e)} passe son tour.`,
  reverse: () => "Le sens du jeu change.",
  direction: () => "Le sens du jeu change.",
  reshuffle: () => "La défausse est mélangée pour refaire la pioche.",
  accept: (e, c) => `${c.who(e)} accepte le +4.`,
  contest: (e, c) => {
    const verdict = e.legal ?? (e.illegal != null ? !e.illegal : e.verdict === "legal" ? true : e.verdict === "illegal" ? false : null);
    const poser = e.poser ?? e.target ?? e.against;
    if (verdict === false) {
      return `${c.who(e)} conteste : le +4 était illégal${poser != null ? `, ${c.name(poser)} pioche 4` : ""}.`;
    }
    if (verdict === true) return `${c.who(e)} conteste : le +4 était régulier, ${c.who(e)} pioche 6.`;
    return `${c.who(e)} conteste le +4.`;
  },
  announce: (e, c) => `${c.who(e)} : « Carte ! »`,
  catch: (e, c) => {
    const target = e.target ?? e.victim ?? e.caught;
    const ok = e.success ?? e.caught_ok ?? e.ok;
    if (target == null) return `${c.who(e)} attrape quelqu'un.`;
    if (ok === false) return `${c.who(e)} accuse ${c.name(target)} à tort et pioche 2.`;
    if (ok === true) return `${c.who(e)} attrape ${c.name(target)}, qui pioche 2.`;
    return `${c.who(e)} attrape ${c.name(target)}.`;
  },
  take: (e, c) => `${c.who(e)} prend${e.suit ? ` à ${suitName(e.suit)}` : ""}.`,
  bid: (e, c) => {
    const parts = [];
    if (e.value != null) parts.push(fieldText("value", e.value, c));
    if (e.level != null) parts.push(fieldText("level", e.level, c));
    if (e.suit != null) parts.push(suitName(e.suit));
    return `${c.who(e)} annonce ${parts.join(" ") || "…"}.`;
  },
  contre: (e, c) => `${c.who(e)} contre !`,
  surcontre: (e, c) => `${c.who(e)} surcontre !`,
  decline: (e, c) => `${c.who(e)} ne surcontre pas.`,
  trick: (e, c) => {
    const w = e.winner ?? e.seat;
    return `${c.name(w)} remporte le pli${e.points != null ? ` (${pts(e.points)})` : ""}.`;
  },
  trick_won: (e, c) => `${c.name(e.winner ?? e.seat)} remporte le pli.`,
  belote: (e, c) => `${c.who(e)} : « Belote ! »`,
  rebelote: (e, c) => `${c.who(e)} : « Rebelote ! »`,
  call: (e, c) => `${c.who(e)} appelle ${c.card(e.card)}.`,
  call_king: (e, c) => `${c.who(e)} appelle ${c.card(e.card)}.`,
  chien: (e, c) => (Array.isArray(e.cards) ? `Le chien : ${e.cards.map((x) => c.card(x)).join(" ")}.` : "Le chien est retourné."),
  ecart: (e, c) => (Array.isArray(e.cards) ? `${c.who(e)} écarte ${e.cards.map((x) => c.card(x)).join(" ")}.` : `${c.who(e)} fait son écart.`),
  discard: (e, c) => {
    if (Array.isArray(e.cards)) return `${c.who(e)} défausse ${e.cards.map((x) => c.card(x)).join(" ")}.`;
    if (e.card) return `${c.who(e)} défausse ${c.card(e.card)}.`;
    return `${c.who(e)} défausse.`;
  },
  poignee: (e, c) => `${c.who(e)} montre une poignée${e.level ? ` ${fieldText("level", e.level, c).toLowerCase()}` : ""}${Array.isArray(e.cards) ? ` : ${e.cards.map((x) => c.card(x)).join(" ")}` : ""}.`,
  chelem: (e, c) => `${c.who(e)} annonce un chelem !`,
  partner: (e, c) => `${c.who(e)} est le partenaire.`,
  yaniv: (e, c) => `${c.who(e)} : « Yaniv ! »`,
  assaf: (e, c) => `Assaf ! ${c.who(e)} a une main plus basse.`,
  freeze: (e, c) => `${c.who(e)} : « Freeze ! »`,
  speed: (e, c) => {
    const ok = e.ok ?? e.success ?? (e.fault != null ? !e.fault : null);
    const card = e.card ? ` ${c.card(e.card)}` : "";
    if (ok === false) return `${c.who(e)} tente un speed${card} : raté, carte de pénalité.`;
    return `${c.who(e)} fait un speed${card} !`;
  },
  look: (e, c) => (e.card ? `${c.who(e)} regarde : ${c.card(e.card)}.` : `${c.who(e)} regarde une carte${e.target != null && e.target !== e.seat ? ` de ${c.name(e.target)}` : ""}.`),
  peek: (e, c) => (e.card ? `${c.who(e)} regarde : ${c.card(e.card)}.` : `${c.who(e)} regarde une carte.`),
  swap: (e, c) => `${c.who(e)} échange une carte${e.target != null ? ` avec ${c.name(e.target)}` : ""}.`,
  replace: (e, c) => `${c.who(e)} remplace une carte${e.discarded ? ` et défausse ${c.card(e.discarded)}` : ""}.`,
  reveal: () => "Les cartes sont dévoilées.",
  deal_end: (e, c) => {
    const scores = e.scores ?? e.points;
    if (Array.isArray(scores)) {
      return `Fin de la donne : ${scores.map((s, i) => `${c.name(i)} ${s > 0 ? "+" : ""}${s}`).join(", ")}.`;
    }
    return "Fin de la donne.";
  },
  round_end: (e, c) => FORMATTERS.deal_end(e, c).replace("la donne", "la manche"),
  redeal: () => "Personne ne prend : on redistribue.",
  cancelled: () => "Donne annulée : on redistribue.",
  game_over: () => "Partie terminée.",
  game_end: () => "Partie terminée.",
  over: () => "Partie terminée.",
  hand: () => null,
  game_started: (e) => (e.game_no > 1 ? `Revanche : partie ${e.game_no}.` : "La partie commence."),
  player_joined: (e, c) => `${e.name ?? c.who(e)} s'assied à la place ${e.seat + 1}.`,
  player_left: (e, c) => {
    const who = e.name ?? c.who(e);
    const robot = e.replaced_by === "bot" ? " : un robot joue à sa place" : "";
    if (e.kicked) return `${who} est retiré(e) de la table par l'administration${robot}.`;
    if (e.may_return) {
      return e.seat === c.mySeat
        ? "Vous quittez la table : un robot joue pour vous jusqu'à ce que vous repreniez votre place."
        : `${who} quitte la table : un robot joue pour ${who} jusqu'à son retour.`;
    }
    return `${who} quitte la table${robot}.`;
  },
  // a person the timer played for too often: a robot plays for them until they come back
  handed_to_robot: (e, c) => {
    const n = e.timeouts ?? "plusieurs";
    return e.seat === c.mySeat
      ? `Vous n'avez pas joué ${n} fois de suite : un robot joue pour vous. Reprenez la main quand vous voulez.`
      : `${e.name ?? c.who(e)} n'a pas joué ${n} fois de suite : un robot joue pour ${e.name ?? c.who(e)} jusqu'à son retour.`;
  },
  player_returning: (e, c) => (e.seat === c.mySeat
    ? "Vous reprenez votre place dès que le robot a joué ce coup."
    : `${e.name ?? c.who(e)} reprend sa place dès que le robot a joué ce coup.`),
  player_back: (e, c) => (e.seat === c.mySeat ? "Vous reprenez votre place." : `${e.name ?? c.who(e)} reprend sa place.`),
  player_renamed: (e) => `Place ${e.seat + 1} : le joueur s'appelle désormais ${e.name}.`,
  rematch_vote: (e, c) => `${c.who(e)} veut une revanche.`,
  // the server tells a move its timer made for a person just before the move itself
  auto: (e, c) => (e.seat === c.mySeat ? "Temps écoulé : la table a joué pour vous." : `Temps écoulé : la table a joué pour ${c.name(e.seat)}.`),
  // the server's own reasons say it all ("Tout le monde est parti : la partie s'arrête.")
  table_closed: (e) => e.by === "server"
    ? e.reason || "Table fermée."
    : `Table fermée par l'administration${e.reason && e.reason !== "closed by an admin" ? ` : « ${e.reason} »` : ""}.`,
  timer_changed: (e) => (e.turn_seconds ? `Nouveau minuteur : ${e.turn_seconds} s par coup.` : "Le minuteur est retiré."),
};

/** A generic sentence for an event type the client does not know yet. */
function generic(e, c) {
  const fields = Object.keys(e).filter((k) => !["type", "seat", "to"].includes(k));
  const who = e.seat != null ? `${c.name(e.seat)} : ` : "";
  const text = fields.map((k) => fieldText(k, e[k], c)).join(", ");
  return `${who}${typeLabel(e.type).toLowerCase()}${text ? ` (${text})` : ""}.`;
}

export function describeEvent(event, ctx) {
  const c = {
    ...ctx,
    card: (code) => cardShort(code, ctx.kind),
    who: (e) => (e.seat != null ? ctx.name(e.seat) : "La table"),
  };
  const f = ctx.formatters?.[event.type] ?? FORMATTERS[event.type];
  try {
    return f ? f(event, c) : generic(event, c);
  } catch {
    return generic(event, c);
  }
}
