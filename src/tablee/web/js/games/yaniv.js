// Yaniv: discard a card, a set or a run (several cards selected in the hand), then draw from the
// stock or take back a card of the previous discard; call "Yaniv !" with 7 points or fewer.

import { h } from "../dom.js";
import { backEl, cardEl, cardName, cardNameWithArticle, cardShort } from "../cards.js";
import { chip } from "../render.js";

const KINDS = { single: "une carte", set: "une série", run: "une suite" };
const RUN_RANKS = "A23456789TJQK";
const isJoker = (c) => /^X/.test(c);

/** What each joker of a run stands for (its index → a card code such as "4C"), read from the
 * naturals around it (a run is laid from its low end, each joker at its place), or null when the
 * cards are not a run with a joker. With a single natural the cards may as well be a set: only a
 * group known to be a run (`kind`) is read then. */
export function jokerPlaces(cards, kind = null) {
  if (!Array.isArray(cards) || cards.length < 3 || kind === "set" || kind === "single") return null;
  const nat = cards.map((c, i) => [String(c), i]).filter(([c]) => !isJoker(c));
  if (!nat.length || nat.length === cards.length || (nat.length < 2 && kind !== "run")) return null;
  const suit = nat[0][0][1];
  const base = RUN_RANKS.indexOf(nat[0][0][0]) - nat[0][1];
  if (nat.some(([c, i]) => c[1] !== suit || RUN_RANKS.indexOf(c[0]) - i !== base)) return null;
  const out = new Map();
  cards.forEach((c, i) => {
    const rank = RUN_RANKS[base + i];
    if (isJoker(String(c)) && rank && base + i >= 0) out.set(i, `${rank}${suit}`);
  });
  return out.size ? out : null;
}

/** The cards of a group, each joker of a run saying which card it stands for. */
function groupCards(cards, kind, c, options = () => ({})) {
  const places = jokerPlaces(cards, kind);
  return cards.map((code, i) => {
    const el = cardEl(code, c.kind, options(code, i));
    const stands = places?.get(i);
    if (stands) {
      el.classList.add("joker-for");
      el.append(h("span.stands-for", { class: /[HD]$/.test(stands) ? "red" : "" }, cardShort(stands, c.kind)));
      el.title = `joker (pour ${cardName(stands, c.kind)})`;
      if (!el.getAttribute("aria-label")?.startsWith("Reprendre")) el.setAttribute("aria-label", el.title);
    }
    return el;
  });
}

/** A group in a sentence: "joker (4♣) 5♣ 6♣". */
function groupText(cards, c, kind = null) {
  const places = jokerPlaces(cards, kind);
  return cards.map((x, i) => (places?.get(i) ? `${c.card(x)} (${c.card(places.get(i))})` : c.card(x))).join(" ");
}

export default {
  labels: {
    discard: "Défausser",
    draw: "Piocher",
    yaniv: "Yaniv !",
    next: "Manche suivante",
  },
  values: {
    from: { stock: "dans la pioche", discard: "dans la défausse" },
  },
  scoresTitle: "Points (100 pour sortir)",
  chips(v) {
    const out = [];
    if (v.hand_value != null) out.push(chip("Votre main :", `${v.hand_value} point${v.hand_value > 1 ? "s" : ""}`, { id: "hand-value", cls: v.hand_value <= (v.yaniv_max ?? 7) ? "hot" : "" }));
    return out;
  },
  seatExtras(v, seat, c) {
    const out = [];
    const shown = v.shown?.[seat];
    if (Array.isArray(shown)) {
      out.push(h("span.tag", `${v.values?.[seat] ?? ""} pts`));
      out.push(h("div.shown-hand", shown.map((x) => cardEl(x, c.kind, { small: true }))));
    } else if (seat !== c.mySeat && v.known?.[seat]?.length) {
      out.push(h("div.shown-hand", { title: "cartes reprises de la défausse" }, v.known[seat].map((x) => cardEl(x, c.kind, { small: true }))));
    }
    return out;
  },
  center(v, c) {
    const fromStock = c.legal.find((a) => a.type === "draw" && a.from === "stock");
    const prev = v.discard || { cards: [], takeable: [] };
    const takeable = new Set(prev.takeable || []);
    const prevCards = groupCards(prev.cards || [], prev.kind, c, (code) => {
      const act = c.legal.find((a) => a.type === "draw" && a.from === "discard" && a.card === code);
      return {
        playable: !!act,
        dimmed: !takeable.has(code),
        onclick: act ? () => c.send(act) : undefined,
        label: act ? `Reprendre ${cardNameWithArticle(code, c.kind)}` : undefined,
      };
    });
    const row = h("div.piles",
      h("div.pile.stock", { id: "stock" },
        backEl(c.kind, { playable: !!fromStock, onclick: fromStock ? () => c.send(fromStock) : undefined, title: "Piocher" }),
        h("small", `pioche : ${v.stock}`)),
      h("div.pile.discard", { id: "discard" },
        h("div.takeable", prevCards.length ? prevCards : h("div.card.empty-slot")),
        h("small", "défausse", prev.kind ? [h("br"), KINDS[prev.kind] ?? prev.kind] : null)));
    const parts = [row];
    if (v.laid && v.laid.cards?.length) {
      parts.push(h("div.card-row", { id: "laid" }, h("div.caption-line", `${c.name(v.turn)} vient de poser`), h("div.row.tight", groupCards(v.laid.cards, v.laid.kind, c, () => ({ small: true })))));
    }
    return parts;
  },
  prompt(v, legal) {
    if (v.phase === "draw") return "Piochez : la pioche, ou une carte de la défausse précédente.";
    if (legal.some((a) => a.type === "next")) return "Manche terminée : lancez la suivante.";
    if (legal.some((a) => a.type === "yaniv")) return "À vous : défaussez (une carte, une série, une suite) ou annoncez « Yaniv ! »";
    return "À vous : sélectionnez une carte, une série ou une suite à défausser.";
  },
  sheet(hist, v, c) {
    const head = [h("th", "Manche")];
    for (let i = 0; i < c.n; i++) head.push(h("th", { title: c.name(i) }, c.name(i)));
    const rows = hist.map((r) =>
      h("tr", h("td", { title: r.assaf ? "assaf" : "" }, `${r.round}. ${c.name(r.caller)}${r.assaf ? " (assaf)" : ""}`),
        (r.scores || []).map((x, i) => h("td.num", { title: `+${r.points?.[i] ?? 0}` }, String(x)))));
    return h("div.sheet-scroll", h("table.sheet", h("thead", h("tr", head)), h("tbody", rows)));
  },
  formatters: {
    hand: () => null,
    deal: (e, c) => `Manche ${e.round} : ${c.name(e.first)} commence.`,
    discard: (e, c) => `${c.who(e)} défausse ${groupText(e.cards || [], c, e.kind)}.`,
    draw: (e, c) => {
      if (e.from === "discard") return `${c.who(e)} reprend ${c.card(e.card)}.`;
      return e.card ? `Vous piochez ${c.card(e.card)}.` : `${c.who(e)} pioche.`;
    },
    yaniv: (e, c) =>
      e.assaf
        ? `${c.who(e)} : « Yaniv ! » avec ${e.value}… Assaf de ${(e.assafers || []).map(c.name).join(", ")} !`
        : `${c.who(e)} : « Yaniv ! » avec ${e.value} points.`,
    deal_end: (e, c) => `Fin de la manche : ${(e.points || []).map((p, i) => `${c.name(i)} +${p}`).join(", ")}.${e.dropped?.length ? ` ${e.dropped.map(c.name).join(", ")} redescend de 50.` : ""}`,
    game_end: (e, c) => `Partie terminée : ${(e.winners || []).map(c.name).join(", ")} gagne.`,
  },
};
