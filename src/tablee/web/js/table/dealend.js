// The end of a deal: how it was scored, from its `deal_end` event's `breakdown` (every game's
// server sends one: `{per: "team" | "seat", lines: [{item, points, ...}], total}`, listed in each
// game's docstring). A headline says what was at stake (the contract and whether it was made, the
// caller, the freezer...), then one row per line of the score, then the deal's total.

import { h } from "../dom.js";
import { suitName } from "../labels.js";

const COINCHE = { 2: " × 2 (contré)", 4: " × 4 (surcontré)" };
const TAROT_CONTRACTS = { prise: "Prise", garde: "Garde", garde_sans: "Garde sans", garde_contre: "Garde contre" };
const BARBU_CONTRACTS = { tricks: "Pas de plis", hearts: "Pas de cœurs", queens: "Pas de dames", king: "Pas de roi de cœur", all: "La salade" };
const BELOTE_VALUES = { 250: "capot", 500: "générale" };

const plural = (n, one, many) => `${n} ${Math.abs(n) === 1 ? one : many}`;
const contractValue = (v) => BELOTE_VALUES[v] ?? String(v);

/** The French words of each line of a breakdown (the items of every game's docstring). */
const ITEMS = {
  // belote, contrée
  cards: () => "Points des plis",
  dix_de_der: () => "Dix de der",
  capot: () => "Capot (252)",
  belote: (ln) => (ln.all ? "Belote-rebelote (aux défenseurs)" : "Belote-rebelote"),
  chute: () => "Chute : les 162 points aux défenseurs",
  annonces: (ln) => (ln.all ? "Annonces (toutes)" : "Annonces"),
  contract: (ln) => {
    if (ln.factor != null) {
      // tarot: 25 points, times the contract
      return `${TAROT_CONTRACTS[ln.contract] ?? ln.contract} ${ln.made ? "réussie" : "chutée"} : 25 × ${ln.factor}`;
    }
    return `Contrat ${contractValue(ln.value)}${COINCHE[ln.coinche] ?? ""}`;
  },
  // tarot
  margin: (ln) =>
    `${ln.card_points} points pour ${ln.required} (${plural(ln.bouts, "bout", "bouts")}) : écart ${Math.abs(ln.margin)} × ${ln.factor}`,
  petit_au_bout: (ln) => `Petit au bout (${ln.side === "attack" ? "attaque" : "défense"}) : 10 × ${ln.factor}`,
  poignee: (ln) => `Poignée (${ln.value})`,
  chelem: (ln, e) => (ln.announced ? (ln.points[e.seat] > 0 ? "Chelem annoncé et réussi" : "Chelem annoncé, chuté") : "Chelem non annoncé"),
  chelem_defence: () => "Chelem de la défense",
  // barbu (and motton's tricks, which name the cards in hand)
  tricks: (ln) => (ln.cards != null ? `Levées : (10 + levées − ${ln.cards}) × levées` : `Plis (${ln.each} chacun)`),
  hearts: (ln) => `Cœurs (${ln.each} chacun)`,
  queens: (ln) => `Dames (${ln.each} chacune)`,
  king: (ln) => `Roi de cœur (${ln.each})`,
  // motton
  base: () => "Annonce réussie (10)",
  // freeze
  row: (ln) => `Ligne ${ln.row}${(ln.same || []).some(Boolean) ? " (une seule valeur : 0)" : ""}`,
  freeze_won: () => "Freeze réussi : −10",
  freeze_lost: (ln) => `Freeze raté : 5 × ${ln.count}`,
  // yaniv
  hand: () => "Points en main",
  assaf: () => "Assaf : pénalité de 30",
  drop: () => "Total à 50 ou 100 : −50",
  // contrecarte
  out: () => "Dernière carte posée",
};

function itemText(ln, e) {
  const f = ITEMS[ln.item];
  try {
    return f ? f(ln, e) : ln.item;
  } catch {
    return ln.item;
  }
}

/** What was at stake, in a sentence or two (null: nothing more than the lines). */
function headline(e, c) {
  switch (c.game) {
    case "belote":
    case "contree": {
      if (e.cancelled) return ["Donne annulée."];
      const value = c.game === "contree" ? `${contractValue(e.value)} ` : "";
      const coinche = e.coinche === 2 ? ", contré" : e.coinche === 4 ? ", surcontré" : "";
      const out = [`${c.name(e.taker)} : ${value}${suitName(e.trump)}${coinche} — ${e.made ? "contrat réussi ✓" : "chute ✗"}`];
      if (Array.isArray(e.card_points)) out.push(`Points des plis : ${e.card_points[0]} – ${e.card_points[1]}${e.capot != null ? " (capot)" : ""}`);
      return out;
    }
    case "tarot": {
      const r = e.result || {};
      const partner = r.partner != null && r.partner !== r.taker ? ` avec ${c.name(r.partner)}` : r.partner === r.taker ? " (seul)" : "";
      return [
        `${c.name(r.taker)}${partner} : ${TAROT_CONTRACTS[r.contract] ?? r.contract} — ${r.made ? "réussie ✓" : "chutée ✗"}`,
        `${r.points} points avec ${plural(r.bouts, "bout", "bouts")} (il en fallait ${r.required}) · ${r.score > 0 ? "+" : ""}${r.score} par défenseur`,
      ];
    }
    case "barbu":
      return [`Contrat : ${BARBU_CONTRACTS[e.contract] ?? e.contract}`];
    case "motton":
      return e.replayed ? ["Personne n'a fait son annonce : la donne est rejouée."] : null;
    case "freeze":
      return [`Freeze de ${c.name(e.seat)}`];
    case "yaniv":
      return [`Yaniv de ${c.name(e.seat)}${(e.breakdown?.lines || []).some((l) => l.item === "assaf") ? " : assaf !" : ""}`];
    case "contrecarte":
      return [`${c.name(e.winner ?? e.seat)} a posé sa dernière carte et gagne.`];
    default:
      return null;
  }
}

/** Rows of facts that are no points (motton's bids and tricks). */
function factRows(e, c, width) {
  if (c.game !== "motton" || !Array.isArray(e.bids)) return [];
  const row = (label, values) => h("tr.fact", h("th", { scope: "row" }, label), values.slice(0, width).map((x) => h("td.num", String(x))));
  return [row("Annonce", e.bids), row("Levées faites", e.tricks || [])];
}

const signed = (n) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "");

/**
 * The deal's breakdown. `full`: inside the end-of-game panel (no close button); `onClose`: the
 * player put the panel away.
 */
export function dealEndPanel(e, c, { onClose = null, full = false } = {}) {
  const b = e.breakdown;
  if (!b || !Array.isArray(b.lines)) return null;
  const team = b.per === "team";
  const width = b.total.length;
  const names = team ? [0, 1].map((i) => `${c.name(i)} & ${c.name(i + 2)}`) : Array.from({ length: width }, (_, i) => c.name(i));
  const head = h("tr", h("th", ""), names.map((n) => h("th.num", { title: n }, n)));
  const rows = b.lines.map((ln) =>
    h("tr", { dataset: { item: ln.item } }, h("th", { scope: "row" }, itemText(ln, e)), ln.points.map((p) => h("td.num", signed(p)))));
  const manche = ["barbu", "motton", "freeze", "yaniv"].includes(c.game);
  const total = h("tr.total", h("th", { scope: "row" }, manche ? "Total de la manche" : "Total de la donne"), b.total.map((p) => h("td.num", signed(p) || "0")));
  const title = manche ? "Fin de la manche" : c.game === "contrecarte" ? "Fin de la partie" : "Fin de la donne";
  const lines = headline(e, c) || [];
  return h(`div.deal-end${full ? ".full" : ""}`, { id: full ? "deal-end-last" : "deal-end", role: full ? null : "dialog", "aria-label": "comment la donne a été comptée" },
    h("div.deal-end-head", h("b", title), onClose ? h("button.btn.ghost.small", { type: "button", id: "deal-end-close", onclick: onClose, title: "Fermer" }, "OK") : null),
    lines.map((t) => h("div.small.headline", t)),
    h("div.deal-end-scroll", h("table.sheet.breakdown", h("thead", head), h("tbody", factRows(e, c, width), rows, total))));
}
