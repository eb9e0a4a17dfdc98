// A player's page (#/joueur/NAME): games played and won per game, the rating and its history drawn
// as an SVG chart, the last games with links to their tables.

import { h, replace } from "./dom.js";
import { api } from "./api.js";
import { gameTitle, loadGames } from "./lobby.js";

const SVG = "http://www.w3.org/2000/svg";
const COLORS = ["#0f5132", "#c62828", "#1565c0", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#2e7d32"];

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

const fmt = (x) => (Math.round(x * 10) / 10).toLocaleString("fr-FR");

/** The conservative rating (μ − 3σ) after each rated game, one line per game. */
export function ratingChart(history) {
  const W = 640, H = 240, L = 44, R = 12, T = 12, B = 28;
  const games = [...new Set(history.map((p) => p.game))];
  // each line starts where its game's first rated game found the player (before it)
  const values = history.flatMap((p) => [p.ordinal, p.ordinal - p.change]);
  let lo = Math.min(0, ...values), hi = Math.max(...values, 1);
  if (hi - lo < 1) hi = lo + 1;
  const n = history.length;
  const x = (i) => L + ((i + 1) * (W - L - R)) / n;
  const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", id: "rating-chart", "aria-label": "Historique du classement" });
  svg.append(s("title", {}, "Classement prudent (μ − 3σ) après chaque partie classée"));
  for (const v of [lo, (lo + hi) / 2, hi]) {
    svg.append(s("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), stroke: "#ccc", "stroke-dasharray": "3 3" }));
    svg.append(s("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#555" }, fmt(v)));
  }
  svg.append(s("text", { x: (W + L) / 2, y: H - 6, "text-anchor": "middle", "font-size": 11, fill: "#555" }, `${n} partie${n > 1 ? "s" : ""} classée${n > 1 ? "s" : ""}`));
  games.forEach((game, k) => {
    const color = COLORS[k % COLORS.length];
    const points = history.map((p, i) => [p, i]).filter(([p]) => p.game === game);
    const [first, i0] = points[0];
    const start = `${x(i0 - 1)},${y(first.ordinal - first.change)}`;
    svg.append(s("polyline", {
      points: [start, ...points.map(([p, i]) => `${x(i)},${y(p.ordinal)}`)].join(" "),
      fill: "none", stroke: color, "stroke-width": 2, class: "rating-line", "data-game": game,
    }));
    for (const [p, i] of points) {
      svg.append(s("circle", { cx: x(i), cy: y(p.ordinal), r: 3.5, fill: color },
        s("title", {}, `${gameTitle(game)} : ${fmt(p.ordinal)} (${p.change >= 0 ? "+" : ""}${fmt(p.change)})`)));
    }
  });
  const legend = h("ul.chart-legend", games.map((g, k) => h("li", h("span.swatch", { style: { background: COLORS[k % COLORS.length] } }), gameTitle(g))));
  return h("figure.chart", svg, legend);
}

export function showProfile(root, name) {
  document.getElementById("crumb").textContent = "Joueur";
  replace(root, h("p.loading", "Chargement…"));
  let stopped = false;
  Promise.all([api.profile(name), loadGames().catch(() => [])])
    .then(([p]) => {
      if (!stopped) replace(root, page(p));
    })
    .catch((e) => {
      if (!stopped) replace(root, h("section.panel", h("h1", name), h("p.error", e.status === 404 ? "Aucun joueur de ce nom." : e.message)));
    });
  return { leave() { stopped = true; } };
}

function page(p) {
  const rows = p.games.map((g) => h("tr", { dataset: { game: g.game } },
    h("td", gameTitle(g.game)),
    h("td.num", String(g.played)),
    h("td.num", String(g.won)),
    h("td.num", g.rating ? fmt(g.rating.ordinal) : "–"),
    h("td.num", g.rating ? String(g.rating.rated) : "0")));
  const last = p.last_games.map((g) => {
    const said = ` — ${new Date(g.finished_at).toLocaleString("fr-FR")} — ${g.won ? "gagnée" : "perdue"}${g.rated ? "" : " (amicale)"}`;
    // a private table's game: counted, never named nor linked (the page is public)
    if (g.table_id == null) return h("li.private", `${gameTitle(g.game)}, table privée`, said);
    return h("li", { dataset: { table: g.table_id } },
      h("a", { href: `#/table/${g.table_id}` }, `${gameTitle(g.game)}, table ${g.table_id}`),
      `${said} — `,
      h("a.replay-link", { href: `#/replay/${g.table_id}/${g.game_no}` }, "revoir"));
  });
  return h("div.profile", { id: "profile" },
    h("section.panel",
      h("h1", p.name),
      h("p.muted", p.claimed ? "Compte" : "Invité"),
      h("table.sheet", { id: "profile-games" },
        h("thead", h("tr", h("th", "Jeu"), h("th.num", "Parties"), h("th.num", "Victoires"), h("th.num", { title: "μ − 3σ" }, "Classement"), h("th.num", "Classées"))),
        h("tbody", rows.length ? rows : h("tr", h("td", { colspan: 5 }, "Aucune partie terminée."))))),
    h("section.panel", h("h2", "Classement au fil des parties"),
      p.history.length ? ratingChart(p.history) : h("p.muted", "Aucune partie classée pour l'instant.")),
    h("section.panel", h("h2", "Dernières parties"),
      last.length ? h("ul.last-games", { id: "last-games" }, last) : h("p.muted", "Aucune partie terminée.")));
}
