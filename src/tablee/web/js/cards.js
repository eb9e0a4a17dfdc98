// Cards drawn with HTML and CSS (no images): French 32/52/54, tarot 78 and Contrecarte 108,
// read from the stable notation of the server (see tablee/cards.py).

import { h } from "./dom.js";

export const SUITS = {
  S: { sym: "♠", name: "pique", red: false },
  H: { sym: "♥", name: "cœur", red: true },
  D: { sym: "♦", name: "carreau", red: true },
  C: { sym: "♣", name: "trèfle", red: false },
};

export const CC_COLORS = {
  R: { name: "rouge", css: "r" },
  B: { name: "bleu", css: "b" },
  G: { name: "vert", css: "g" },
  Y: { name: "jaune", css: "y" },
};

const FRENCH_RANK = { T: "10", J: "V", Q: "D", K: "R", A: "A" };
const FRENCH_RANK_NAME = { T: "10", J: "valet", Q: "dame", K: "roi", A: "as" };
const TAROT_RANK = { T: "10", J: "V", C: "C", Q: "D", K: "R", 1: "1" };
const TAROT_RANK_NAME = { T: "10", J: "valet", C: "cavalier", Q: "dame", K: "roi", 1: "as" };
const CC_FACE = { S: "⊘", R: "⇄" };
const CC_FACE_NAME = { S: "passe", R: "inversion" };

/** Which notation a game's cards use. */
export function deckKind(game) {
  if (game === "tarot") return "tarot";
  if (game === "contrecarte") return "cc";
  return "french";
}

/** The parts of a card: { kind, rank, suit, color, label, name, red }. */
export function parseCard(code, kind = "french") {
  code = String(code);
  if (kind === "cc") {
    if (code === "W") return { kind, wild: true, face: "W", label: "Joker", name: "joker" };
    if (code === "W+4") return { kind, wild: true, face: "+4", label: "+4", name: "+4" };
    const color = code[0];
    const face = code.slice(1);
    const c = CC_COLORS[color] || { name: color, css: "" };
    return {
      kind,
      color,
      face,
      label: CC_FACE[face] || face,
      name: `${CC_FACE_NAME[face] || face} ${c.name}`,
    };
  }
  if (kind === "tarot") {
    if (code === "EX") return { kind, excuse: true, label: "★", name: "l'Excuse" };
    if (code[0] === "A" && /^A\d+$/.test(code)) {
      const n = code.slice(1);
      return { kind, trump: true, rank: n, label: n, name: n === "1" ? "le Petit" : `atout ${n}` };
    }
    const rank = code[0];
    const suit = SUITS[code[1]] || { sym: "?", name: code[1] };
    return {
      kind,
      rank,
      suit: code[1],
      sym: suit.sym,
      red: suit.red,
      label: TAROT_RANK[rank] || rank,
      name: `${TAROT_RANK_NAME[rank] || rank} de ${suit.name}`,
    };
  }
  if (code === "X1" || code === "X2") return { kind, joker: true, label: "★", name: "joker" };
  const rank = code[0];
  const suit = SUITS[code[1]] || { sym: "?", name: code[1] };
  return {
    kind,
    rank,
    suit: code[1],
    sym: suit.sym,
    red: suit.red,
    label: FRENCH_RANK[rank] || rank,
    name: `${FRENCH_RANK_NAME[rank] || rank} de ${suit.name}`,
  };
}

/** A readable French name: "10 de cœur", "atout 21", "+4", "2 vert". */
export function cardName(code, kind) {
  return parseCard(code, kind).name;
}

/** The name with its article, as said in a sentence: "le 10 de cœur", "la dame de pique",
 * "l'as de trèfle", "l'atout 21", "le Petit", "l'Excuse", "le +2 vert". */
export function cardNameWithArticle(code, kind) {
  const c = parseCard(code, kind);
  const name = c.name;
  if (/^(le |la |l')/i.test(name)) return name;
  if (c.rank === "Q") return `la ${name}`;
  return /^[aeiouyéèêh]/i.test(name) ? `l'${name}` : `le ${name}`;
}

/** A short inline text for logs: "10♥", "R♠", "21", "+2 vert". */
export function cardShort(code, kind) {
  const c = parseCard(code, kind);
  if (c.kind === "cc") return c.wild ? c.name : `${c.label} ${CC_COLORS[c.color]?.name || ""}`.trim();
  if (c.trump) return `atout ${c.rank}`;
  if (c.excuse) return "Excuse";
  if (c.joker) return "joker";
  return `${c.label}${c.sym}`;
}

/** An inline card chip for logs and lists (small, coloured). */
export function cardChip(code, kind) {
  const c = parseCard(code, kind);
  const cls = c.kind === "cc" ? `chip cc ${CC_COLORS[c.color]?.css || "w"}` : `chip ${c.red ? "red" : ""}`;
  return h(`span.${cls.trim().split(/\s+/).join(".")}`, { title: c.name }, cardShort(code, kind));
}

/**
 * A card element. options: { playable, dimmed, selected, small, onclick, faceDown, button,
 * label, pressed }. `button`: a button even when it cannot be clicked (disabled), as the cards
 * of a hand are, so a screen reader lists them all; `label`: its accessible name when clicking
 * it does something ("Jouer le 10 de cœur"), the card's name otherwise.
 * The element carries data-card="CODE" (tests and the table page find cards by it).
 */
export function cardEl(code, kind, options = {}) {
  if (code == null || options.faceDown) return backEl(kind, options);
  const c = parseCard(code, kind);
  const classes = ["card", c.kind];
  if (c.red) classes.push("red");
  if (c.kind === "cc") classes.push(c.wild ? "w" : CC_COLORS[c.color]?.css || "w");
  if (c.trump) classes.push("trump");
  if (c.excuse || c.joker) classes.push("star");
  if (options.small) classes.push("small");
  if (options.playable) classes.push("playable");
  if (options.dimmed) classes.push("dimmed");
  if (options.selected) classes.push("selected");
  const button = Boolean(options.onclick || options.button);
  const el = h(button ? "button" : "div", {
    class: classes.join(" "),
    dataset: { card: code },
    title: c.name,
    "aria-label": options.label || c.name,
    "aria-pressed": options.pressed,
    // a drawn card (in a trick, on a pile) is a picture with a name, which a screen reader says
    role: button ? undefined : "img",
    type: button ? "button" : undefined,
    disabled: button && !options.onclick,
    onclick: options.onclick,
  });
  if (c.kind === "cc") {
    el.append(
      h("span.corner.tl", c.label),
      h("span.oval", c.wild ? h("span.wheel") : null, h("span.face", c.wild && c.face === "W" ? "" : c.label)),
      h("span.corner.br", c.label),
    );
  } else if (c.trump) {
    el.append(h("span.corner.tl", c.label), h("span.big", c.label), h("span.corner.br", c.label));
  } else if (c.excuse || c.joker) {
    el.append(h("span.big", "★"), h("span.caption", c.excuse ? "Excuse" : "Joker"));
  } else {
    el.append(
      h("span.corner.tl", h("b", c.label), h("i", c.sym)),
      h("span.big", c.sym),
      h("span.corner.br", h("b", c.label), h("i", c.sym)),
    );
  }
  return el;
}

export function backEl(kind, options = {}) {
  const classes = ["card", "back", kind || "french"];
  if (options.small) classes.push("small");
  if (options.playable) classes.push("playable");
  if (options.selected) classes.push("selected");
  return h(options.onclick ? "button" : "div", {
    class: classes.join(" "),
    title: options.title || "carte cachée",
    "aria-label": options.label || options.title || "carte cachée",
    "aria-pressed": options.pressed,
    role: options.onclick ? undefined : "img",
    type: options.onclick ? "button" : undefined,
    onclick: options.onclick,
    dataset: options.dataset,
  });
}
