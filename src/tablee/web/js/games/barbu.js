// Barbu: five rounds, each with its own penalty (the view's `contract`).

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

const contractName = (c) => CONTRACTS[c]?.short ?? String(c);

export default {
  labels: { deal: "Distribuer la manche suivante" },
  scoresTitle: "Points (le plus bas gagne)",
  chips(v) {
    return [
      chip("Manche :", `${contractName(v.contract)}`, { id: "contract" }),
      h("span.info-chip.muted-chip", CONTRACTS[v.contract]?.long ?? ""),
      v.hearts_broken && ["hearts", "king", "all"].includes(v.contract) ? h("span.info-chip", "cœurs ouverts") : null,
    ].filter(Boolean);
  },
  seatExtras(v, seat) {
    if (!Array.isArray(v.points)) return [];
    return [h("span.round-points", { title: "points pris dans cette manche" }, `manche : ${v.points[seat]}`)];
  },
  center(v, ctx) {
    return [trickArea(v.trick, ctx), lastTrickBox(v, ctx)].filter(Boolean);
  },
  rowLabel(row, k) {
    return contractName(ORDER[k]);
  },
  prompt(v, legal) {
    if (legal.some((a) => a.type === "deal")) return "À vous de distribuer la manche suivante.";
    return null;
  },
  formatters: {
    hand: () => null,
    deal: (e, c) => `Manche ${e.deal} (${contractName(e.contract)}) : ${c.who(e)} distribue.`,
    trick: (e, c) => `${c.who(e)} ramasse le pli${e.points ? ` (+${e.points})` : ""}.`,
    deal_end: (e, c) => `Fin de la manche « ${contractName(e.contract)} » : ${(e.scores || []).map((s, i) => `${c.name(i)} ${s}`).join(", ")}.`,
    game_end: (e, c) => `Partie terminée : ${(e.winners || []).map(c.name).join(", ")} gagne.`,
  },
};
