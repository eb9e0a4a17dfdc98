// French words for what the server sends: action types, fields, phases, outcomes. The client
// holds no rules: these only turn the server's names into text a player reads.

import { CC_COLORS, SUITS, cardShort } from "./cards.js";

export const ACTION_LABELS = {
  play: "Jouer",
  draw: "Piocher",
  pass: "Passer",
  contest: "Contester",
  accept: "Accepter",
  announce: "Carte !",
  catch: "Attraper",
  take: "Prendre",
  choose: "Choisir",
  name: "Choisir",
  bid: "Annoncer",
  contre: "Contrer",
  coinche: "Contrer",
  surcontre: "Surcontrer",
  surcoinche: "Surcontrer",
  decline: "Ne pas surcontrer",
  no_surcontre: "Ne pas surcontrer",
  call: "Appeler",
  call_king: "Appeler",
  ecart: "Écarter",
  discard: "Défausser",
  poignee: "Poignée",
  show_poignee: "Montrer une poignée",
  no_poignee: "Pas de poignée",
  chelem: "Annoncer un chelem",
  no_chelem: "Pas de chelem",
  declare: "Déclarer",
  no_declare: "Ne rien déclarer",
  yaniv: "Yaniv !",
  freeze: "Freeze !",
  speed: "Speed !",
  look: "Regarder",
  peek: "Regarder",
  swap: "Échanger",
  no_swap: "Ne pas échanger",
  replace: "Remplacer",
  keep: "Garder",
  skip: "Ne rien faire",
  ready: "Prêt",
  continue: "Continuer",
  next: "Suivant",
  take_discard: "Prendre la défausse",
  draw_stock: "Piocher",
  use_power: "Utiliser le pouvoir",
  seen: "Vu",
  done: "Terminé",
  deal: "Distribuer",
  undo: "Annuler",
};

/** A word for each field value the server may send in actions or views. */
export const LEVELS = {
  // the annonces of belote and contrée
  tierce: "tierce",
  cinquante: "cinquante",
  cent: "cent",
  carre_J: "carré de valets",
  carre_9: "carré de neuf",
  carre_A: "carré d'as",
  carre_T: "carré de dix",
  carre_K: "carré de rois",
  carre_Q: "carré de dames",
  petite: "Petite",
  prise: "Prise",
  garde: "Garde",
  garde_sans: "Garde sans",
  garde_contre: "Garde contre",
  simple: "Simple",
  double: "Double",
  triple: "Triple",
  capot: "Capot",
  generale: "Générale",
  "générale": "Générale",
  stock: "la pioche",
  discard: "la défausse",
  pile: "la défausse",
};

export const PHASES = {
  deal: "Donne",
  dealing: "Donne",
  bid: "Enchères",
  bidding: "Enchères",
  bidding1: "Enchères (1er tour)",
  bidding2: "Enchères (2e tour)",
  round1: "Enchères (1er tour)",
  round2: "Enchères (2e tour)",
  take: "Prise",
  contre: "Contre",
  surcontre: "Surcontre",
  call: "Appel du roi",
  choose: "Choix du contrat",
  call_king: "Appel du roi",
  chien: "Chien",
  ecart: "Écart",
  chelem: "Annonce du chelem",
  declare: "Annonces",
  declarations: "Annonces",
  poignee: "Poignées",
  play: "Jeu de la carte",
  playing: "Jeu de la carte",
  tricks: "Jeu de la carte",
  turn: "Jeu",
  contest: "Contestation du +4",
  after_draw: "Après la pioche",
  drawn: "Après la pioche",
  power: "Pouvoir",
  speed: "Speed",
  reveal: "Révélation",
  peek: "Découverte",
  scoring: "Décompte",
  deal_end: "Fin de la donne",
  round_end: "Fin de la manche",
  over: "Partie terminée",
  finished: "Partie terminée",
  deal_over: "Fin de la donne",
  end: "Fin de la donne",
  surcontre: "Surcontre ?",
  king_look: "Pouvoir du roi noir",
  king_swap: "Pouvoir du roi noir",
  spy: "Pouvoir : espionner",
  swap: "Pouvoir : échanger",
  shown: "Cartes dévoilées",
  show: "Mains dévoilées",
  draw: "Pioche",
};

export const GAME_TITLES = {
  contrecarte: "Contrecarte",
  belote: "Belote",
  contree: "Contrée",
  tarot: "Tarot",
  barbu: "Barbu",
  motton: "Motton",
  freeze: "Freeze",
  yaniv: "Yaniv",
};

export function phaseLabel(phase) {
  if (phase == null) return "";
  // a phase this file does not know yet: said with a capital, never as a raw lowercase name
  const raw = String(phase).replaceAll("_", " ");
  return PHASES[phase] || raw.charAt(0).toUpperCase() + raw.slice(1);
}

export function colorName(c) {
  return CC_COLORS[c]?.name || String(c);
}

export function suitName(s) {
  const suit = SUITS[s];
  if (suit) return `${suit.sym} ${suit.name}`;
  if (s === "NT" || s === "SA" || s === "none" || s === null) return "sans atout";
  if (s === "TA" || s === "all") return "tout atout";
  return String(s);
}

const SEAT_FIELDS = new Set(["seat", "target", "victim", "player", "opponent", "other", "partner", "target_seat", "of"]);

/** The text of one field of an action or event, in French. */
export function fieldText(key, value, ctx) {
  if (value === null || value === undefined) return "—";
  const own = ctx?.values?.[key]?.[String(value)];
  if (own) return own;
  if (key === "card" || key === "top" || key === "drawn") return cardShort(value, ctx.kind);
  if (key === "cards" && Array.isArray(value)) return value.map((c) => cardShort(c, ctx.kind)).join(" ");
  if (key === "color" || key === "colour") return colorName(value);
  if (key === "suit" || key === "trump") return suitName(value);
  if (SEAT_FIELDS.has(key) && typeof value === "number") return ctx.name(value);
  if (key === "slot" || key === "index" || key === "position") return `carte ${Number(value) + 1}`;
  if (typeof value === "boolean") return value ? "oui" : "non";
  if (typeof value === "string" && LEVELS[value]) return LEVELS[value];
  if (Array.isArray(value)) return value.map((v) => fieldText("", v, ctx)).join(", ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => fieldText(k, v, ctx)).join(" ");
  return String(value).replaceAll("_", " ");
}

/** The label of an action type; a game's renderer may name its own (ctx.labels). */
export function typeLabel(type, ctx) {
  return ctx?.labels?.[type] || ACTION_LABELS[type] || String(type).replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());
}

/** The fields of an action that are not its type. */
export function fieldsOf(action) {
  return Object.keys(action).filter((k) => k !== "type");
}

/** "Annoncer 90 ♥ cœur", "Attraper Bob", "Passer". */
export function actionText(action, ctx) {
  const words = [typeLabel(action.type, ctx)];
  for (const key of fieldsOf(action)) words.push(fieldText(key, action[key], ctx));
  return words.join(" ");
}
