// Drawing helpers shared by the per-game renderers, and the default renderer: it draws any trick
// game or pile game from the common view keys (see the project brief, "Views"); a game has code
// of its own (js/games/) only where its layout really differs.

import { h } from "./dom.js";
import { backEl, cardEl, CC_COLORS } from "./cards.js";
import { colorName, fieldText, suitName } from "./labels.js";

/** The cards of a trick, each pushed from the centre towards the seat that played it. */
export function trickArea(trick, ctx, { small = false, winner = null, id = "trick" } = {}) {
  const area = h("div.trick-area", { id });
  (trick || []).forEach((t, i) => {
    const a = ctx.seatAngle(t.seat);
    const el = cardEl(t.card, ctx.kind, { small });
    el.classList.add("in-trick");
    el.dataset.seat = String(t.seat);
    if (winner != null && t.seat === winner) el.classList.add("winner");
    el.style.left = `${50 + 26 * Math.cos(a)}%`;
    el.style.top = `${50 + 24 * Math.sin(a)}%`;
    el.style.zIndex = String(i + 1);
    area.append(el);
  });
  return area;
}

/** A row of small cards with a caption (the chien, an écart, a poignée). */
export function cardRow(cards, ctx, caption, id) {
  return h("div.card-row", { id },
    caption ? h("div.caption-line", caption) : null,
    h("div.row.tight", cards.map((c) => cardEl(c, ctx.kind, { small: true }))));
}

export function bidText(b, ctx) {
  if (b == null) return "";
  if (typeof b !== "object") return fieldText("level", b, ctx);
  if (b.type === "pass" || b.pass || b.bid === "pass" || b.value === "pass" || b.contract === "pass") return "passe";
  const parts = [];
  for (const [k, val] of Object.entries(b)) {
    if (["seat", "type", "taker", "bidder"].includes(k)) continue;
    if (k === "suit" || k === "trump") parts.push(suitName(val));
    else parts.push(fieldText(k, val, ctx));
  }
  return parts.join(" ");
}

export function chip(label, value, { id, cls = "" } = {}) {
  return h(`span.info-chip${cls ? `.${cls}` : ""}`, { id }, label ? `${label} ` : null, h("b", value));
}

/** A suit's name, red for hearts and diamonds as on the cards ("♥ cœur"). */
export function suitEl(suit) {
  return h("span", { class: ["H", "D"].includes(suit) ? "red" : "" }, suitName(suit));
}

export function trumpChip(v) {
  if (v.trump == null || !(v.trump in { S: 1, H: 1, D: 1, C: 1 })) return null;
  return chip("Atout :", suitEl(v.trump), { id: "trump", cls: "trump" });
}

export function lastTrickBox(v, ctx) {
  const lt = v.last_trick;
  if (!lt || !ctx.showLast) return null;
  return h("div.last-trick.panel", { id: "last-trick" },
    h("div.small", `Dernier pli, pour ${ctx.name(lt.winner)}`),
    h("div.row.nowrap", (lt.cards || []).map((t) =>
      h("div.lt-card", { class: t.seat === lt.winner ? "won" : "" }, cardEl(t.card, ctx.kind, { small: true }), h("small", ctx.name(t.seat))))));
}

export function bidsList(v, ctx) {
  if (!Array.isArray(v.bids) || !v.bids.length) return null;
  return h("ol.bids-list", { id: "bids" }, v.bids.slice(-8).map((b) => h("li", h("b", ctx.name(b.seat)), " : ", bidText(b, ctx))));
}

/** Piles of shedding and drawing games: stock, discard top, the colour in force, the direction. */
export function piles(v, ctx) {
  const stock = v.stock ?? v.stock_count ?? v.draw_pile;
  const top = v.top ?? v.discard_top ?? (Array.isArray(v.discard) ? v.discard[v.discard.length - 1] : typeof v.discard === "string" ? v.discard : null);
  if (stock == null && top == null) return null;
  const row = h("div.piles");
  if (stock != null) {
    const n = Array.isArray(stock) ? stock.length : stock;
    row.append(h("div.pile.stock", { id: "stock" }, n ? backEl(ctx.kind) : h("div.card.empty-slot"), h("small", `pioche : ${n}`)));
  }
  if (top != null) row.append(h("div.pile.discard", { id: "discard" }, cardEl(top, ctx.kind), h("small", "défausse")));
  const color = v.color ?? v.colour;
  if (color && CC_COLORS[color]) row.append(h("div.in-force", { id: "color" }, h(`span.swatch.cc-${color}`), h("small", `couleur : ${colorName(color)}`)));
  return row;
}

export const TEAM_GAMES = new Set(["belote", "contree"]);

export const DEFAULT = {
  labels: {},
  team(v, seat) {
    if (Array.isArray(v?.teams)) {
      const i = v.teams.findIndex((t) => Array.isArray(t) && t.includes(seat));
      return i >= 0 ? i : null;
    }
    if (TEAM_GAMES.has(v?.game)) return seat % 2;
    return null;
  },
  teamName(i, ctx) {
    if (ctx && ctx.n === 4) return `${ctx.name(i)} & ${ctx.name(i + 2)}`;
    return `Équipe ${i + 1}`;
  },
  bubble(v, seat, ctx) {
    if (!Array.isArray(v.bids) || (v.trick && v.trick.length) || (v.phase && /play/.test(v.phase))) return null;
    const mine = v.bids.filter((b) => b.seat === seat);
    if (!mine.length) return null;
    return bidText(mine[mine.length - 1], ctx);
  },
  chips(v, ctx) {
    const out = [trumpChip(v)];
    if (v.contract && typeof v.contract === "object") {
      const c = v.contract;
      const who = c.seat ?? c.taker ?? c.bidder;
      out.push(chip("Contrat :", `${who != null ? `${ctx.name(who)}, ` : ""}${bidText(c, ctx)}`, { id: "contract" }));
    }
    return out.filter(Boolean);
  },
  center(v, ctx) {
    return [
      "trick" in v ? trickArea(v.trick, ctx) : null,
      piles(v, ctx),
      lastTrickBox(v, ctx),
    ].filter(Boolean);
  },
};
