// The viewer's hand: every card a button, named by what it does when it can be played, dimmed
// when it cannot; cards overlap to fit the width and wrap into rows of equal length.

import { h } from "../dom.js";
import { cardEl, cardNameWithArticle } from "../cards.js";
import { multiCandidates } from "../actions.js";
import { fieldText, fieldsOf, typeLabel } from "../labels.js";

/** The hand in the order it is shown: the game's (`handOrder`: a stable grouping, the server's
 * order inside each group), else the server's. */
export function shownHand(scene) {
  const hand = scene.view.hand;
  const key = scene.renderer.handOrder;
  if (!key) return hand;
  return hand.map((code, i) => ({ code, i, k: key(code) })).sort((a, b) => a.k - b.k || a.i - b.i).map((x) => x.code);
}

/** What the hand shows; it is drawn again only when this changes, so the card a keyboard is on
 * stays put while the others play. */
export function handKey(scene, S) {
  return JSON.stringify([scene.legal, scene.view.hand, S.selected, S.multi, S.oneClick]);
}

/** The hand's name for a screen reader: "Votre main : 8 cartes". */
export function handLabel(hand) {
  return `Votre main : ${hand.length} carte${hand.length > 1 ? "s" : ""}`;
}

/** What a card of the hand does, said in full: "Jouer le 10 de cœur", "Écarter le roi de
 * pique"; a card with variants (a colour to choose) ends in "…". */
export function cardLabel(code, actions, multiMode, scene) {
  const name = cardNameWithArticle(code, scene.kind);
  if (multiMode || !actions?.length) return `Choisir ${name}`;
  if (actions.length > 1) return `${typeLabel(actions[0].type, scene)} ${name}…`;
  const a = actions[0];
  const extra = fieldsOf(a).filter((k) => k !== "card").map((k) => fieldText(k, a[k], scene));
  return [typeLabel(a.type, scene), name, ...extra].join(" ");
}

/** The cards of the hand for `model` and the choice in `S`; `onCard(code, selected, ev)`: a
 * playable card was clicked (`selected`: it was selected). */
export function handCards(scene, model, S, onCard) {
  const candidates = model.multi.length ? multiCandidates(model.multi, S.multi) : new Set();
  const anyCard = model.byCard.size > 0 || model.multi.length > 0;
  const picked = [...S.multi];
  let selectedShown = false;
  return shownHand(scene).map((code) => {
    let selected = false;
    if (S.selected === code && !selectedShown) {
      selected = true;
      selectedShown = true;
    }
    const mi = picked.indexOf(code);
    if (mi >= 0) {
      selected = true;
      picked.splice(mi, 1);
    }
    const playable = model.byCard.has(code) || candidates.has(code) || selected;
    const multiMode = model.multi.length > 0 && (!model.byCard.has(code) || S.multi.length > 0);
    return cardEl(code, scene.kind, {
      playable,
      dimmed: anyCard && !playable,
      selected,
      button: true,
      label: playable ? cardLabel(code, model.byCard.get(code), multiMode, scene) : undefined,
      pressed: playable && (multiMode || S.selected === code) ? String(selected) : undefined,
      onclick: playable ? (ev) => onCard(code, selected, ev) : undefined,
    });
  });
}

/** What a spectator sees in place of a hand; `behind`: the table shows its spectators every
 * hand, this many moves late. */
export function spectatorNote(behind = null) {
  if (behind) {
    return h("p.muted.spectator-note", { id: "delay-note" },
      `Vous regardez la partie avec ${behind} coup${behind > 1 ? "s" : ""} de retard : toutes les mains sont montrées.`);
  }
  return h("p.muted.spectator-note", "Vous regardez la partie : les mains restent cachées.");
}

/** Cards overlap to fit the width, each showing a strip wide enough for a finger (28 px at
 * least); a hand too big for one row takes as many rows as it needs, of equal length. Measures
 * the hand as laid out, so it runs once the cards are in the page. */
export function fitHand(hand) {
  for (const br of hand.querySelectorAll(":scope > .hand-break")) br.remove();
  const cards = [...hand.querySelectorAll(":scope > .card")];
  if (!cards.length) return;
  const style = getComputedStyle(hand);
  // a pixel spare: rounded overlaps must never push a row's last card onto the next row
  const width = hand.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 2;
  const cw = cards[0].offsetWidth || 60;
  const strip = Math.max(28, cw * 0.5);
  const n = cards.length;
  const fits = Math.max(1, Math.floor((width - cw) / strip) + 1);
  const rows = Math.ceil(n / fits);
  const perRow = Math.ceil(n / rows);
  const gap = perRow > 1 ? Math.min(6, Math.floor(((width - perRow * cw) / (perRow - 1)) * 10) / 10) : 0;
  cards.forEach((el, i) => {
    const first = i % perRow === 0;
    el.style.marginLeft = first ? "0" : `${gap}px`;
    if (first && i > 0) el.before(h("span.hand-break", { "aria-hidden": "true" }));
  });
  hand.classList.toggle("tight", gap < 0);
  hand.classList.toggle("two-rows", rows > 1);
}
