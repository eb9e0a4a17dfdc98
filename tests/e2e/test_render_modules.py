"""The table's parts alone: the render modules of ``js/table/`` and its controller, loaded in a
page with no server behind it and fed state messages recorded from real tables
(``states/*.json``). What each part draws is checked against the recorded state itself: the
seats, the hand, the actions, the status line, the journal, the scores, the end of a game and
the waiting room; and the controller's rules (gaps, repeats, a move pending until its state is
shown, a refusal) with a socket that only records what it is asked.

The page is served by the browser's request routing straight from ``src/tablee/web``, so these
checks need no server, no database and no robot."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, Route

from .conftest import ROOT, SHOTS, Pages, screenshot

WEB = ROOT / "src" / "tablee" / "web"
STATES = Path(__file__).parent / "states"
ORIGIN = "http://client.test"
BLANK = (
    '<!doctype html><html lang="fr"><head><meta charset="utf-8">'
    '<link rel="stylesheet" href="/style.css"></head>'
    '<body><header id="topbar"><span id="crumb"></span></header>'
    '<main id="app"></main></body></html>'
)
TYPES = {".js": "text/javascript", ".css": "text/css"}

#: Every module a check may use, as ``T.name``; ``table(rec, i)`` is the state of a page that
#: shows the recorded state ``i`` (the last by default).
PRELUDE = """
const mods = await Promise.all(['scene', 'state', 'seats', 'felt', 'header', 'hand', 'panel',
  'status', 'journal', 'scores', 'outcome', 'waiting', 'controller', 'view']
  .map((m) => import(`/js/table/${m}.js`)));
const T = Object.assign({}, ...mods, await import('/js/actions.js'));
const table = (rec, i = -1) => {
  const S = T.newTableState();
  const msg = rec.states.at(i);
  S.info = msg.info;
  S.gameNo = msg.info.game_no;
  S.msg = msg;
  return S;
};
const sceneOf = (rec, S = table(rec)) => T.sceneOf(S, { player: rec.player });
const texts = (els) => [...els].map((e) => e.textContent);
const box = (...children) => {
  const d = document.createElement('div');
  d.append(...children.flat().filter((x) => x != null));
  return d;
};
"""


def recorded(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((STATES / f"{name}.json").read_text())
    return data


@pytest.fixture
def bare(pages: Pages) -> Iterator[Page]:
    """A page of the client's own files and nothing else: no server answers it."""
    page = pages.new()

    def serve(route: Route) -> None:
        path = urlparse(route.request.url).path
        if path == "/":
            route.fulfill(status=200, body=BLANK, content_type="text/html")
            return
        file = (WEB / path.lstrip("/")).resolve()
        if WEB not in file.parents or not file.is_file():
            route.fulfill(status=404, body="")
            return
        kind = TYPES.get(file.suffix, "text/plain")
        route.fulfill(status=200, body=file.read_bytes(), content_type=kind)

    page.route(f"{ORIGIN}/**", serve)
    page.goto(f"{ORIGIN}/")
    yield page


def run(page: Page, body: str, rec: dict[str, Any] | None = None) -> Any:
    return page.evaluate(f"async (rec) => {{ {PRELUDE}\n{body} }}", rec)


def test_the_seats_and_the_trick_are_drawn_from_a_recorded_tarot_state(bare: Page) -> None:
    rec = recorded("tarot-play")
    msg = rec["states"][-1]
    view = msg["view"]
    got = run(
        bare,
        """
        const c = sceneOf(rec);
        const layer = T.seatsLayer(c);
        const felt = box(T.feltParts(c, { onToggleLast: () => {} }));
        // the same table seen from seat 2: the viewer is always at the bottom
        const S = table(rec);
        const seen = { ...S, msg: { ...S.msg, view: { ...S.msg.view, seat: 2 } } };
        const across = T.seatsLayer(T.sceneOf(seen, { player: rec.player }));
        const place = (b) => [...b.classList].find((k) => k.startsWith('pos-'));
        return {
          across: [...across.children].map(place),
          me: c.mySeat, n: c.n,
          seats: [...layer.children].map((b) => ({
            seat: Number(b.dataset.seat),
            cls: b.className,
            name: b.querySelector('.nm').textContent,
            dealer: b.querySelector('.chip.dealer') !== null,
            count: b.querySelector('.count')?.textContent ?? null,
          })),
          trick: [...felt.querySelectorAll('#trick .card')].map((e) => e.dataset.card),
          head: felt.querySelector('.felt-head').textContent,
          contract: felt.querySelector('#contract')?.textContent ?? null,
        };
        """,
        rec,
    )
    assert got["me"] == view["seat"] == 0 and got["n"] == 4
    seats = {s["seat"]: s for s in got["seats"]}
    assert sorted(seats) == [0, 1, 2, 3]
    # the viewer at the bottom, the seat to act marked, the dealer's chip on the dealer
    assert "me" in seats[0]["cls"] and "pos-bottom" in seats[0]["cls"]
    # counterclockwise, as at a French table: the next seat on the viewer's right
    places = [seats[s]["cls"].split("pos-")[1].split()[0] for s in range(4)]
    assert places == ["bottom", "right", "top", "left"]
    assert got["across"] == ["pos-top", "pos-left", "pos-bottom", "pos-right"]
    assert [s for s in seats if "to-act" in seats[s]["cls"]] == msg["to_act"]
    assert [s for s in seats if seats[s]["dealer"]] == [view["dealer"]]
    assert seats[0]["name"] == "Alice" and seats[1]["name"] == "Robot 2"
    assert all("bot" in seats[s]["cls"] for s in (1, 2, 3))
    assert [seats[s]["count"] for s in range(4)] == [str(n) for n in view["counts"]]
    # the trick's cards, in the order played, and the contract in a chip
    assert got["trick"] == [t["card"] for t in view["trick"]]
    assert got["head"].startswith("Tarot") and "donne 1" in got["head"]
    assert got["contract"] == "Preneur : Alice, prise"


def test_the_hand_names_each_card_by_what_it_does(bare: Page) -> None:
    rec = recorded("tarot-play")
    msg = rec["states"][-1]
    got = run(
        bare,
        """
        const S = table(rec);
        const c = sceneOf(rec, S);
        const model = T.analyse(c.legal, c.view.hand);
        const clicked = [];
        const cards = T.handCards(c, model, S, (code) => clicked.push(code));
        for (const el of cards) el.click();
        return {
          cards: cards.map((e) => ({ card: e.dataset.card, disabled: e.disabled,
            label: e.getAttribute('aria-label'), dimmed: e.classList.contains('dimmed') })),
          clicked, label: T.handLabel(c.view.hand),
        };
        """,
        rec,
    )
    hand = msg["view"]["hand"]
    legal = {a["card"] for a in msg["legal"]}
    assert sorted(c["card"] for c in got["cards"]) == sorted(hand)
    assert got["label"] == f"Votre main : {len(hand)} cartes"
    playable = [c for c in got["cards"] if not c["disabled"]]
    assert {c["card"] for c in playable} == legal
    assert all(c["label"].startswith("Jouer ") for c in playable)
    # a card that cannot be played is dimmed and read by its name, never by a verb
    others = [c for c in got["cards"] if c["disabled"]]
    assert all(c["dimmed"] and not c["label"].startswith("Jouer") for c in others)
    # a click reaches the page only from a playable card
    assert set(got["clicked"]) == legal


def test_belote_bidding_the_status_line_and_the_actions(bare: Page) -> None:
    rec = recorded("belote-bidding")
    view = rec["states"][-1]["view"]
    got = run(
        bare,
        """
        const S = table(rec);
        const sent = [];
        const c = T.sceneOf(S, { player: rec.player, send: (a) => sent.push(a) });
        const model = T.analyse(c.legal, c.view.hand);
        const panel = box(T.panelControls(c, model, S));
        const buttons = [...panel.querySelectorAll('button')];
        buttons.find((b) => b.dataset.type === 'take').click();
        const line = T.statusOf(c);
        const waiting = { ...S, msg: { ...S.msg, legal: [], to_act: [1] } };
        const other = T.statusOf(T.sceneOf(waiting, { player: rec.player }));
        const felt = box(T.feltParts(c, {}));
        return {
          buttons: buttons.map((b) => [b.dataset.type, b.textContent]), sent,
          line, other, status: box(T.statusParts(c, line)).textContent,
          turned: felt.querySelector('#turned .card')?.dataset.card,
          head: felt.querySelector('.felt-head').textContent,
          bubbles: felt.querySelectorAll('.bubble').length,
        };
        """,
        rec,
    )
    assert sorted(got["buttons"]) == [["pass", "Passer"], ["take", "Prendre"]]
    assert got["sent"] == [{"type": "take"}]
    assert got["line"]["text"] == "Prenez-vous la carte retournée ?"
    assert got["line"]["myTurn"] and got["line"]["forMe"]
    assert got["status"] == "Prenez-vous la carte retournée ?"
    # another seat's turn: for the eyes only, and a new key (the line is said again)
    assert got["other"]["text"] == "Robot 2 réfléchit…" and not got["other"]["forMe"]
    assert got["other"]["key"] != got["line"]["key"]
    assert got["turned"] == view["turned"]
    assert "Belote" in got["head"] and "Enchères" in got["head"]


def test_the_end_of_a_game_for_a_player_a_spectator_and_a_closed_table(bare: Page) -> None:
    player = recorded("contrecarte-over")
    watcher = recorded("contrecarte-over-spectator")
    outcome = player["states"][-1]["outcome"]
    got = run(
        bare,
        """
        const mine = sceneOf(rec.player);
        const theirs = sceneOf(rec.watcher);
        const panel = (c) => T.outcomePanel(c, { onRematch: () => {}, onHide: () => {} });
        const S = table(rec.player);
        S.msg = { ...S.msg, outcome: { closed: true, reason: 'Tricherie signalée' } };
        const closed = T.sceneOf(S, { player: rec.player.player });
        return {
          mine: {
            text: panel(mine).textContent,
            rematch: panel(mine).querySelector('#rematch') !== null,
            status: T.statusOf(mine).text,
            scores: box(T.scoresParts(mine)).textContent,
          },
          theirs: { rematch: panel(theirs).querySelector('#rematch') !== null, me: theirs.mySeat },
          closed: { text: T.closedPanel(closed).textContent, status: T.statusOf(closed).text },
        };
        """,
        {"player": player, "watcher": watcher},
    )
    winners = outcome["winners"]
    names = {0: "Alice", 1: "Robot 2"}
    assert f": {', '.join(names[w] for w in winners)}" in got["mine"]["text"]
    assert got["mine"]["rematch"] and got["mine"]["status"] == "Partie terminée."
    assert "Victoires à cette table" in got["mine"]["scores"]
    # a spectator sees the outcome, and is offered no rematch
    assert got["theirs"]["me"] is None and not got["theirs"]["rematch"]
    assert "Tricherie signalée" in got["closed"]["text"]
    assert got["closed"]["status"] == "Table fermée par l'administration."


def test_the_waiting_room(bare: Page) -> None:
    rec = recorded("belote-waiting")
    got = run(
        bare,
        """
        const c = sceneOf(rec);
        const joined = [];
        const onJoin = (s) => joined.push(s);
        const room = (isCreator) => T.waitingRoom(c, { isCreator, link: 'L', onJoin });
        const r = room(true);
        return {
          rows: [...r.querySelectorAll('.wait-seat')].map((e) => e.textContent),
          start: r.querySelector('#start-bots') !== null, leave: r.querySelector('#leave') !== null,
          startForGuest: room(false).querySelector('#start-bots') !== null,
          join: r.querySelectorAll('[data-join-seat]').length, status: c.info.status,
        };
        """,
        rec,
    )
    assert got["status"] == "waiting"
    assert len(got["rows"]) == 4
    assert got["rows"][0].endswith("Alice (vous)")
    assert got["rows"][2] == "Place 3libre"
    # the creator may start with robots; a seated player is offered no seat to join
    assert got["start"] and got["leave"] and not got["startForGuest"] and got["join"] == 0


def test_the_journal_adds_only_the_new_lines(bare: Page) -> None:
    rec = recorded("belote-game")
    got = run(
        bare,
        """
        const c = sceneOf(rec);
        const lines = [];
        for (const msg of rec.states) {
          for (const { event, text } of T.describeEvents(msg.events, c)) {
            const line = { seq: lines.length + 1, text, type: event.type, mine: event.seat === 0 };
            if (text) lines.push(line);
          }
        }
        const list = document.createElement('ol');
        const half = Math.floor(lines.length / 2);
        const shown1 = T.appendJournal(list, lines.slice(0, half), 0);
        const first = list.firstElementChild;
        const shown2 = T.appendJournal(list, lines, shown1);
        const shown3 = T.appendJournal(list, lines, shown2);
        const many = document.createElement('ol');
        const long = Array.from({ length: 200 }, (_, i) => ({ seq: i + 1, text: 'x', type: 'x' }));
        T.appendJournal(many, long, 0);
        return {
          n: lines.length, half, shown1, shown2, shown3,
          kept: list.firstElementChild === first,
          texts: texts(list.children),
          many: many.children.length,
          LOG_SHOWN: T.LOG_SHOWN,
          mine: list.querySelectorAll('li.mine').length,
        };
        """,
        rec,
    )
    assert got["n"] > 4
    assert got["shown1"] == got["half"] and got["shown2"] == got["shown3"] == got["n"]
    # the first lines stayed where they were: a live region reads only what is added
    assert got["kept"] and len(got["texts"]) == got["n"]
    assert any("Alice prend" in t for t in got["texts"]), got["texts"]
    assert got["mine"] > 0
    assert got["many"] == got["LOG_SHOWN"]


#: A socket that records what the controller asks of it; ``answer`` settles the last move.
FAKE_SOCKET = """
const calls = [];
let answer = null;
const socket = {
  ready: true,
  subscribe: (t) => calls.push(['subscribe', t]),
  unsubscribe: (t) => calls.push(['unsubscribe', t]),
  sync: (t) => calls.push(['sync', t]),
  act: (t, action) => new Promise((resolve, reject) => {
    calls.push(['act', t, action]);
    answer = { resolve, reject };
  }),
};
const api = { table: async () => rec.states[0].info };
const S = T.newTableState();
const drawn = [];
const busy = [];
const id = rec.states[0].table;
const gathered = [];
const ctl = new T.TableController(id, { socket, api, player: rec.player, state: S,
  draw: () => drawn.push(S.msg?.version ?? null), markBusy: (on) => busy.push(on),
  invalidate: () => {}, gone: () => {}, gather: async (held) => gathered.push(held.winner) });
const tick = () => new Promise((r) => setTimeout(r, 0));
"""


def test_the_controller_shows_every_state_and_asks_for_a_sync_on_a_gap(bare: Page) -> None:
    rec = recorded("belote-game")
    versions = [s["version"] for s in rec["states"][1:]]
    got = run(
        bare,
        FAKE_SOCKET
        + """
        ctl.subscribe();
        // the first state (the subscription's) has no events
        const [a, b, c, ...rest] = rec.states.slice(1);
        ctl.receive(a);
        const lines1 = S.log.length;
        ctl.receive(a);  // the same version again: no new lines
        const lines2 = S.log.length;
        ctl.receive(c);  // b is skipped: a gap
        const syncs = calls.filter((x) => x[0] === 'sync').length;
        ctl.receive({ ...b, table: id + 1000 });  // another table's: ignored
        for (const m of rest) ctl.receive(m);
        return { lines1, lines2, syncs, drawn, calls, shown: S.msg.version, log: S.log.length };
        """,
        rec,
    )
    assert got["lines1"] == got["lines2"] > 0
    assert got["syncs"] == 1
    assert ["sync", rec["states"][0]["table"]] in got["calls"]
    # every state of the table reached the screen, in order; the screen ends on the last one
    assert got["drawn"] == [versions[0], versions[0], *versions[2:]]
    assert got["shown"] == versions[-1]


def test_a_move_stays_pending_until_its_state_is_shown_and_a_refusal_is_counted(
    bare: Page,
) -> None:
    rec = recorded("belote-game")
    got = run(
        bare,
        FAKE_SOCKET
        + """
        const i = rec.states.findIndex((m) => m.legal.length);
        const [first, next] = [rec.states[i], rec.states[i + 1]];
        ctl.receive(first);
        const move = first.legal[0];
        ctl.send(move);
        ctl.send(move);  // a second click while the first is on its way: nothing sent
        const sent = calls.filter((x) => x[0] === 'act').length;
        const busyAfterClick = S.busy;
        answer.resolve({ type: 'ack' });
        await tick();
        const busyAfterAck = S.busy;  // acked, but its state is not on screen yet
        ctl.receive(next);
        const busyAfterState = S.busy;
        ctl.send(move);
        const refusal = new Error('you must follow hearts');
        answer.reject(Object.assign(refusal, { code: 'illegal_action' }));
        await tick();
        return { sent, busyAfterClick, busyAfterAck, busyAfterState, busyAfterRefusal: S.busy,
                 refused: S.refused, busy, toast: document.querySelector('#toast')?.textContent };
        """,
        rec,
    )
    assert got["sent"] == 1
    assert got["busyAfterClick"] and got["busyAfterAck"]
    assert not got["busyAfterState"]
    assert not got["busyAfterRefusal"] and got["refused"] == 1
    assert got["busy"] == [True, False, True, False]
    assert got["toast"].startswith("Ce coup n'est pas permis.")


@pytest.mark.parametrize("name", ["tarot-play", "belote-bidding", "contrecarte-over"])
def test_the_whole_page_drawn_from_a_recorded_state_alone(bare: Page, name: str) -> None:
    rec = recorded(name)
    msg = rec["states"][-1]
    got = run(
        bare,
        """
        const S = table(rec);
        const view = new T.TableView(document.getElementById('app'), {
          tableId: rec.states.at(-1).table,
          player: rec.player,
          state: S,
          actions: { send: () => {} },
        });
        view.draw();
        const t = document.getElementById('table');
        return { data: { ...t.dataset }, seats: document.querySelectorAll('#felt .seat').length,
                 hand: [...document.querySelectorAll('#hand .card')].map((e) => e.dataset.card),
                 status: document.getElementById('status').textContent,
                 result: !document.getElementById('result').hidden };
        """,
        rec,
    )
    assert got["data"]["version"] == str(msg["version"])
    assert got["data"]["seat"] == "0" and got["data"]["over"] == ("1" if msg["over"] else "0")
    assert got["seats"] == msg["info"]["players"]
    assert sorted(got["hand"]) == sorted(msg["view"].get("hand") or [])
    assert got["result"] == msg["over"]
    screenshot(bare, f"render-{name}")


def test_a_completed_trick_stays_and_the_states_received_meanwhile_end_on_screen(
    bare: Page,
) -> None:
    """A state that completes a trick keeps it on the felt; the robots' states that arrive
    meanwhile wait and are shown in turn: none is lost, the screen ends on the last one."""
    rec = recorded("belote-game")
    states = rec["states"][1:]
    done = [i for i, m in enumerate(states) if any(e["type"] == "trick" for e in m["events"])]
    assert len(done) >= 2
    got = run(
        bare,
        FAKE_SOCKET
        + """
        window.tableeTrickPause = 300;
        ctl.subscribe();
        const states = rec.states.slice(1);
        const first = states.findIndex((m) => T.completedTrick(m));
        for (const m of states.slice(0, first + 1)) ctl.receive(m);
        const held = S.held;
        const shownAtHold = S.msg.version;
        // the robots play on during the pause: several states arrive at once
        for (const m of states.slice(first + 1)) ctl.receive(m);
        const shownDuring = S.msg.version;
        const waiting = ctl.queue.length;
        await new Promise((r) => setTimeout(r, 1500));
        return { held, shownAtHold, shownDuring, waiting, shown: S.msg.version, drawn, gathered,
                 heldAfter: S.held, log: S.log.length };
        """,
        rec,
    )
    first = states[done[0]]
    trick = next(e for e in first["events"] if e["type"] == "trick")
    assert got["held"] == {"cards": trick["cards"], "winner": trick["seat"]}
    assert got["shownAtHold"] == got["shownDuring"] == first["version"]
    assert got["waiting"] == len(states) - done[0] - 1
    # every state reached the screen in order, the last one last; each trick went to its winner
    order = list(dict.fromkeys(got["drawn"]))
    assert order == [m["version"] for m in states]
    assert got["shown"] == states[-1]["version"] and got["heldAfter"] is None
    assert got["gathered"] == [
        next(e["seat"] for e in states[i]["events"] if e["type"] == "trick") for i in done
    ]


def test_a_move_of_the_player_gathers_the_trick_at_once(bare: Page) -> None:
    rec = recorded("belote-game")
    got = run(
        bare,
        FAKE_SOCKET
        + """
        window.tableeTrickPause = 60000;
        const states = rec.states.slice(1);
        const first = states.findIndex((m) => T.completedTrick(m));
        for (const m of states.slice(0, first + 1)) ctl.receive(m);
        const heldBefore = Boolean(S.held);
        ctl.send({ type: 'play', card: '7S' });
        await tick();
        await tick();
        return { heldBefore, heldAfter: S.held, sent: calls.filter((x) => x[0] === 'act').length };
        """,
        rec,
    )
    assert got["heldBefore"] and got["heldAfter"] is None and got["sent"] == 1


def test_the_hand_is_sorted_tarot_suits_alternate_contrecarte_by_colour(bare: Page) -> None:
    got = run(
        bare,
        """
        const at = (game, hand) => {
          const S = T.newTableState();
          S.msg = { version: 1, over: false, legal: [], to_act: [],
                    view: { game, players: 4, seat: 0, hand } };
          S.info = { game, players: 4, seats: [] };
          return T.shownHand(T.sceneOf(S, { player: { id: 1 } }));
        };
        return {
          tarot: at('tarot', ['8H', 'CH', '2D', '4D', '3C', 'KS', 'A2', 'EX', '1S']),
          cc: at('contrecarte', ['Y3', 'W', 'B1', 'R+2', 'G5', 'R4', 'Y1', 'W+4', 'RS']),
        };
        """,
    )
    assert got["tarot"] == ["KS", "1S", "8H", "CH", "3C", "2D", "4D", "A2", "EX"]
    assert got["cc"] == ["R4", "R+2", "RS", "G5", "Y1", "Y3", "B1", "W", "W+4"]


def test_every_column_of_the_tarot_score_sheet_shows_at_five_on_a_laptop(
    pages: Pages, bare: Page
) -> None:
    """The tarot score sheet at five players, long names and big scores, on a 1366×768 laptop:
    no column hidden behind a sideways scroll."""
    bare.set_viewport_size({"width": 1366, "height": 768})
    rec = recorded("tarot-play")
    got = run(
        bare,
        """
        const S = table(rec);
        const names = ['Bérénice', 'Maximilien', 'Robot 3', 'Anne-Charlotte', 'Robot 5'];
        S.info = { ...S.info, players: 5, seats: names.map((name, seat) => (
          { seat, kind: name.startsWith('Robot') ? 'bot' : 'player', player_id: seat + 10,
            name: name.startsWith('Robot') ? null : name, connected: true })) };
        S.info.seats[0].player_id = rec.player.id;
        const history = [1, 2, 3, 4, 5, 6].map((deal) => ({ deal, taker: deal % 5,
          contract: ['prise', 'garde', 'garde_sans', 'garde_contre'][deal % 4],
          made: deal % 2 === 0,
          points: 41, bouts: 2, required: 41, shares: [-1234, 2468, -1234, 616, -616] }));
        S.msg = { ...S.msg, view: { ...S.msg.view, players: 5, history } };
        const view = new T.TableView(document.getElementById('app'), {
          tableId: S.msg.table, player: rec.player, state: S, actions: { send: () => {} } });
        view.draw();
        const sheet = document.querySelector('#sheet');
        const scroll = sheet.querySelector('.sheet-scroll');
        const right = sheet.getBoundingClientRect().right;
        const cells = [...sheet.querySelectorAll('th, td')]
          .map((c) => c.getBoundingClientRect().right);
        const cut = [...sheet.querySelectorAll('td.num')]
          .filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent);
        return { heads: sheet.querySelectorAll('thead th').length, cut,
                 sideways: scroll.scrollWidth - scroll.clientWidth,
                 overflow: Math.max(...cells) - right };
        """,
        rec,
    )
    assert got["heads"] == 6
    assert got["sideways"] <= 0, "the score sheet scrolls sideways"
    assert got["overflow"] <= 0
    assert got["cut"] == [], "scores cut short"
    bare.locator("#sheet").screenshot(path=str(SHOTS / "room-tarot-sheet-5.png"))


def test_a_yaniv_joker_in_a_run_says_its_card_and_the_contrecarte_direction_turns_as_seen(
    bare: Page,
) -> None:
    got = run(
        bare,
        """
        const y = await import('/js/games/yaniv.js');
        const cc = (await import('/js/games/contrecarte.js')).default;
        const places = (cards, kind) => {
          const m = y.jokerPlaces(cards, kind);
          return m ? Object.fromEntries(m) : null;
        };
        const chip = (direction) => box(cc.chips({ direction }, { name: String })).textContent;
        return {
          low: places(['X1', '2C', '3C']),
          high: places(['2C', '3C', 'X1']),
          middle: places(['5H', 'X2', '7H', 'X1']),
          set: places(['5H', '5S', 'X1']),
          known: places(['5H', 'X1', 'X2'], 'run'),
          unknown: places(['5H', 'X1', 'X2']),
          normal: chip(1), reversed: chip(-1),
        };
        """,
    )
    assert got["low"] == {"0": "AC"} and got["high"] == {"2": "4C"}
    assert got["middle"] == {"1": "6H", "3": "8H"}
    assert got["set"] is None and got["unknown"] is None
    assert got["known"] == {"1": "6H", "2": "7H"}
    # the next seat (+1) is on the viewer's right: counterclockwise on screen
    assert "↺" in got["normal"] and "↻" in got["reversed"]
