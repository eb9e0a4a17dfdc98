// The status line: whose turn it is, in words, with the time left when it is the viewer's. A
// polite live region, drawn again only when what it says changes (see view.js).

import { h } from "../dom.js";
import { closedBy, closedTitle } from "./scene.js";
import { timeLeft } from "./timer.js";

/** What the line says: `text`, whether it is the viewer's turn (`myTurn`), whether it concerns
 * the viewer (`forMe`: said aloud), and `key`, which changes exactly when it must be redrawn. */
export function statusOf(scene) {
  const { msg, view: v, legal, toAct } = scene;
  const me = scene.mySeat;
  const myTurn = me != null && toAct.includes(me) && legal.length > 0;
  let text;
  if (closedBy(msg)) text = `${closedTitle(closedBy(msg))}.`;
  else if (msg.over) text = "Partie terminée.";
  else if (myTurn) text = scene.renderer.prompt?.(v, legal, scene) || "À vous de jouer !";
  else if (legal.length) text = "Vous pouvez intervenir.";
  else if (me != null && toAct.includes(me) && scene.seats[me]?.away) text = "Un robot joue pour vous…";
  else if (toAct.length) text = `${toAct.map(scene.name).join(", ")} ${toAct.length > 1 ? "réfléchissent" : "réfléchit"}…`;
  else text = "";
  // The others' turns are for the eyes only: said aloud, each robot's move would drown what
  // concerns the player (their turn, the time left, the end).
  const forMe = Boolean(closedBy(msg) || msg.over || legal.length > 0);
  return { text, myTurn, forMe, key: JSON.stringify([text, myTurn ? msg.deadline : null]) };
}

/** The line's children: the words, then the timer when it is the viewer's turn. */
export function statusParts(scene, line = statusOf(scene)) {
  return [
    h("span", { "aria-hidden": line.forMe ? null : "true" }, line.text),
    line.myTurn ? timeLeft(scene.msg.deadline, scene.info?.turn_seconds) : null,
  ];
}
