// The seats around the felt: a badge per seat (name, dealer, cards held, tricks, team, the
// game's extras, a bid in a bubble, the timer of the seat to act; the seat's cards when the view
// shows every hand: a replay, a delayed spectator), placed counterclockwise from the viewer at the
// bottom.

import { h } from "../dom.js";
import { backEl, cardEl } from "../cards.js";
import { botIcon } from "../icons.js";
import { absentFor, deadlineBar } from "./timer.js";
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
  // a robot plays for the seat's person, who may take it back
  const standIn = s.kind === "player" && s.away ? s.away : null;
  if (standIn) classes.push("stand-in");
  const team = r.team?.(v, seat);
  if (team != null) classes.push(`team-${team}`);
  const count = Array.isArray(v.counts) ? v.counts[seat] : null;
  const bits = [
    h("div.seat-name",
      s.kind === "bot" || standIn ? botIcon() : h("span.dot", { title: s.connected === false ? "absent" : "connecté" }),
      h("span.nm", standIn ? `${scene.name(seat)} (robot)` : scene.name(seat)),
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
  // every hand shown (a replay, a delayed spectator): the seat's cards, small, face up
  const open = Array.isArray(v.hands) && seat !== scene.mySeat ? v.hands[seat] : null;
  if (Array.isArray(open)) {
    bits.push(h("div.open-hand", { dataset: { seat }, "aria-label": `Main de ${scene.name(seat)}` },
      open.length ? open.map((code) => cardEl(code, scene.kind, { small: true })) : h("span.muted-light", "aucune carte")));
  }
  const gone = absentTag(s);
  if (gone) bits.push(gone);
  const bubble = r.bubble?.(v, seat, scene);
  if (bubble) bits.push(h("div.bubble", bubble));
  if (toAct) bits.push(deadlineBar(scene.msg.deadline, scene.info?.turn_seconds));
  return h("div", { class: classes.join(" "), dataset: { seat } }, bits);
}

/** The line under an absent person's name (disconnected, or a robot playing for them), with
 * how long: the page's ticker (timer.js) keeps the time up to date; null when they are there. */
export function absentTag(s) {
  if (s.kind !== "player" || !s.absent_since || Number.isNaN(Date.parse(s.absent_since))) return null;
  const why = s.away?.why === "left" ? "a quitté la table" : s.away?.why === "timeout" ? "le temps a joué pour lui" : "déconnecté";
  const back = s.away?.back ? " · revient après ce coup" : "";
  return h("div.absent", { title: why, dataset: { since: s.absent_since } },
    h("span.absent-why", s.away ? (s.away.why === "left" ? "parti" : "inactif") : "hors ligne"),
    " · absent depuis ", h("span.absent-for", { dataset: { since: s.absent_since } }, absentFor(s.absent_since)), back);
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
