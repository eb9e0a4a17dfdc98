// The side panels' scores: the running scores (per seat, per team, or the games won at this
// table), and the score sheet (one row per deal, or the game's own sheet).

import { h } from "../dom.js";
import { botIcon, trophyIcon } from "../icons.js";

/** The children of the scores panel. */
export function scoresParts(scene) {
  const { view: v, renderer: r, seats, name } = scene;
  const me = scene.mySeat;
  const wins = scene.info?.wins;
  const showWins = Array.isArray(wins) && wins.some((w) => w > 0);
  const teamTotals = v && r.teamScores?.(v);
  if (v && r.scoresFrom === "wins") {
    return [h("h3", "Victoires à cette table"), h("table.sheet", h("tbody",
      seats.map((s, i) => h("tr", { class: i === me ? "me" : "" }, h("td", name(i)), h("td.num", String(wins?.[i] ?? 0))))))];
  }
  if (Array.isArray(teamTotals)) {
    return [h("h3", v.target ? `Scores (partie en ${v.target})` : "Scores"), h("table.sheet", h("tbody",
      teamTotals.map((sc, i) => h("tr", { class: me != null && me % 2 === i ? "me" : "" }, h("td", r.teamName(i, scene)), h("td.num", String(sc))))))];
  }
  if (v && Array.isArray(v.scores)) {
    const rows = v.scores.map((sc, i) =>
      h("tr", { class: i === me ? "me" : "" },
        h("td", name(i)),
        h("td.num", String(sc)),
        showWins ? h("td.num.wins", { title: "parties gagnées à cette table" }, `${wins[i]} `, trophyIcon()) : null));
    return [h("h3", r.scoresTitle || "Scores"), h("table.sheet", h("tbody", rows))];
  }
  return [h("h3", "Joueurs"), h("ul.plain", seats.map((s) => h("li", s.kind === "bot" ? botIcon() : null, s.kind === "empty" ? "place libre" : name(s.seat))))];
}

/** The children of the score sheet, or null when there is none yet (the panel is hidden). */
export function sheetParts(scene) {
  const v = scene.view;
  const hist = v && (v.sheet ?? v.history);
  if (!Array.isArray(hist) || !hist.length) return null;
  return [h("h3", "Feuille de marque"), sheetTable(hist, scene)];
}

function sheetTable(hist, scene) {
  const { view: v, renderer: r, name } = scene;
  const custom = r.sheet?.(hist, v, scene);
  if (custom) return custom;
  const rowsOf = (row) => (Array.isArray(row) ? row : row.scores ?? row.points ?? row.deltas ?? []);
  const width = Math.max(...hist.map((row) => rowsOf(row).length));
  const teams = width !== scene.n;
  const head = [h("th", "#")];
  for (let i = 0; i < width; i++) {
    const who = teams ? r.teamName(i, scene) : name(i);
    head.push(h("th", { title: who }, who));
  }
  const body = hist.map((row, k) =>
    h("tr", h("td", r.rowLabel?.(row, k, scene) ?? String(row.deal ?? k + 1)), rowsOf(row).map((x) => h("td.num", x == null ? "" : String(x)))));
  return h("div.sheet-scroll", h("table.sheet", h("thead", h("tr", head)), h("tbody", body)));
}
