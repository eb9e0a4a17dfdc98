// Motton: bid the exact number of tricks you will take; 20 rounds of 10 down to 1 and back.

import { h } from "../dom.js";
import { cardEl } from "../cards.js";
import { suitName } from "../labels.js";
import { chip, lastTrickBox, trickArea, trumpChip } from "../render.js";

const plis = (n) => `${n} pli${n > 1 ? "s" : ""}`;

export default {
  labels: { bid: "Annoncer", deal: "Distribuer la manche suivante" },
  team: () => null,
  bubble(v, seat) {
    if (v.phase !== "bid") return null;
    const b = (v.bids || []).find((x) => x.seat === seat);
    return b ? plis(b.value) : null;
  },
  chips(v, c) {
    const out = [trumpChip(v)];
    if (v.turned) {
      out.push(h("span.info-chip", { id: "turned" }, "Retournée : ", cardEl(v.turned, c.kind, { small: true }), v.trump == null ? " (sans atout)" : ""));
    } else if (v.turned_hidden) {
      out.push(chip("", "retournée cachée jusqu'à la dernière annonce"));
    }
    const k = Array.isArray(v.cards) ? v.cards[0] : v.cards;
    if (typeof k === "number") out.push(chip("Manche :", `${k} carte${k > 1 ? "s" : ""}${v.replay ? ` (rejouée ${v.replay}×)` : ""}`));
    if (v.forbidden_bid != null && v.turn === c.mySeat) out.push(chip("Interdit :", String(v.forbidden_bid), { cls: "hot" }));
    return out.filter(Boolean);
  },
  seatExtras(v, seat) {
    const b = (v.bids || []).find((x) => x.seat === seat);
    if (!b || v.phase === "bid") return [];
    const won = v.tricks_won?.[seat] ?? 0;
    return [h("span.tag", { class: won === b.value ? "taker" : "" }, `annonce ${b.value}`)];
  },
  center(v, c) {
    return [v.phase !== "bid" ? trickArea(v.trick, c) : null, lastTrickBox(v, c)].filter(Boolean);
  },
  prompt(v, legal) {
    if (v.phase === "bid") return "Combien de plis ferez-vous, exactement ?";
    if (legal.some((a) => a.type === "deal")) return "À vous de distribuer la manche suivante.";
    return null;
  },
  rowLabel(row, k) {
    return `${row.deal ?? k + 1}. ${row.cards ?? ""} c.`;
  },
  formatters: {
    hand: () => null,
    deal: (e, c) => `Manche ${e.deal} (${e.cards} carte${e.cards > 1 ? "s" : ""})${e.replay ? ", rejouée" : ""} : ${c.who(e)} distribue.`,
    turn_up: (e, c) => `Carte retournée : ${c.card(e.card)}${e.trump ? `, atout ${suitName(e.trump)}` : ", sans atout"}.`,
    bid: (e, c) => `${c.who(e)} annonce ${plis(e.value)}.`,
    trick: (e, c) => `${c.who(e)} remporte le pli.`,
    deal_end: (e, c) =>
      e.replayed
        ? "Personne n'a réussi son annonce : la manche est rejouée."
        : `Fin de la manche : ${(e.scores || []).map((s, i) => `${c.name(i)} +${s}`).join(", ")}.`,
    game_end: (e, c) => `Partie terminée : ${(e.winners || []).map(c.name).join(", ")} gagne.`,
  },
};
