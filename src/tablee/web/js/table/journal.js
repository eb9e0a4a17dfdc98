// The journal: the events of each state as French sentences (events.js, and the game's own
// formatters), and the log region that shows them.

import { h } from "../dom.js";
import { describeEvent } from "../events.js";

/** Lines kept, lines on screen. */
export const LOG_MAX = 300;
export const LOG_SHOWN = 80;

/** Events without the public twin of a private event this viewer also got (the drawer sees
 * "you draw 7♥", not also "Alice draws a card"). */
export function withoutPublicTwins(events) {
  return events.filter((e) => !events.some((o) => o !== e && o.type === e.type && o.seat === e.seat
    && Object.keys(o).length > Object.keys(e).length
    && Object.keys(e).every((k) => k === "count" || JSON.stringify(o[k]) === JSON.stringify(e[k]))));
}

/** Each event worth telling, with its sentence (`text` null: not worth a line). */
export function describeEvents(events, scene) {
  const c = { ...scene, formatters: scene.renderer.formatters };
  return withoutPublicTwins(events).map((event) => ({ event, text: describeEvent(event, c) }));
}

/** Events that also show as a notice on the felt: a move nobody at the table chose, a seat a
 * robot now plays (for good, or for its person until they take it back), a person back. */
export const noticeWorthy = (e) => e.type === "auto" || (e.type === "player_left" && e.replaced_by === "bot")
  || e.type === "handed_to_robot" || e.type === "player_back";

/**
 * Adds to the log list the lines after `shown` (the seq of the last one on it) and returns the
 * new last seq. Only new lines are added: a live region says what is added, and the whole list
 * drawn again would be read again.
 */
export function appendJournal(list, lines, shown) {
  const fresh = lines.filter((l) => l.seq > shown).slice(-LOG_SHOWN);
  if (!fresh.length) return shown;
  list.append(...fresh.map((l) => h("li", { class: `ev-${l.type}${l.mine ? " mine" : ""}`, dataset: { seq: l.seq } }, l.text)));
  while (list.children.length > LOG_SHOWN) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
  return fresh[fresh.length - 1].seq;
}
