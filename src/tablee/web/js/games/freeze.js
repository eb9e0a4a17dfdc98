// Freeze: every seat's layout of two lines of face-down cards, with the cards this viewer knows
// face up; positions become clickable when an action needs one (take, replace, peek, speed on your
// own cards; spy on another's; swap: one of yours and one of theirs).

import { h } from "../dom.js";
import { backEl, cardEl, cardNameWithArticle } from "../cards.js";
import { otherControls } from "../actions.js";
import { chip } from "../render.js";

const MINE = new Set(["take", "replace", "peek", "speed"]);
const POSITIONAL = new Set([...MINE, "spy", "swap"]);
const MODE_LABELS = {
  take: "Prendre la défausse…",
  replace: "Garder la carte piochée…",
  peek: "Regarder une de vos cartes…",
  speed: "Speed !…",
  spy: "Regarder une carte adverse…",
  swap: "Échanger…",
};
const MODE_HINTS = {
  take: "Cliquez la carte de votre jeu que la carte de la défausse remplace.",
  replace: "Cliquez la carte de votre jeu que la carte piochée remplace.",
  peek: "Cliquez une de vos cartes pour la regarder.",
  speed: "Cliquez une de vos cartes de même valeur que la défausse.",
  spy: "Cliquez une carte d'un adversaire pour la regarder.",
  swap: "Cliquez une de vos cartes et une carte d'un adversaire.",
};
const POWERS = { peek: "regarder une de ses cartes", spy: "regarder une carte adverse", swap: "échanger à l'aveugle", king: "regarder puis échanger" };

function modes(legal) {
  return [...new Set(legal.filter((a) => POSITIONAL.has(a.type)).map((a) => a.type))];
}

/** The mode in use: the one picked, or the only positional one (a power phase). */
function currentMode(c) {
  const ms = modes(c.legal);
  if (c.ui.mode && ms.includes(c.ui.mode)) return c.ui.mode;
  const main = c.legal.filter((a) => !POSITIONAL.has(a.type) && a.type !== "pass");
  if (ms.length === 1 && !main.length) return ms[0];
  return null;
}

/** The actions a click on a position would complete, in the current mode. */
function matching(c, mode, pos) {
  const sw = c.ui.swap || {};
  return c.legal.filter((a) => {
    if (a.type !== mode) return false;
    if (mode === "spy") return a.target === pos.seat && a.line === pos.line && a.slot === pos.slot;
    if (mode === "swap") {
      const mine = pos.seat === c.mySeat ? pos : sw.mine;
      const theirs = pos.seat !== c.mySeat ? pos : sw.theirs;
      if (mine && (a.line !== mine.line || a.slot !== mine.slot)) return false;
      if (theirs && (a.target !== theirs.seat || a.target_line !== theirs.line || a.target_slot !== theirs.slot)) return false;
      return true;
    }
    return pos.seat === c.mySeat && a.line === pos.line && a.slot === pos.slot;
  });
}

function clickPosition(c, mode, pos) {
  const acts = matching(c, mode, pos);
  if (!acts.length) return;
  if (mode === "swap") {
    const sw = { ...(c.ui.swap || {}) };
    if (pos.seat === c.mySeat) sw.mine = pos;
    else sw.theirs = pos;
    if (sw.mine && sw.theirs && acts.length === 1) {
      c.ui.swap = null;
      c.ui.mode = null;
      c.send(acts[0]);
      return;
    }
    c.ui.swap = sw;
    c.rerender();
    return;
  }
  c.ui.mode = null;
  c.send(acts[0]);
}

/** A position said in French: the card when this viewer knows it ("le roi de cœur"), else its
 * place ("votre carte ligne 1, place 2", "la carte de Robot 2 ligne 1, place 2"). */
function positionName(code, pos, c) {
  const place = `ligne ${pos.line + 1}, place ${pos.slot + 1}`;
  const whose = pos.seat === c.mySeat ? "votre carte" : `la carte de ${c.name(pos.seat)}`;
  return code ? `${cardNameWithArticle(code, "french")} (${whose} ${place})` : `${whose} ${place}`;
}

/** What a tap on a position does, said in full for a screen reader. */
function positionLabel(mode, code, pos, c) {
  const what = positionName(code, pos, c);
  if (mode === "take") return `Remplacer ${what} par la carte de la défausse`;
  if (mode === "replace") return `Remplacer ${what} par la carte piochée`;
  if (mode === "peek" || mode === "spy") return `Regarder ${what}`;
  if (mode === "speed") return `Speed avec ${what}`;
  if (mode === "swap") return `Échanger ${what}`;
  return what;
}

/** One layout (two lines) as cards; `big` for the viewer's own. */
function layout(lines, seat, c, { big = false } = {}) {
  const mode = currentMode(c);
  const sw = c.ui.swap || {};
  const box = h(`div.layout${big ? ".mine" : ""}`, { dataset: { layout: seat } });
  (lines || []).forEach((line, li) => {
    const row = h("div.layout-line");
    (line || []).forEach((code, si) => {
      const pos = { seat, line: li, slot: si };
      const live = mode && matching(c, mode, pos).length > 0;
      const picked = (sw.mine && seat === c.mySeat && sw.mine.line === li && sw.mine.slot === si)
        || (sw.theirs && sw.theirs.seat === seat && sw.theirs.line === li && sw.theirs.slot === si);
      const looked = c.view.looked && c.view.looked.target === seat && c.view.looked.line === li && c.view.looked.slot === si;
      const opts = {
        small: !big,
        playable: live,
        selected: picked,
        onclick: live ? () => clickPosition(c, mode, pos) : undefined,
        label: live ? positionLabel(mode, code, pos, c) : undefined,
        pressed: live && mode === "swap" ? String(Boolean(picked)) : undefined,
      };
      const el = code ? cardEl(code, "french", opts) : backEl("french", { ...opts, title: positionName(null, pos, c) });
      el.dataset.line = String(li);
      el.dataset.slot = String(si);
      if (looked) el.classList.add("looked");
      row.append(el);
    });
    box.append(row);
  });
  return box;
}

export default {
  labels: {
    draw: "Piocher",
    discard: "Défausser la carte piochée",
    freeze: "Freeze !",
    pass: "Passer",
    deal: "Manche suivante",
  },
  scoresTitle: "Points (le plus bas gagne)",
  chips(v, c) {
    const out = [];
    if (v.frozen != null) out.push(chip("", `${c.name(v.frozen)} a gelé (freeze)`, { cls: "hot" }));
    if (v.speed === "open") out.push(chip("", "speed possible", { id: "speed-open" }));
    return out;
  },
  seatExtras(v, seat, c) {
    if (seat === c.mySeat && v.hand) return [];
    const lines = v.layouts?.[seat];
    return lines ? [layout(lines, seat, c)] : [];
  },
  center(v, c) {
    const draw = c.legal.find((a) => a.type === "draw");
    const top = Array.isArray(v.discard) && v.discard.length ? v.discard[v.discard.length - 1] : null;
    const row = h("div.piles",
      h("div.pile.stock", { id: "stock" },
        v.stock ? backEl("french", { playable: !!draw, onclick: draw ? () => c.send(draw) : undefined, title: "Piocher" }) : h("div.card.empty-slot"),
        h("small", `pioche : ${v.stock}`)),
      h("div.pile.discard", { id: "discard" }, top ? cardEl(top, "french") : h("div.card.empty-slot"), h("small", "défausse")));
    const parts = [row];
    if (v.holding != null) {
      parts.push(h("div.turned", { id: "drawn" },
        v.drawn ? cardEl(v.drawn, "french") : backEl("french"),
        h("small", v.drawn ? "votre carte piochée" : `${c.name(v.holding)} tient une carte`)));
    }
    if ((v.phase === "shown" || v.phase === "over") && Array.isArray(v.points)) {
      parts.push(h("div.result-box", v.points.map((p, i) => h("div.small", `${c.name(i)} : ${p} point${Math.abs(p) > 1 ? "s" : ""}`))));
    }
    return parts;
  },
  hand(v, c) {
    const mine = v.hand || v.layouts?.[c.mySeat];
    return h("div.hand-layout", h("div.caption-line.dark", "Votre jeu (vous connaissez les cartes montrées)"), layout(mine, c.mySeat, c, { big: true }));
  },
  panel(model, c) {
    const ms = modes(c.legal);
    const mode = currentMode(c);
    const rest = c.legal.filter((a) => !POSITIONAL.has(a.type));
    const out = h("div.group-row");
    if (mode) {
      out.append(h("div.group.hint", MODE_HINTS[mode]));
      if (c.ui.mode || c.ui.swap) {
        out.append(h("button.btn.ghost", { type: "button", onclick: () => { c.ui.mode = null; c.ui.swap = null; c.rerender(); } }, "Annuler"));
      }
    }
    for (const m of ms) {
      if (m === mode) continue;
      out.append(h("button.btn.mode", { type: "button", class: m === "speed" ? "primary" : "", dataset: { mode: m }, onclick: () => { c.ui.mode = m; c.ui.swap = null; c.rerender(); } }, MODE_LABELS[m] ?? m));
    }
    out.append(...otherControls(rest, c, c.send));
    return out;
  },
  prompt(v, legal) {
    const types = new Set(legal.map((a) => a.type));
    if (v.phase === "drawn") return "Défaussez la carte piochée, ou gardez-la à la place d'une des vôtres.";
    if (v.phase === "peek") return "Pouvoir : regardez une de vos cartes.";
    if (v.phase === "spy" || v.phase === "king_look") return "Pouvoir : regardez une carte d'un adversaire.";
    if (v.phase === "swap") return "Pouvoir : échangez une de vos cartes avec une carte adverse, sans les voir.";
    if (v.phase === "king_swap") return "Échangez la carte regardée avec une des vôtres, ou passez.";
    if (types.has("deal")) return "Manche terminée : distribuez la suivante.";
    if (types.has("speed") && !types.has("draw") && !types.has("take")) return "Speed possible : une de vos cartes a la valeur de la défausse ?";
    return null;
  },
  sheet(hist, v, c) {
    const head = [h("th", "Manche")];
    for (let i = 0; i < c.n; i++) head.push(h("th", c.name(i)));
    const rows = hist.map((r, k) => h("tr", h("td", String(r.round ?? k + 1)), (r.scores ?? r.points ?? r).map?.((x) => h("td.num", String(x))) ?? []));
    return h("div.sheet-scroll", h("table.sheet", h("thead", h("tr", head)), h("tbody", rows)));
  },
  formatters: {
    see: () => null,
    deal: (e, c) => `Manche ${e.round} : ${c.who(e)} distribue.`,
    draw: (e, c) => (e.card ? `Vous piochez ${c.card(e.card)}.` : `${c.who(e)} pioche.`),
    discard: (e, c) => `${c.who(e)} défausse ${c.card(e.card)}${e.power ? ` (pouvoir : ${POWERS[e.power] ?? e.power})` : ""}.`,
    replace: (e, c) => `${c.who(e)} garde sa carte et défausse ${c.card(e.card)}.`,
    take: (e, c) => `${c.who(e)} prend ${c.card(e.card)} dans la défausse et défausse ${c.card(e.discarded)}.`,
    freeze: (e, c) => `${c.who(e)} : « Freeze ! » Chacun joue encore un tour.`,
    pass: (e, c) => `${c.who(e)} passe.`,
    peek: (e, c) => (e.card ? `Vous regardez votre carte : ${c.card(e.card)}.` : `${c.who(e)} regarde une de ses cartes.`),
    spy: (e, c) => (e.card ? `Vous regardez une carte de ${c.name(e.target)} : ${c.card(e.card)}.` : `${c.who(e)} regarde une carte de ${c.name(e.target)}.`),
    swap: (e, c) => `${c.who(e)} échange une carte avec ${c.name(e.target)}.`,
    speed: (e, c) => (e.good ? `Speed ! ${c.who(e)} pose ${c.card(e.card)}.` : `${c.who(e)} tente un speed avec ${c.card(e.card)} : raté, carte de pénalité.`),
    penalty: (e, c) => `${c.who(e)} reçoit une carte de pénalité.`,
    reshuffle: () => "La défausse est mélangée pour refaire la pioche.",
    deal_end: (e, c) => `Fin de la manche : ${(e.points || []).map((p, i) => `${c.name(i)} ${p}`).join(", ")}.`,
  },
};
