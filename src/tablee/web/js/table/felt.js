// The felt: its top line, the chips, then the surface with the centre (the game's: a trick,
// piles, layouts) and the seats around it.

import { h } from "../dom.js";
import { trickArea } from "../render.js";
import { feltHeader, infoChips } from "./header.js";
import { dealEndPanel } from "./dealend.js";
import { seatsLayer } from "./seats.js";

/** A completed trick kept on the felt a moment (`scene.held`), in place of the centre: its
 * winner's card marked; a click or a tap on it gathers it at once (`onGather`). */
export function heldTrick(scene, onGather) {
  const { cards, winner } = scene.held;
  const area = trickArea(cards, scene, { winner });
  area.classList.add("held");
  area.dataset.held = "1";
  area.title = "Ramasser le pli";
  area.addEventListener("click", () => onGather?.());
  return [area, h("div.held-caption", `Pli pour ${scene.name(winner)}`)];
}

/** The felt's children. `onToggleLast`: the "dernier pli" button was pressed; `onGather`: the
 * trick held on the felt was clicked; `onCloseDealEnd`: the last deal's breakdown was put away.
 * The centre shows, in turn: a trick held, the last deal's breakdown, the game's own centre. */
export function feltParts(scene, { notice = null, replaced = {}, showLast = false, onToggleLast, onGather, onCloseDealEnd } = {}) {
  const v = scene.view;
  const lastBtn = v.last_trick
    ? h("button.btn.ghost.small.lastbtn", { type: "button", id: "last-trick-btn", "aria-pressed": showLast ? "true" : "false", onclick: onToggleLast }, showLast ? "masquer le dernier pli" : "dernier pli")
    : null;
  const chips = infoChips(scene);
  const layer = seatsLayer(scene, replaced);
  const dealEnd = !scene.held && scene.dealEnd && !scene.msg?.over ? dealEndPanel(scene.dealEnd, scene, { onClose: onCloseDealEnd }) : null;
  const center = h(`div.center${dealEnd ? ".with-deal-end" : ""}`, scene.held ? heldTrick(scene, onGather) : dealEnd ?? scene.renderer.center(v, scene));
  return [feltHeader(scene, { notice, extra: lastBtn }), chips, h("div.table-surface", center, layer)];
}
