// The lobby: open and running tables (refreshed every few seconds), and the form to create one.

import { ChatBox } from "./chat.js";
import { h, replace, toastError } from "./dom.js";
import { api, listOf } from "./api.js";
import { GAME_TITLES } from "./labels.js";
import { botIcon } from "./icons.js";
import { errorText } from "./errors.js";
import { accountPanel } from "./account.js";
import { ratedBoard } from "./ratedboard.js";

const POLL_MS = 3000;
const TIMERS = [null, 10, 15, 20, 30, 45, 60, 90, 120];

let gamesCache = null;

/** The lobby's choices of what spectators see (the table's `spectators` setting). */
const SPECTATORS = [
  ["hidden", "sans les mains"],
  ["moves:8", "toutes les mains, 8 coups de retard"],
  ["trick", "toutes les mains, un pli de retard"],
  ["deal", "toutes les mains, une donne de retard"],
];

export async function loadGames() {
  if (!gamesCache) gamesCache = listOf(await api.games(), "games");
  return gamesCache;
}

export function gameTitle(name) {
  const g = gamesCache?.find((x) => x.name === name);
  return g?.title || GAME_TITLES[name] || name;
}

/** The seats of a table as the REST API gives them, normalised to [{seat, name, kind, player}]. */
export function seatsOf(table) {
  const n = table.players ?? table.seats?.length ?? 0;
  const seats = [];
  for (let i = 0; i < n; i++) seats.push({ seat: i, name: null, kind: "empty" });
  for (const s of table.seats || []) {
    const i = s.seat ?? seats.findIndex((x) => x.kind === "empty");
    if (i < 0 || i >= n) continue;
    const kind = s.kind || (s.bot ? "bot" : s.player_id != null || s.player != null || s.name ? "player" : "empty");
    seats[i] = { ...s, seat: i, kind, name: s.name ?? s.player_name ?? null };
  }
  return seats;
}

export function mySeat(table, player) {
  for (const s of seatsOf(table)) {
    if (s.kind === "bot" || s.kind === "empty") continue;
    const pid = s.player_id ?? s.player?.id ?? s.player;
    if (pid != null && String(pid) === String(player.id)) return s.seat;
  }
  return null;
}

function timerText(seconds) {
  return seconds ? `${seconds} s par coup` : "sans minuteur";
}

export function showLobby(root, { socket, player, onAccount }) {
  document.getElementById("crumb").textContent = "Salon";
  const lists = h("section.tables");
  const form = h("section.create.panel", h("h2", "Nouvelle table"), h("p.muted", "Chargement des jeux…"));
  const board = h("section.board.panel");
  const chat = new ChatBox({ socket, player, table: null, title: "Salon" });
  chat.draw();
  replace(root, h("div.lobby", h("div.lobby-main", lists, board, ratedBoard(player)), h("div.lobby-side", chat.el, form, accountPanel(player, () => onAccount?.()))));
  chat.start();

  let stopped = false;
  let timer = null;

  async function refresh() {
    try {
      const [open, running] = await Promise.all([
        api.tables({ status: "waiting" }),
        api.tables({ status: "playing" }),
      ]);
      if (stopped) return;
      renderLists(listOf(open, "tables"), listOf(running, "tables"));
    } catch (e) {
      if (!stopped) replace(lists, h("p.error", `Salon indisponible : ${errorText(e)}`));
    }
    if (!stopped) timer = setTimeout(refresh, POLL_MS);
  }

  function row(table, running) {
    const seats = seatsOf(table);
    const taken = seats.filter((s) => s.kind !== "empty").length;
    const mine = mySeat(table, player);
    const free = seats.filter((s) => s.kind === "empty");
    const names = seats.map((s) =>
      h(`span.seatname.${s.kind}${s.away ? ".stand-in" : ""}`, s.kind === "empty" ? "libre" : [
        s.kind === "bot" || s.away ? botIcon() : null,
        s.kind === "bot" ? "robot" : `${s.name ?? "?"}${s.away ? " (robot)" : ""}`,
      ]),
    );
    const buttons = [];
    const away = mine != null && running ? seats[mine].away : null;
    if (away) {
      // a robot plays for the player (they left, or were handed over): the seat is theirs to take back
      buttons.push(h("button.btn.primary", {
        type: "button",
        dataset: { takeBack: table.id },
        onclick: async (ev) => {
          ev.target.disabled = true;
          try {
            await api.takeBack(table.id);
            location.hash = `#/table/${table.id}`;
          } catch (e) {
            toastError(e);
            ev.target.disabled = false;
          }
        },
      }, "Reprendre ma place"));
      buttons.push(h("a.btn", { href: `#/table/${table.id}` }, "Regarder"));
    } else if (mine != null) {
      buttons.push(h("a.btn.primary", { href: `#/table/${table.id}` }, running ? "Reprendre" : "Rejoindre ma place"));
    } else if (!running && free.length) {
      buttons.push(
        h("button.btn.primary", {
          type: "button",
          dataset: { join: table.id },
          onclick: async (ev) => {
            ev.target.disabled = true;
            try {
              await api.join(table.id, null);
              location.hash = `#/table/${table.id}`;
            } catch (e) {
              toastError(e);
              ev.target.disabled = false;
            }
          },
        }, "S'asseoir"),
      );
    }
    if (mine == null) buttons.push(h("a.btn", { href: `#/table/${table.id}`, dataset: { watch: table.id } }, "Regarder"));
    return h(
      "li.table-row",
      { dataset: { table: table.id } },
      h("div.t-game", h("strong", table.title || gameTitle(table.game)), h("span.muted", ` · table ${table.id}`), table.game_no > 1 ? h("span.muted", ` · partie ${table.game_no}`) : null),
      h("div.t-info", `${taken}/${seats.length} joueurs · ${timerText(table.turn_seconds)} · ${table.private ? "privée" : "spectateurs bienvenus"}`),
      h("div.t-seats", names),
      h("div.t-actions", buttons),
    );
  }

  function renderLists(open, running) {
    replace(
      lists,
      h("div.panel",
        h("h2", "Tables ouvertes"),
        open.length ? h("ul.table-list", open.map((t) => row(t, false))) : h("p.muted", "Aucune table n'attend de joueurs. Créez-en une !"),
      ),
      h("div.panel",
        h("h2", "Parties en cours"),
        running.length ? h("ul.table-list", running.map((t) => row(t, true))) : h("p.muted", "Aucune partie en cours."),
      ),
    );
  }

  async function leaderboard() {
    try {
      const data = await api.leaderboard();
      const rows = listOf(data, "leaderboard").slice(0, 10);
      replace(board, h("h2", "Classement"), rows.length ? boardTable(rows, player) : h("p.muted", "Aucune partie terminée pour l'instant."));
    } catch {
      board.remove();
    }
  }

  loadGames()
    .then((games) => !stopped && replace(form, createForm(games, player)))
    .catch((e) => replace(form, h("p.error", `Jeux indisponibles : ${errorText(e)}`)));
  refresh();
  leaderboard();

  return {
    onMessage: (msg) => chat.receive(msg),
    leave() {
      stopped = true;
      clearTimeout(timer);
      chat.stop();
    },
  };
}

/** The leaderboard as a real table: fixed columns, names on the left, figures right-aligned
 * under their headings. */
export function boardTable(rows, player) {
  const pct = (won, played) => (played ? `${Math.round((100 * won) / played)} %` : "–");
  return h("table.sheet.board-table", { id: "leaderboard" },
    h("colgroup", h("col.rank"), h("col.name"), h("col.fig"), h("col.fig"), h("col.fig")),
    h("thead", h("tr",
      h("th.rank", { scope: "col", title: "rang" }, "#"),
      h("th.name", { scope: "col" }, "Joueur"),
      h("th.num", { scope: "col" }, "Parties"),
      h("th.num", { scope: "col" }, "Victoires"),
      h("th.num", { scope: "col", title: "part des parties gagnées" }, "Taux"))),
    h("tbody", rows.map((r, i) => {
      const played = r.played ?? r.games ?? 0;
      const won = r.won ?? r.wins ?? 0;
      const name = r.name ?? r.player ?? "?";
      const me = player && r.player_id != null && String(r.player_id) === String(player.id);
      return h("tr", { class: me ? "me" : "", dataset: { player: r.player_id ?? "" } },
        h("td.rank", String(i + 1)),
        h("td.name", { title: name }, name),
        h("td.num", String(played)),
        h("td.num", String(won)),
        h("td.num", pct(won, played)));
    })));
}

/** The usual lengths of a match in points, offered first (within the option's bounds). */
const USUAL_TARGETS = [501, 1000, 1500, 2000];

/** A match's length: one deal (when the game allows none), the usual totals, or another. */
function targetControl(spec) {
  const id = `opt-${spec.name}`;
  const fits = (x) => (spec.min == null || x >= spec.min) && (spec.max == null || x <= spec.max);
  const values = [...new Set([...USUAL_TARGETS.filter(fits), ...(spec.default != null ? [spec.default] : [])])].sort((a, b) => a - b);
  const other = h("input", { type: "number", id: `${id}-other`, min: spec.min ?? undefined, max: spec.max ?? undefined, hidden: true, "aria-label": "Autre total" });
  const select = h("select", { id, name: spec.name },
    spec.nullable ? h("option", { value: "null" }, "une donne") : null,
    values.map((x) => h("option", { value: String(x) }, `${x} points`)),
    h("option", { value: "other" }, "autre total…"));
  select.value = spec.default == null ? (spec.nullable ? "null" : String(values[0])) : String(spec.default);
  select.addEventListener("change", () => {
    other.hidden = select.value !== "other";
    if (!other.hidden) other.focus();
  });
  return {
    el: h("label.field", { title: spec.help || "" }, h("span", spec.label || spec.name), h("span.row.tight", select, other)),
    read: () => {
      if (select.value === "other") return other.value === "" ? spec.default ?? null : Number(other.value);
      return JSON.parse(select.value);
    },
  };
}

function optionControl(spec) {
  const id = `opt-${spec.name}`;
  let input;
  if (spec.kind === "int" && spec.name === "target") return targetControl(spec);
  if (spec.kind === "bool") {
    input = h("input", { type: "checkbox", id, name: spec.name, checked: !!spec.default });
    return { el: h("label.check", { title: spec.help || "" }, input, ` ${spec.label || spec.name}`), read: () => input.checked };
  }
  if (spec.kind === "choice") {
    input = h("select", { id, name: spec.name },
      (spec.nullable ? [h("option", { value: "null" }, "par défaut")] : []),
      (spec.choices || []).map((c) => h("option", { value: JSON.stringify(c), selected: c === spec.default }, String(c))));
    if (spec.default == null && spec.nullable) input.value = "null";
    return { el: h("label.field", { title: spec.help || "" }, h("span", spec.label || spec.name), input), read: () => JSON.parse(input.value) };
  }
  input = h("input", {
    type: "number",
    id,
    name: spec.name,
    min: spec.min ?? undefined,
    max: spec.max ?? undefined,
    value: spec.default ?? "",
    placeholder: spec.default == null ? "par défaut" : "",
  });
  return {
    el: h("label.field", { title: spec.help || "" }, h("span", spec.label || spec.name), input),
    read: () => (input.value === "" ? null : Number(input.value)),
  };
}

function createForm(games, player) {
  let game = games.find((g) => g.name === "contrecarte") || games[0];
  let players = game.min_players;
  const bots = new Set();
  // robot level per robot seat; a seat not named plays as a débutant
  const levels = new Map();
  const form = h("form.create-form", { onsubmit: (ev) => ev.preventDefault() });
  const error = h("p.error", { role: "alert" });
  let controls = [];

  const gameGrid = h("div.game-grid");
  const countRow = h("div.row.count");
  const optionsBox = h("div.options");
  const seatsBox = h("div.seats-choice");
  const timer = h("select", { id: "timer", name: "timer" },
    TIMERS.map((t) => h("option", { value: t ?? "" }, t ? `${t} secondes` : "Aucun")));
  const privateBox = h("input", { type: "checkbox", id: "private", name: "private" });
  // a person the timer plays for this many times in a row is handed to a robot (0: never)
  const robotAfter = h("select", { id: "robot-after", name: "robot_after" },
    [1, 2, 3, 5, 10, 0].map((n) => h("option", { value: String(n), selected: n === 3 }, n ? `après ${n} coup${n > 1 ? "s" : ""} joué${n > 1 ? "s" : ""} par le minuteur` : "jamais")));
  // classée (ratings move) or amicale; a table with robots is always amicale
  const ratedBox = h("input", { type: "checkbox", id: "rated", name: "rated", checked: true });
  // what spectators see (docs/fairness.md): no hand, or every hand late enough not to coach
  const watchSelect = h("select", { id: "spectators", name: "spectators" },
    SPECTATORS.map(([value, label]) => h("option", { value }, label)));
  const dealReplays = h("input", { type: "checkbox", id: "deal-replays", name: "deal_replays" });

  function drawGames() {
    gameGrid.replaceChildren(
      ...games.map((g) =>
        h("button", {
          type: "button",
          class: `game-tile${g.name === game.name ? " on" : ""}`,
          dataset: { game: g.name },
          "aria-pressed": g.name === game.name ? "true" : "false",
          onclick: () => {
            game = g;
            players = Math.min(Math.max(players, g.min_players), g.max_players);
            if (g.min_players === g.max_players) players = g.min_players;
            bots.clear();
            draw();
          },
        }, h("strong", g.title || gameTitle(g.name)), h("small", g.min_players === g.max_players ? `${g.min_players} joueurs` : `${g.min_players} à ${g.max_players} joueurs`)),
      ),
    );
  }

  function drawCount() {
    const buttons = [];
    for (let n = game.min_players; n <= game.max_players; n++) {
      buttons.push(h("button", {
        type: "button",
        class: `btn choice${n === players ? " on" : ""}`,
        dataset: { players: n },
        onclick: () => { players = n; for (const s of [...bots]) if (s >= n) bots.delete(s); draw(); },
      }, String(n)));
    }
    countRow.replaceChildren(h("span.label", "Joueurs"), ...buttons);
  }

  function drawSeats() {
    const items = [];
    for (let s = 0; s < players; s++) {
      if (s === 0) {
        items.push(h("div.seat-choice.me", h("span.sn", "Place 1"), h("span", `Vous (${player.name})`)));
        continue;
      }
      const isBot = bots.has(s);
      items.push(h("button", {
        type: "button",
        class: `seat-choice${isBot ? " bot" : ""}`,
        dataset: { seat: s },
        "aria-pressed": isBot ? "true" : "false",
        onclick: () => { if (isBot) bots.delete(s); else bots.add(s); drawSeats(); },
      }, h("span.sn", `Place ${s + 1}`), h("span", isBot ? [botIcon(), " Robot"] : "Joueur")));
    }
    const levelChoices = [...bots].sort((a, b) => a - b).map((s) =>
      h("label.field.robot-level", h("span", `Robot place ${s + 1}`),
        h("select", {
          name: `level-${s}`,
          dataset: { seat: s },
          onchange: (ev) => levels.set(s, ev.target.value),
        }, [["debutant", "débutant"], ["confirme", "confirmé"]].map(([value, label]) =>
          h("option", { value, selected: (levels.get(s) || "debutant") === value }, label)))));
    seatsBox.replaceChildren(
      h("div.label-row", h("span.label", "Places"),
        h("button.btn.ghost.small", { type: "button", onclick: () => { for (let s = 1; s < players; s++) bots.add(s); drawSeats(); } }, "tout en robots"),
        h("button.btn.ghost.small", { type: "button", onclick: () => { bots.clear(); drawSeats(); } }, "aucun robot")),
      h("div.seat-grid", items),
      ...(levelChoices.length ? [h("div.robot-levels", levelChoices)] : []),
    );
  }

  function drawOptions() {
    controls = (game.options || []).map((spec) => ({ spec, ...optionControl(spec) }));
    optionsBox.replaceChildren(...(controls.length ? [h("span.label", "Options"), ...controls.map((c) => c.el)] : []));
  }

  function draw() {
    drawGames();
    drawCount();
    drawOptions();
    drawSeats();
    summary.textContent = game.summary || "";
  }

  const summary = h("p.muted.summary");
  const submit = h("button.btn.primary.big", {
    type: "submit",
    id: "create",
    onclick: async () => {
      error.textContent = "";
      const options = {};
      for (const c of controls) {
        const v = c.read();
        if (!(v === null && c.spec.default === null)) options[c.spec.name] = v;
      }
      const spec = {
        game: game.name,
        players,
        options,
        turn_seconds: timer.value ? Number(timer.value) : null,
        bots: [...bots].sort((a, b) => a - b),
        bot_levels: Object.fromEntries([...bots].filter((s) => levels.get(s) === "confirme").map((s) => [s, "confirme"])),
        private: privateBox.checked,
        rated: ratedBox.checked && bots.size === 0,
        robot_after: Number(robotAfter.value),
        spectators: watchSelect.value,
        deal_replays: dealReplays.checked,
      };
      submit.disabled = true;
      try {
        const table = await api.createTable(spec);
        location.hash = `#/table/${table.id}`;
      } catch (e) {
        error.textContent = errorText(e, { fields: Object.fromEntries(controls.map((c) => [c.spec.name, c.spec.label || c.spec.name])) });
        submit.disabled = false;
      }
    },
  }, "Créer la table");

  form.append(
    h("h2", "Nouvelle table"),
    gameGrid,
    summary,
    countRow,
    optionsBox,
    seatsBox,
    h("div.row.two",
      h("label.field", { for: "timer" }, h("span", "Minuteur"), timer),
      h("label.check", privateBox, " Table privée (sur invitation)")),
    h("label.field", { for: "robot-after", title: "Un joueur pour qui le minuteur joue autant de fois de suite est remplacé par un robot ; il reprend la main en revenant." },
      h("span", "Robot pour un absent"), robotAfter),
    h("label.check", { title: "Une partie classée entre personnes fait bouger le classement ; une table avec des robots est amicale." }, ratedBox, " Partie classée"),
    h("label.field", { for: "spectators", title: "Un spectateur qui voit les mains pourrait souffler à un joueur : il les voit assez tard pour ne plus pouvoir aider (seule « une donne de retard » ne montre aucune carte de la donne en cours)." },
      h("span", "Spectateurs"), watchSelect),
    h("label.check", { title: "Sinon, la partie se revoit avec toutes les mains une fois terminée." }, dealReplays, " Donnes finies revisibles pendant la partie"),
    error,
    submit,
  );
  draw();
  return form;
}
