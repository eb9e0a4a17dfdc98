// The rated leaderboard of one game: players by conservative rating (μ − 3σ), wins beside;
// each name links to the player's page.

import { h, replace } from "./dom.js";
import { api, listOf } from "./api.js";
import { gameTitle, loadGames } from "./lobby.js";

const fmt = (x) => (Math.round(x * 10) / 10).toLocaleString("fr-FR");

export function ratedBoard(player) {
  const select = h("select", { id: "rated-game", "aria-label": "Jeu" });
  const body = h("div");
  const panel = h("section.rated-board.panel", { id: "rated-board" },
    h("div.row", h("h2", "Classement par jeu"), select), body);

  async function draw() {
    try {
      const rows = listOf(await api.ratedLeaderboard(select.value), "items");
      replace(body, rows.length
        ? h("table.sheet", h("thead", h("tr",
            h("th", "#"), h("th", "Joueur"),
            h("th.num", { title: "μ − 3σ" }, "Classement"), h("th.num", "Classées"), h("th.num", "Victoires"))),
          h("tbody", rows.map((r) => h("tr", { class: player && r.player_id === player.id ? "me" : "" },
            h("td", String(r.rank)),
            h("td", h("a", { href: `#/joueur/${encodeURIComponent(r.name)}` }, r.name)),
            h("td.num", fmt(r.rating)),
            h("td.num", String(r.rated)),
            h("td.num", String(r.won))))))
        : h("p.muted", `Personne n'a encore assez de parties classées de ${gameTitle(select.value)}.`));
    } catch {
      panel.remove();
    }
  }

  loadGames().then((games) => {
    replace(select, ...games.map((g) => h("option", { value: g.name }, g.title)));
    select.addEventListener("change", draw);
    draw();
  }).catch(() => panel.remove());
  return panel;
}
