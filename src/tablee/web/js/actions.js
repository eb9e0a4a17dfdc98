// The generic actions panel: every action the server lists in `legal` gets a control. Cards of the
// hand are played by selecting them (see table.js); everything else becomes buttons grouped by
// action type, with a step per varying field when a group is large (bid value, then suit).

import { h } from "./dom.js";
import { cardChip, cardNameWithArticle, cardShort, parseCard } from "./cards.js";
import { actionText, fieldText, fieldsOf, typeLabel } from "./labels.js";

/** Splits the legal actions: single cards of the hand, groups of cards of the hand, the rest. */
export function analyse(legal, hand) {
  const inHand = new Set(hand || []);
  // A type whose cards are not all in the hand (a king called, a card drawn back from the
  // discard) is a choice among cards, not a card to play from the hand: it gets buttons.
  const elsewhere = new Set();
  for (const action of legal || []) {
    if (typeof action.card === "string" && !inHand.has(action.card)) elsewhere.add(action.type);
    if (Array.isArray(action.cards) && !action.cards.every((c) => inHand.has(c))) elsewhere.add(action.type);
  }
  const byCard = new Map();
  const multi = [];
  const others = [];
  for (const action of legal || []) {
    if (elsewhere.has(action.type)) {
      others.push(action);
    } else if (typeof action.card === "string") {
      if (!byCard.has(action.card)) byCard.set(action.card, []);
      byCard.get(action.card).push(action);
    } else if (Array.isArray(action.cards) && action.cards.length) {
      multi.push(action);
    } else {
      others.push(action);
    }
  }
  return { byCard, multi, others };
}

export function sameCards(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((c, i) => c === y[i]);
}

/** Cards that can still join the current multi-card selection. */
export function multiCandidates(multi, selected) {
  const out = new Set();
  for (const action of multi) {
    const pool = [...action.cards];
    let fits = true;
    for (const c of selected) {
      const i = pool.indexOf(c);
      if (i < 0) {
        fits = false;
        break;
      }
      pool.splice(i, 1);
    }
    if (fits) for (const c of pool) out.add(c);
  }
  return out;
}

/** The keys whose values differ between actions (type included when types differ). */
function varying(actions, skip = []) {
  const keys = [];
  const all = new Set(actions.flatMap((a) => Object.keys(a)));
  for (const key of all) {
    if (skip.includes(key)) continue;
    const values = new Set(actions.map((a) => JSON.stringify(a[key] ?? null)));
    if (values.size > 1) keys.push(key);
  }
  // the type first, seats and colours before numbers: reads as a sentence
  return keys.sort((a, b) => (a === "type" ? -1 : b === "type" ? 1 : 0));
}

function valueButton(action, key, value, ctx, onPick, extraClass = "") {
  let label = key === "type" ? typeLabel(value, ctx) : fieldText(key, value, ctx);
  const classes = ["btn", "choice"];
  if (extraClass) classes.push(extraClass);
  if (key === "color" || key === "colour") classes.push(`swatch`, `cc-${value}`);
  if (key === "suit" && ["H", "D"].includes(value)) classes.push("red-suit");
  // a card named on a button (a king called) is red when its suit is, as on the cards
  let title;
  let spoken;
  if (key === "card" && typeof value === "string") {
    const card = parseCard(value, ctx.kind);
    if (card.red) classes.push("red-suit");
    title = card.name;
    // "R♥" read aloud says little: "Appeler le roi de cœur"
    spoken = `${typeLabel(action.type, ctx)} ${cardNameWithArticle(value, ctx.kind)}`;
  }
  if (key === "cards" && Array.isArray(value)) label = value.map((c) => cardShort(c, ctx.kind)).join(" ");
  return h("button", {
    type: "button",
    class: classes.join(" "),
    title,
    "aria-label": spoken,
    dataset: { type: action.type, key, value: JSON.stringify(value) },
    onclick: onPick,
  }, label);
}

function actionButton(action, ctx, send, label, cls = "") {
  return h("button", {
    type: "button",
    class: `btn action ${cls}`.trim(),
    dataset: { type: action.type, action: JSON.stringify(action) },
    onclick: () => send(action),
  }, label ?? actionText(action, ctx));
}

/**
 * A chooser for a set of actions that differ in some fields: one row of buttons per field, in
 * order; a value picked narrows the next row; the last pick sends the action.
 */
export function chooser(actions, ctx, send, { title, skip = [], primary = false } = {}) {
  const box = h("div.group", { role: "group", "aria-label": title?.replace(/\s*:$/, "") });
  const keys = varying(actions, skip);
  const chosen = [];
  const draw = () => {
    box.replaceChildren();
    if (title) box.append(h("div.group-title", title));
    let pool = actions;
    for (const [key, value] of chosen) pool = pool.filter((a) => JSON.stringify(a[key] ?? null) === value);
    const row = h("div.row");
    box.append(row);
    if (pool.length === 1 && chosen.length) {
      // every field chosen: the last click already sent it
      return;
    }
    const level = chosen.length;
    if (level >= keys.length || pool.length === 1) {
      for (const action of pool) row.append(actionButton(action, ctx, send, undefined, primary ? "primary" : ""));
      return;
    }
    const key = keys[level];
    const seen = new Map();
    for (const action of pool) {
      const v = JSON.stringify(action[key] ?? null);
      if (!seen.has(v)) seen.set(v, action);
    }
    if (chosen.length) {
      const crumbs = chosen.map(([k, v]) => (k === "type" ? typeLabel(JSON.parse(v), ctx) : fieldText(k, JSON.parse(v), ctx)));
      row.append(h("button", { type: "button", class: "btn ghost back", "aria-label": `Revenir sur ${crumbs.join(" ")}`, onclick: () => { chosen.pop(); redraw(); } }, `← ${crumbs.join(" ")}`));
    }
    for (const [v, action] of seen) {
      const rest = pool.filter((a) => JSON.stringify(a[key] ?? null) === v);
      row.append(
        valueButton(action, key, action[key], ctx, () => {
          if (rest.length === 1) send(rest[0]);
          else {
            chosen.push([key, v]);
            redraw();
          }
        }),
      );
    }
  };
  // the row a keyboard was on is gone: it goes on to the next row's first choice
  const redraw = () => {
    const hadFocus = box.contains(document.activeElement);
    draw();
    if (hadFocus) (box.querySelector("button:not(.back)") || box.querySelector("button"))?.focus();
  };
  draw();
  return box;
}

/** Small groups: one button per action with its whole label. Large ones: the stepwise chooser. */
export function groupControls(type, actions, ctx, send) {
  if (actions.length === 1) {
    return h("div.group", actionButton(actions[0], ctx, send, undefined, primaryTypes.has(type) ? "primary" : ""));
  }
  const keys = varying(actions);
  if (actions.length <= 6 && keys.length === 1) {
    const key = keys[0];
    return h(
      "div.group",
      { role: "group", "aria-label": typeLabel(type, ctx) },
      h("div.group-title", typeLabel(type, ctx)),
      h("div.row", actions.map((a) => valueButton(a, key, a[key], ctx, () => send(a)))),
    );
  }
  return chooser(actions, ctx, send, { title: typeLabel(type, ctx) });
}

const primaryTypes = new Set(["announce", "yaniv", "freeze", "contest", "take", "speed"]);

/** The non-card actions, grouped by type in the server's order. */
export function otherControls(others, ctx, send) {
  const groups = new Map();
  for (const action of others) {
    if (!groups.has(action.type)) groups.set(action.type, []);
    groups.get(action.type).push(action);
  }
  return [...groups].map(([type, actions]) => groupControls(type, actions, ctx, send));
}

/** The controls for a selected card: confirm, or the choice among its variants (colours). */
export function cardControls(card, actions, ctx, send) {
  const name = cardShort(card, ctx.kind);
  if (actions.length === 1) {
    const a = actions[0];
    const extra = fieldsOf(a).filter((k) => k !== "card");
    // the card as a chip of its own colours: a red suit stays red on the dark button
    const label = [`${typeLabel(a.type, ctx)} `, cardChip(card, ctx.kind), ...extra.map((k) => ` ${fieldText(k, a[k], ctx)}`)];
    return h("div.group", actionButton(a, ctx, send, label, "primary confirm"));
  }
  return chooser(actions, ctx, send, { title: `${typeLabel(actions[0].type, ctx)} ${name} :`, skip: ["card"], primary: true });
}

/** The controls for a multi-card selection (yaniv discards, an écart given at once). */
export function multiControls(multi, selected, ctx, send) {
  const matches = multi.filter((a) => sameCards(a.cards, selected));
  const type = typeLabel(multi[0].type, ctx);
  if (!selected.length) {
    return h("div.group.hint", `${type} : choisissez des cartes de votre main.`);
  }
  if (!matches.length) {
    return h("div.group.hint", `${type} ${selected.map((c) => cardShort(c, ctx.kind)).join(" ")} : complétez la sélection.`);
  }
  const title = `${type} ${selected.map((c) => cardShort(c, ctx.kind)).join(" ")}`;
  const chips = selected.flatMap((c) => [" ", cardChip(c, ctx.kind)]);
  if (matches.length === 1) return h("div.group", actionButton(matches[0], ctx, send, [type, ...chips], "primary confirm"));
  return chooser(matches, ctx, send, { title: `${title} :`, skip: ["cards"], primary: true });
}
