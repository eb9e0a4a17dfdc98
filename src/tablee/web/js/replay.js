// The replay page (`#/replay/TABLE/GAME?coup=N`): a finished game move by move with every hand
// shown, from the server's replay (GET /api/tables/{id}/games/{n}/replay: rebuilt from the seed
// and the log by the engine). It draws each step with the table's own render modules (table/*.js),
// read-only: no action is offered. First, back, forward, last, a slider and the keyboard's arrows
// (Home, End) move through it; the address says the step shown, so it can be shared.

import { h, replace } from "./dom.js";
import { errorText } from "./errors.js";
import { api } from "./api.js";
import { gameTitle, loadGames } from "./lobby.js";
import { cardEl } from "./cards.js";
import { feltParts } from "./table/felt.js";
import { shownHand } from "./table/hand.js";
import { describeEvents } from "./table/journal.js";
import { sceneOf } from "./table/scene.js";
import { scoresParts, sheetParts } from "./table/scores.js";
import { newTableState } from "./table/state.js";

/** The address of a replay (at step `step`, else its start); a private table's carries its
 * invitation code (`invitation`, else the one of the address shown). */
export function replayHref(tableId, gameNo, step = null, invitation = invitationOfHash()) {
  const q = new URLSearchParams();
  if (step) q.set("coup", String(step));
  if (invitation) q.set("invitation", invitation);
  const qs = q.toString();
  return `#/replay/${tableId}/${gameNo}${qs ? `?${qs}` : ""}`;
}

/** A private table's invitation code in the address (`?invitation=CODE`), else null. */
function invitationOfHash() {
  const hash = location.hash || "";
  const i = hash.indexOf("?");
  return i < 0 ? null : new URLSearchParams(hash.slice(i + 1)).get("invitation");
}

/** The step asked for by the address (`?coup=N`), else 0. */
function stepOfHash() {
  const m = (location.hash || "").match(/[?&]coup=(\d+)/);
  return m ? Number(m[1]) : 0;
}

/** The seats as a table's `info` has them, from the replay's. */
function infoOf(rep, table) {
  const seats = rep.seats.map((s) => ({ ...s, connected: true, player_id: null }));
  return { ...(table || {}), id: rep.table, game: rep.game, title: rep.title, players: rep.players, game_no: rep.game_no, seats, status: "finished", turn_seconds: null, watchers: { count: 0, names: [] } };
}

/** What the replay proves of its shuffle, in a sentence and the values to check. */
function shuffleBox(rep) {
  const s = rep.shuffle || {};
  const lines = [];
  if (s.stacked) {
    lines.push(h("p", { id: "shuffle-status", dataset: { verified: "0" } }, "Paquet arrangé (tests, administration) : cette donne n'est pas vérifiable."));
  } else if (s.commitment && s.seed != null) {
    lines.push(h("p", { id: "shuffle-status", dataset: { verified: "1" } }, "Donne vérifiable : l'empreinte publiée avant le premier coup correspond à la graine et au sel révélés."));
  } else {
    lines.push(h("p", { id: "shuffle-status", dataset: { verified: "0" } }, "Aucun engagement publié pour cette donne."));
  }
  if (s.commitment) lines.push(h("p.mono", "Engagement : ", h("code", s.commitment)));
  if (s.seed != null) lines.push(h("p.mono", "Graine : ", h("code", String(s.seed)), " — sel : ", h("code", s.salt || "")));
  lines.push(h("p.muted.small", "Pour vérifier : ", h("code", `tablee verify ${location.origin}/#/table/${rep.table}`)));
  return h("div.panel.shuffle-box", { id: "shuffle" }, h("h3", "Donne"), lines);
}

export function showReplay(root, tableId, gameNo, { player = null } = {}) {
  document.getElementById("crumb").textContent = `Replay, table ${tableId}`;
  replace(root, h("p.loading", "Chargement…"));
  let page = null;
  const invitation = invitationOfHash();
  Promise.all([api.replay(tableId, gameNo, invitation), api.table(tableId, invitation).catch(() => null), loadGames().catch(() => [])])
    .then(([rep, table]) => {
      if (page?.stopped) return;
      page.start(rep, table);
    })
    .catch((e) => {
      if (page?.stopped) return;
      replace(root, h("div.panel.center-msg", { id: "replay-missing" },
        h("h2", "Replay indisponible"),
        h("p", errorText(e)),
        h("a.btn.primary", { href: `#/table/${tableId}` }, "Voir la table")));
    });
  page = new ReplayPage(root, tableId, gameNo, player);
  return { leave: () => page.stop() };
}

class ReplayPage {
  constructor(root, tableId, gameNo, player) {
    this.root = root;
    this.tableId = tableId;
    this.gameNo = gameNo;
    this.player = player;
    this.stopped = false;
    this.onKey = (ev) => this.key(ev);
  }

  start(rep, table) {
    this.rep = rep;
    this.n = rep.steps.length - 1;
    this.S = newTableState();
    this.S.info = infoOf(rep, table);
    this.S.gameNo = rep.game_no;
    // seen from the viewer's seat when they played, else from the first
    const mine = player(rep, this.player);
    this.viewer = mine ?? 0;
    // the journal: each step's lines, told once
    this.lines = rep.steps.map(() => null);

    this.felt = h("div.felt", { id: "felt" });
    this.hand = h("div.hand.replay-hand", { id: "hand", role: "group", "aria-label": "Main" });
    this.status = h("div.status-line", { id: "status", role: "status", "aria-live": "polite" });
    this.slider = h("input.replay-slider", {
      type: "range", id: "replay-slider", min: 0, max: this.n, step: 1, value: 0,
      "aria-label": "Coup",
      oninput: (ev) => this.go(Number(ev.target.value)),
    });
    const btn = (id, label, title, fn) => h("button.btn.small", { type: "button", id, title, "aria-label": title, onclick: fn }, label);
    this.counter = h("span.replay-count", { id: "replay-count" });
    const controls = h("div.replay-controls", { id: "replay-controls", role: "group", "aria-label": "Parcourir la partie" },
      btn("replay-first", "|◀", "Début", () => this.go(0)),
      btn("replay-back", "◀", "Coup précédent", () => this.go(this.k - 1)),
      btn("replay-forward", "▶", "Coup suivant", () => this.go(this.k + 1)),
      btn("replay-last", "▶|", "Fin", () => this.go(this.n)),
      this.slider, this.counter);
    const seatChoice = h("select", {
      id: "replay-viewer",
      "aria-label": "Vue depuis la place",
      onchange: (ev) => {
        this.viewer = Number(ev.target.value);
        this.draw();
      },
    }, rep.seats.map((s) => h("option", { value: s.seat, selected: s.seat === this.viewer }, this.name(s.seat))));
    const link = h("button.btn.small.ghost", {
      type: "button",
      id: "replay-link",
      onclick: () => navigator.clipboard?.writeText(location.href).then(() => { link.textContent = "lien copié"; }, () => {}),
    }, "copier le lien");
    this.scores = h("div.panel.scores", { id: "scores" });
    this.sheet = h("div.panel.sheet-box", { id: "sheet", hidden: true });
    this.logList = h("ol.log-list", { id: "log", "aria-label": "Journal de la partie" });
    const side = h("aside.side", this.scores, this.sheet, h("div.panel.log", h("h3", "Journal"), this.logList), shuffleBox(rep));
    const head = h("div.replay-head",
      h("h1", `${gameTitle(rep.game) || rep.title} — table ${rep.table}, partie ${rep.game_no}`),
      h("div.row", h("label.small", "Vu depuis ", seatChoice), link,
        h("a.btn.small.ghost", { href: `#/table/${rep.table}` }, "la table")));
    this.pageEl = h("div.table-page.replay-page", { id: "replay", dataset: { game: rep.game, steps: String(this.n) } },
      h("div.play", head, this.felt, h("div.me-zone", this.status, controls, this.hand)), side);
    replace(this.root, this.pageEl);
    document.addEventListener("keydown", this.onKey);
    this.go(Math.min(stepOfHash(), this.n));
  }

  stop() {
    this.stopped = true;
    document.removeEventListener("keydown", this.onKey);
  }

  name(seat) {
    return sceneOf(this.S, { player: this.player }).name(seat);
  }

  key(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = ev.target?.tagName;
    // the slider moves by itself with the arrows; a list keeps its own keys
    if (ev.target === this.slider || tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") return;
    const to = { ArrowLeft: this.k - 1, ArrowRight: this.k + 1, Home: 0, End: this.n }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    this.go(to);
  }

  go(k) {
    if (!this.rep) return;
    this.k = Math.max(0, Math.min(this.n, Number.isFinite(k) ? k : 0));
    history.replaceState(null, "", `${location.pathname}${location.search}${replayHref(this.tableId, this.gameNo, this.k)}`);
    this.draw();
  }

  /** The state message of step `k` as the table page would have it, every hand in it. */
  message(k) {
    const st = this.rep.steps[k];
    const hands = st.hands || null;
    const view = st.view ? { ...st.view, seat: this.viewer, hand: hands ? hands[this.viewer] : null, hands } : null;
    return { type: "state", table: this.rep.table, version: k, view, legal: [], to_act: st.to_act || [], deadline: null, over: false, outcome: null, events: st.events || [] };
  }

  linesOf(k) {
    if (this.lines[k] == null) {
      const S = { ...this.S, msg: this.message(k) };
      const scene = sceneOf(S, { player: this.player });
      this.lines[k] = describeEvents(this.rep.steps[k].events || [], scene).filter((x) => x.text).map((x) => ({ text: x.text, type: x.event.type }));
    }
    return this.lines[k];
  }

  draw() {
    const S = this.S;
    const k = this.k;
    S.msg = this.message(k);
    const c = sceneOf(S, { player: this.player });
    const v = c.view;
    this.pageEl.dataset.step = String(k);
    this.pageEl.dataset.phase = v?.phase ?? "";
    this.slider.value = String(k);
    this.counter.textContent = `coup ${k} / ${this.n}`;
    const st = this.rep.steps[k];
    const last = k === this.n && this.rep.complete;
    const lines = this.linesOf(k);
    let said = k === 0 ? "La donne, avant le premier coup." : lines.map((l) => l.text).join(" ") || `${this.name(st.seat)} joue.`;
    if (last && this.rep.outcome) {
      const w = this.rep.outcome.winners || [];
      said += ` Partie terminée${w.length ? ` : ${w.length > 1 ? "vainqueurs" : "vainqueur"} ${w.map((s) => this.name(s)).join(", ")}` : ""}.`;
    }
    this.status.textContent = said;
    if (!v) {
      replace(this.felt, h("p.muted", "La donne suivante n'est pas encore jouée."));
      this.hand.replaceChildren();
    } else {
      replace(this.felt, feltParts(c, {}));
      const cards = v.hand ? shownHand(c).map((code) => cardEl(code, c.kind, {})) : [];
      replace(this.hand, h("div.replay-hand-name", `Main de ${this.name(this.viewer)}`), cards.length ? cards : h("span.muted", "aucune carte"));
      this.hand.dataset.seat = String(this.viewer);
    }
    if (v) {
      replace(this.scores, scoresParts(c));
      const sheet = sheetParts(c);
      this.sheet.hidden = !sheet;
      if (sheet) replace(this.sheet, sheet);
    }
    const items = [];
    for (let i = 1; i <= k; i++) {
      for (const l of this.linesOf(i)) items.push(h("li", { class: `ev-${l.type}${i === k ? " current" : ""}`, dataset: { step: String(i) } }, l.text));
    }
    replace(this.logList, items.slice(-120));
    this.logList.scrollTop = this.logList.scrollHeight;
  }
}

/** The seat the player held in that game, if any. */
function player(rep, me) {
  if (!me) return null;
  const s = rep.seats.find((x) => x.kind === "player" && x.name === me.name);
  return s ? s.seat : null;
}
