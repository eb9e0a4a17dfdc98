// The seats around the felt: a badge per seat (name, dealer, cards held, tricks, team, the
// game's extras, a bid in a bubble, the timer of the seat to act), placed counterclockwise from
// the viewer at the bottom.

import { h } from "../dom.js";
import { backEl } from "../cards.js";
import { botIcon } from "../icons.js";
import { deadlineBar } from "./timer.js";
import { seatAngle } from "./scene.js";

/** One seat's badge; `replaced`: seat -> the person a robot replaced there. */
export function seatBadge(scene, seat, replaced = {}) {
  const { view: v, renderer: r } = scene;
  const s = scene.seats[seat] || {};
  const toAct = scene.toAct.includes(seat);
  const classes = ["seat"];
  if (toAct) classes.push("to-act");
  if (seat === scene.mySeat) classes.push("me");
  if (s.kind === "bot") classes.push("bot");
  if (s.kind === "player" && s.connected === false) classes.push("away");
  const team = r.team?.(v, seat);
  if (team != null) classes.push(`team-${team}`);
  const count = Array.isArray(v.counts) ? v.counts[seat] : null;
  const bits = [
    h("div.seat-name",
      s.kind === "bot" ? botIcon() : h("span.dot", { title: s.connected === false ? "absent" : "connecté" }),
      h("span.nm", scene.name(seat)),
      v.dealer === seat ? h("span.chip.dealer", { title: "donneur" }, "D") : null),
  ];
  const facts = [];
  if (count != null) {
    facts.push(h("span.count", { title: `${count} carte${count > 1 ? "s" : ""} en main` }, backEl(scene.kind, { small: true }), `${count}`));
  }
  if (Array.isArray(v.tricks_won)) facts.push(h("span.tricks", { title: "plis remportés" }, `${v.tricks_won[seat]} pli${v.tricks_won[seat] > 1 ? "s" : ""}`));
  if (team != null) facts.push(h("span.team", r.teamName(team, scene)));
  for (const extra of r.seatExtras?.(v, seat, scene) || []) facts.push(extra);
  if (s.kind === "bot" && replaced[seat]) facts.push(h("span.tag.replaced", { title: `${replaced[seat]} a quitté la table` }, `remplace ${replaced[seat]}`));
  bits.push(h("div.seat-facts", facts));
  const bubble = r.bubble?.(v, seat, scene);
  if (bubble) bits.push(h("div.bubble", bubble));
  if (toAct) bits.push(deadlineBar(scene.msg.deadline, scene.info?.turn_seconds));
  return h("div", { class: classes.join(" "), dataset: { seat } }, bits);
}

/** Every seat's badge, each placed on the felt's ellipse. */
export function seatsLayer(scene, replaced = {}) {
  const { n } = scene;
  const me = scene.mySeat ?? 0;
  const layer = h("div.seats");
  for (let seat = 0; seat < n; seat++) {
    const rel = (seat - me + n) % n;
    const a = seatAngle(rel, n);
    const badge = seatBadge(scene, seat, replaced);
    badge.style.left = `${50 + 43 * Math.cos(a)}%`;
    badge.style.top = `${50 + 42 * Math.sin(a)}%`;
    const pos = rel === 0 ? "bottom" : Math.abs(Math.cos(a)) < 0.35 ? (Math.sin(a) < 0 ? "top" : "bottom") : Math.cos(a) > 0 ? "right" : "left";
    badge.classList.add(`pos-${pos}`);
    layer.append(badge);
  }
  return layer;
}
