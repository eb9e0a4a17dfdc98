// Barbu: five rounds, each with its own penalty (the view's `contract`); au choix (the view's
// `choice`), the dealer of each round chooses its contract among those not yet chosen.

import { h } from "../dom.js";
import { chip, trickArea, lastTrickBox } from "../render.js";

export const CONTRACTS = {
  tricks: { short: "Pas de plis", long: "5 points par pli" },
  hearts: { short: "Pas de cœurs", long: "5 points par cœur" },
  queens: { short: "Pas de dames", long: "20 points par dame" },
  king: { short: "Pas de roi de cœur", long: "80 points pour le barbu" },
  all: { short: "La salade", long: "toutes les pénalités" },
};

const ORDER = ["tricks", "hearts", "queens", "king", "all"];
const SHEET_WORDS = { tricks: "Plis", hearts: "Cœurs", queens: "Dames", king: "Barbu", all: "Salade" };

const contractName = (c) => CONTRACTS[c]?.short ?? String(c);

export default {
  labels: { deal: "Distribuer la manche suivante", choose: "Choisir le contrat" },
  values: { contract: Object.fromEntries(ORDER.map((c) => [c, `${CONTRACTS[c].short} (${CONTRACTS[c].long})`])) },
  scoresTitle: "Points (le plus bas gagne)",
  chips(v, ctx) {
    if (v.contract == null) {
      // au choix: the dealer has not chosen yet
      return [chip("Manche :", `${v.deal}/${v.rounds} · ${ctx.name(v.dealer)} choisit le contrat`, { id: "contract" })];
    }
    return [
      chip("Manche :", `${v.choice ? `${v.deal}/${v.rounds} · ` : ""}${contractName(v.contract)}`, { id: "contract" }),
      h("span.info-chip.muted-chip", CONTRACTS[v.contract]?.long ?? ""),
      v.hearts_broken && ["hearts", "king", "all"].includes(v.contract) ? h("span.info-chip", "cœurs ouverts") : null,
    ].filter(Boolean);
  },
  seatExtras(v, seat) {
    if (!Array.isArray(v.points)) return [];
    const out = [h("span.round-points", { title: "points pris dans cette manche" }, `manche : ${v.points[seat]}`)];
    if (v.choice && v.chosen) {
      // a count on the seat, the contracts themselves in its title: the felt stays readable
      const left = ORDER.filter((c) => !v.chosen[seat].includes(c)).map(contractName);
      out.push(h("span.round-points.chosen-left", { title: `reste à choisir : ${left.join(", ") || "aucun"}` }, `à choisir : ${left.length}`));
    }
    return out;
  },
  center(v, ctx) {
    return [trickArea(v.trick, ctx), lastTrickBox(v, ctx)].filter(Boolean);
  },
  rowLabel(row, k, scene) {
    const played = scene?.view?.sheet_contracts;
    // au choix: twenty rows or more, numbered, each with a word for its contract
    return played ? `${k + 1}. ${SHEET_WORDS[played[k]] ?? played[k]}` : contractName(ORDER[k]);
  },
  prompt(v, legal) {
    if (legal.some((a) => a.type === "choose")) return "À vous de choisir le contrat de cette manche.";
    if (legal.some((a) => a.type === "deal")) return "À vous de distribuer la manche suivante.";
    return null;
  },
  formatters: {
    hand: () => null,
    deal: (e, c) => (e.contract ? `Manche ${e.deal} (${contractName(e.contract)}) : ${c.who(e)} distribue.` : `Manche ${e.deal} : ${c.who(e)} distribue et choisit le contrat.`),
    choose: (e, c) => `${c.who(e)} choisit : ${contractName(e.contract)}.`,
    trick: (e, c) => `${c.who(e)} ramasse le pli${e.points ? ` (+${e.points})` : ""}.`,
    deal_end: (e, c) => `Fin de la manche « ${contractName(e.contract)} » : ${(e.scores || []).map((s, i) => `${c.name(i)} ${s}`).join(", ")}.`,
    game_end: (e, c) => `Partie terminée : ${(e.winners || []).map(c.name).join(", ")} gagne.`,
  },
};
