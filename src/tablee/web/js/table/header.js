// The felt's top line (the game, the deal, the phase, the timer, "spectateur", the shuffle's
// commitment, who watches, a notice) and the chips under it (trump, contract, a game's own facts).

import { h } from "../dom.js";
import { phaseLabel } from "../labels.js";
import { gameTitle } from "../lobby.js";

/** The top line; `notice`: {text, type} shown for a few seconds; `extra`: a control at its end. */
export function feltHeader(scene, { notice = null, extra = null } = {}) {
  const v = scene.view;
  const info = scene.info;
  const bits = [h("strong", info?.title || gameTitle(scene.game) || "")];
  if (v?.deal != null) bits.push(h("span", `donne ${v.deal}${v.deals ? `/${v.deals}` : ""}`));
  if (v?.phase) bits.push(h("span.phase", phaseLabel(v.phase)));
  if (info?.turn_seconds) bits.push(h("span.muted-light", `${info.turn_seconds} s par coup`));
  if (info && scene.mySeat == null) bits.push(h("span.badge.spect", "spectateur"));
  const commit = commitmentChip(info?.shuffle, info?.status === "finished");
  if (commit) bits.push(commit);
  const watching = watchersText(info?.watchers);
  if (watching) bits.push(h("span.watchers", { id: "watchers", title: watching }, watching));
  if (notice) bits.push(h("span.felt-notice", { id: "notice", role: "status", dataset: { type: notice.type } }, notice.text));
  return h("div.felt-head", bits, extra);
}

/** The shuffle's commitment (docs/fairness.md), published at the deal: its first digits, the
 * whole in the tooltip; once the game is over the seed and salt revealed too. A stacked deck says
 * so: it is never shown as verifiable. */
export function commitmentChip(shuffle, over = false) {
  if (!shuffle?.commitment) return null;
  const short = shuffle.commitment.slice(0, 8);
  const title = [`Engagement de la donne, publié avant le premier coup : sha256(graine ‖ sel) = ${shuffle.commitment}`];
  if (shuffle.stacked) title.push("Paquet arrangé (tests, administration) : non vérifiable.");
  if (over && shuffle.seed != null) title.push(`Graine ${shuffle.seed}, sel ${shuffle.salt} : vérifiable avec « tablee verify ».`);
  return h("span.commitment", { id: "commitment", title: title.join("\n"), dataset: { commitment: shuffle.commitment, stacked: shuffle.stacked ? "1" : "0" } },
    shuffle.stacked ? `paquet arrangé ${short}` : `donne ${short}…`);
}

/** Who watches the table without a seat (the server's `info.watchers`): "2 spectateurs : Bob,
 * Carol", or null when nobody does. */
export function watchersText(w) {
  const n = w?.count ?? 0;
  if (!n) return null;
  const names = Array.isArray(w.names) ? w.names : [];
  const others = n - names.length;
  const who = [...names, ...(others > 0 && names.length ? [`${others} autre${others > 1 ? "s" : ""}`] : [])];
  return `${n} spectateur${n > 1 ? "s" : ""}${who.length ? ` : ${who.join(", ")}` : ""}`;
}

/** The game's chips, or null when it has none. */
export function infoChips(scene) {
  const chips = scene.renderer.chips?.(scene.view, scene);
  return chips ? h("div.info-chips", chips) : null;
}
