// The felt: its top line, the chips, then the surface with the centre (the game's: a trick,
// piles, layouts) and the seats around it.

import { h } from "../dom.js";
import { feltHeader, infoChips } from "./header.js";
import { seatsLayer } from "./seats.js";

/** The felt's children. `onToggleLast`: the "dernier pli" button was pressed. */
export function feltParts(scene, { notice = null, replaced = {}, showLast = false, onToggleLast } = {}) {
  const v = scene.view;
  const lastBtn = v.last_trick
    ? h("button.btn.ghost.small.lastbtn", { type: "button", id: "last-trick-btn", "aria-pressed": showLast ? "true" : "false", onclick: onToggleLast }, showLast ? "masquer le dernier pli" : "dernier pli")
    : null;
  const chips = infoChips(scene);
  const layer = seatsLayer(scene, replaced);
  const center = h("div.center", scene.renderer.center(v, scene));
  return [feltHeader(scene, { notice, extra: lastBtn }), chips, h("div.table-surface", center, layer)];
}
