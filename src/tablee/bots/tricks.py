"""The search robot's adapters for the trick games: belote, contrée, tarot, barbu, motton.

Each adapter reads the seat's view and the events of the current deal (``knowledge``), deals the
hidden cards as that knowledge allows, and puts them into a full state of the game (``build``):
the state's JSON, every field taken from the view or the events, the hidden hands from the deal,
then ``game.from_json``. It knows the games only through their documented views, events and state
field names, never their code.

What each game's knowledge holds (beyond the seat's hand and the cards played):

- voids: a seat that did not follow the suit led holds none of it; one that did not trump when
  the rules made it (belote: an opponent held the trick; tarot: always) holds no trump; one that
  played a trump no higher than the best in the trick when it had to go higher holds no higher
  trump; barbu: a heart led before hearts were opened means a hand of hearts only; tarot at five:
  the called suit opened on the first trick with another card means a hand of that suit only;
- belote and contrée: the turned card lies in the taker's hand (belote); the seat that announced
  belote holds the other card of the pair; a seat that played the trump king or queen without
  announcing does not hold the other;
- tarot: the chien when it was shown (then in the taker's hand or écart), the trumps shown in the
  écart, the poignées' cards, what the écart may hold (no king, trump or Excuse but the shown
  trumps), the called card's name;
- motton: the stock and (``blind``) the turned card are piles of their own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tablee.engine import Action, Event, Game

from .bidding import BELOTE_TAKE, CONTREE_BASE, CONTREE_SCALE, belote_suit_strength
from .knowledge import (
    History,
    Knowledge,
    Place,
    Play,
    deal_history,
    exclude,
    knowledge,
)
from .search import Adapter

SUITS = "SHDC"

# -- belote and contrée ---------------------------------------------------------------------------

BELOTE_TRUMP_ORDER = "78QKTA9J"
BELOTE_PLAIN_ORDER = "789JQKTA"
BELOTE_DECK = tuple(r + s for s in SUITS for r in BELOTE_PLAIN_ORDER)


def _belote_winner(plays: Sequence[Play], trump: str) -> int:
    """The seat holding the trick so far."""
    led = plays[0][1][1]

    def key(card: str) -> tuple[int, int]:
        if card[1] == trump:
            return (2, BELOTE_TRUMP_ORDER.index(card[0]))
        if card[1] == led:
            return (1, BELOTE_PLAIN_ORDER.index(card[0]))
        return (0, 0)

    return max(plays, key=lambda p: key(p[1]))[0]


def belote_voids(
    before: Sequence[Play], seat: int, card: str, trump: str, out: dict[Place, set[str]]
) -> None:
    """What ``seat`` cannot hold any more after playing ``card`` on ``before`` (belote's rules:
    follow; void, trump when an opponent holds the trick; a trump goes higher when it can)."""
    if not before:
        return
    led = before[0][1][1]
    trumps_in = [BELOTE_TRUMP_ORDER.index(c[0]) for _, c in before if c[1] == trump]
    top = max(trumps_in, default=-1)
    higher = [r + trump for r in BELOTE_TRUMP_ORDER[top + 1 :]]
    if card[1] == led:
        if led == trump and BELOTE_TRUMP_ORDER.index(card[0]) < top:
            exclude(out, seat, higher)
        return
    exclude(out, seat, [r + led for r in BELOTE_PLAIN_ORDER])
    if led == trump:
        return
    if card[1] == trump:
        if BELOTE_TRUMP_ORDER.index(card[0]) < top:
            exclude(out, seat, higher)
    elif _belote_winner(before, trump) != (seat + 2) % 4:
        exclude(out, seat, [r + trump for r in BELOTE_TRUMP_ORDER])


#: how far a call may be from what the débutant's measure of the hand says, and still be read as
#: agreeing with it
BID_SLACK = 10


def promise(hand: Sequence[str], suit: str) -> float:
    """What the débutant bids on ``hand`` with ``suit`` as trump (``bidding.contree``)."""
    return CONTREE_BASE + CONTREE_SCALE * belote_suit_strength(hand, suit)


class BeloteAdapter(Adapter):
    """Belote and contrée (one family: the same state, views and play)."""

    def knowledge(
        self, game: Game, view: Mapping[str, Any], events: Sequence[Event]
    ) -> Knowledge | None:
        phase = view.get("phase")
        seat = view.get("seat")
        if seat is None or phase not in ("bidding", "play"):
            return None
        hand = list(view["hand"])
        counts = view["counts"]
        sizes: dict[Place, int] = {s: counts[s] for s in range(4) if s != seat}
        turned = view.get("turned")
        if phase == "bidding":
            gone = [turned] if turned else []
            stock = 32 - sum(counts) - len(gone)
            if stock:
                sizes["stock"] = stock
            return knowledge(seat, BELOTE_DECK, hand, gone, sizes)
        history = deal_history(view, events)
        if history is None:
            return None
        contract = view["contract"]
        trump, taker = contract["trump"], contract["taker"]
        played = history.played()
        known: dict[Place, list[str]] = {}
        if turned and taker != seat and turned not in played:
            known.setdefault(taker, []).append(turned)
        excluded: dict[Place, set[str]] = {}
        for _, before, s, card in history.all_plays():
            if s != seat:
                belote_voids(before, s, card, trump, excluded)
        # belote: who announced holds the pair; who played K or Q of trump silently does not
        announced = {
            str(e["card"]): int(e["seat"])
            for e in history.events
            if e.get("type") in ("belote", "rebelote")
        }
        pair = ("K" + trump, "Q" + trump)
        for s, card in [(s, c) for _, _, s, c in history.all_plays()]:
            if card in pair and s != seat:
                other = pair[1 - pair.index(card)]
                if card in announced:
                    if other not in played and other not in hand:
                        known.setdefault(s, []).append(other)
                else:
                    exclude(excluded, s, [other])
        return knowledge(seat, BELOTE_DECK, hand, played, sizes, known, excluded, history)

    def build(
        self, game: Game, view: Mapping[str, Any], know: Knowledge, deal: Mapping[Place, list[str]]
    ) -> Any:
        seat = know.seat
        hands = [list(view["hand"]) if s == seat else list(deal.get(s, ())) for s in range(4)]
        contract = view.get("contract")
        holder = None
        history = know.history
        if contract is not None and view["phase"] == "play":
            trump = contract["trump"]
            pair = {"K" + trump, "Q" + trump}
            announced = view.get("belote") or []
            if announced:
                holder = announced[0]["seat"]
            else:
                assert history is not None
                for s in range(4):
                    if pair <= {*hands[s], *history.played_by(s)}:
                        holder = s
        data = {
            "seed": 0,
            "target": view.get("target"),
            "deal": view["deal"],
            "dealer": view["dealer"],
            "phase": view["phase"],
            "turn": view["turn"],
            "hands": hands,
            "stock": list(deal.get("stock", ())),
            "turned": view.get("turned"),
            "round": view.get("round") or 1,
            "calls": [
                {
                    "seat": b["seat"],
                    "type": b["type"],
                    "value": b.get("value"),
                    "suit": b.get("suit"),
                }
                for b in view.get("bids") or ()
            ],
            "contract": contract,
            "leader": view["leader"],
            "trick": [p["card"] for p in view.get("trick") or ()],
            "tricks": []
            if history is None
            else [
                {"leader": t.leader, "cards": list(t.cards), "winner": t.winner}
                for t in history.tricks
            ],
            "belote_holder": holder,
            "announced": [
                {"seat": a["seat"], "type": a["type"], "value": None, "suit": None}
                for a in view.get("belote") or ()
            ],
            "scores": list(view.get("team_scores") or (0, 0)),
            "sheet": [
                {k: v for k, v in row.items() if k != "cancelled"}
                for row in view.get("sheet") or ()
            ],
        }
        return game.from_json(data)

    def played_deal(
        self,
        game: Game,
        view: Mapping[str, Any],
        deal: Mapping[Place, list[str]],
        seat: int,
        contract: Mapping[str, Any],
    ) -> Any:
        """A state at the first card of the deal dealt by ``deal`` (contrée: every hand complete
        at the bidding) under ``contract``: for the bidding's estimates."""
        hands = [list(view["hand"]) if s == seat else list(deal.get(s, ())) for s in range(4)]
        trump = contract["trump"]
        pair = {"K" + trump, "Q" + trump}
        first = (view["dealer"] + 1) % 4
        data = {
            "seed": 0,
            "target": None,
            "deal": view["deal"],
            "dealer": view["dealer"],
            "phase": "play",
            "turn": first,
            "hands": hands,
            "stock": [],
            "turned": None,
            "round": 1,
            "calls": [],
            "contract": dict(contract),
            "leader": first,
            "trick": [],
            "tricks": [],
            "belote_holder": next((s for s in range(4) if pair <= set(hands[s])), None),
            "announced": [],
            "scores": [0, 0],
            "sheet": [],
        }
        return game.from_json(data)

    def violations(
        self, view: Mapping[str, Any], know: Knowledge, deal: Mapping[Place, list[str]]
    ) -> int:
        """The other seats' calls read as the débutant makes them (``bidding``): a bid promises
        its value in its suit, a take a strong hand in the trump, a first-round pass (while the
        hands are the first five cards) no such hand; ``BID_SLACK`` of leeway either way."""
        seat = know.seat
        history = know.history
        bad = 0
        contract: Mapping[str, Any] | None = None
        turned = view.get("turned")
        for call in view.get("bids") or ():
            x, kind = call["seat"], call["type"]
            if x == seat or kind not in ("bid", "take", "pass"):
                if kind == "bid":
                    contract = {"taker": x, "trump": call["suit"], "value": call["value"]}
                continue
            hand = list(deal.get(x, ()))
            if history is not None:
                hand += history.played_by(x)
            if kind == "bid":
                raise_of_partner = (
                    contract is not None
                    and contract["taker"] == (x + 2) % 4
                    and contract["trump"] == call["suit"]
                )
                if not raise_of_partner and promise(hand, call["suit"]) < call["value"] - BID_SLACK:
                    bad += 1
                contract = {"taker": x, "trump": call["suit"], "value": call["value"]}
            elif kind == "take":
                suit = call.get("suit") or (turned[1] if turned else None)
                if suit is not None and belote_suit_strength(hand, suit) < BELOTE_TAKE - 2:
                    bad += 1
            elif view["game"] == "contree":
                floor = 80 if contract is None else contract["value"] + 10
                mine = contract is not None and contract["taker"] % 2 == x % 2
                if not mine and max(promise(hand, s) for s in SUITS) >= floor + 2 * BID_SLACK:
                    bad += 1
            elif (
                view["phase"] == "bidding"
                and turned
                and view.get("round") == 1
                and belote_suit_strength([*hand, turned], turned[1]) >= BELOTE_TAKE + 2
            ):
                bad += 1
        return bad

    def utility(self, event: Event, seat: int) -> float | None:
        kind = event.get("type")
        if kind == "deal_end":
            scores = event["scores"]
            return float(scores[seat % 2] - scores[1 - seat % 2])
        if kind == "redeal":
            return 0.0
        return None

    def bidding(self, state: Any) -> bool:
        return str(state.phase.value) == "bidding"


# -- tarot ----------------------------------------------------------------------------------------

TAROT_RANKS = "123456789TJCQK"
TAROT_TRUMPS = tuple(f"A{i}" for i in range(1, 22))
EXCUSE = "EX"


def _tarot_suit(card: str) -> str:
    if card == EXCUSE:
        return EXCUSE
    return "A" if card[0] == "A" and card[1:].isdigit() else card[1]


def _tarot_power(card: str) -> int:
    return int(card[1:]) if _tarot_suit(card) == "A" else TAROT_RANKS.index(card[0]) + 1


def tarot_voids(before: Sequence[Play], seat: int, card: str, out: dict[Place, set[str]]) -> None:
    """What ``seat`` cannot hold after playing ``card`` on ``before`` (tarot: follow; void,
    trump; a trump goes above the best trump in the trick when it can; the Excuse is free)."""
    if card == EXCUSE:
        return
    led = next((_tarot_suit(c) for _, c in before if c != EXCUSE), None)
    if led is None:
        return
    top = max((_tarot_power(c) for _, c in before if _tarot_suit(c) == "A"), default=0)
    suit = _tarot_suit(card)
    above = [f"A{i}" for i in range(top + 1, 22)]
    if suit == led:
        if led == "A" and _tarot_power(card) < top:
            exclude(out, seat, above)
        return
    exclude(out, seat, [r + led for r in TAROT_RANKS] if led != "A" else TAROT_TRUMPS)
    if suit == "A":
        if _tarot_power(card) < top:
            exclude(out, seat, above)
    else:
        exclude(out, seat, TAROT_TRUMPS)


_HALF_POINTS = {"K": 9, "Q": 7, "C": 5, "J": 3}


def tarot_ecart(hand: Sequence[str], legal: Sequence[Action]) -> Action | None:
    """A club player's écart, one card at a time: void the short suits that hold no king (their
    cards would fall to the defence's kings; in the écart their points are the taker's), the
    shortest first and its honours first; then the small cards of the suits with a king; a
    trump only when the rules force it, the lowest."""
    cards = [a["card"] for a in legal if a["type"] == "discard"]
    if not cards:
        return None
    length = {s: sum(1 for c in hand if _tarot_suit(c) == s) for s in SUITS}

    def key(card: str) -> tuple[int, int, int, int]:
        suit = _tarot_suit(card)
        if suit not in length:
            return (3, 0, 0, _tarot_power(card))
        guarded = "K" + suit in hand
        return (int(guarded), length[suit], -_HALF_POINTS.get(card[0], 1), _tarot_power(card))

    return {"type": "discard", "card": min(cards, key=key)}


class TarotAdapter(Adapter):
    def knowledge(
        self, game: Game, view: Mapping[str, Any], events: Sequence[Event]
    ) -> Knowledge | None:
        phase = view.get("phase")
        seat = view.get("seat")
        if seat is None or phase not in ("bid", "call", "ecart", "chelem", "play"):
            return None
        n = view["players"]
        deck = game.deck(n)
        hand = list(view["hand"])
        counts = view["counts"]
        size = view["chien_size"]
        taker, contract = view.get("taker"), view.get("contract")
        sizes: dict[Place, int] = {s: counts[s] for s in range(n) if s != seat}
        known: dict[Place, list[str]] = {}
        excluded: dict[Place, set[str]] = {}
        gone: list[str] = []
        history: History | None = None
        shown_chien = view.get("chien")
        if phase == "play":
            history = deal_history(view, events)
            if history is None:
                return None
            gone += history.played()
        if shown_chien is None and (
            phase in ("bid", "call") or contract in ("garde_sans", "garde_contre")
        ):
            sizes["chien"] = size
        if taker == seat:
            gone += [c for c in view.get("ecart") or () if c not in gone]
        elif shown_chien is not None and phase != "ecart":
            # prise or garde: the écart is the taker's secret but for the trumps shown in it
            sizes["ecart"] = size
            shown_trumps = [c for c in view.get("ecart") or ()]
            known["ecart"] = shown_trumps
            plain_kings = [r + s for s in SUITS for r in "K"]
            exclude(excluded, "ecart", [*TAROT_TRUMPS, EXCUSE, *plain_kings])
            excluded["ecart"] -= set(shown_trumps)
            # the chien's cards went to the taker: in its hand or its écart
            rest = [c for c in shown_chien if c not in gone and c not in shown_trumps]
            for s in range(n):
                if s not in (seat, taker):
                    exclude(excluded, s, rest)
        for p in view.get("poignees") or ():
            if p["seat"] != seat:
                known.setdefault(p["seat"], []).extend(c for c in p["cards"] if c not in gone)
        if history is not None:
            called = str(view.get("called") or "")
            for i, before, s, card in history.all_plays():
                if s == seat:
                    continue
                tarot_voids(before, s, card, excluded)
                opened = i == 0 and not before and called and card != called
                if opened and _tarot_suit(card) == called[1]:
                    # the called suit opened on the first trick: nothing else in that hand
                    exclude(excluded, s, [c for c in deck if _tarot_suit(c) != called[1]])
        return knowledge(seat, deck, hand, gone, sizes, known, excluded, history)

    def build(
        self, game: Game, view: Mapping[str, Any], know: Knowledge, deal: Mapping[Place, list[str]]
    ) -> Any:
        seat = know.seat
        n = view["players"]
        order = {c: i for i, c in enumerate(game.deck(n))}
        hands = [
            sorted(view["hand"] if s == seat else deal.get(s, ()), key=order.__getitem__)
            for s in range(n)
        ]
        phase = view["phase"]
        shown = view.get("chien")
        chien = list(deal.get("chien", ()))
        taker, called = view.get("taker"), view.get("called")
        # the taker knows its écart; the others' worlds deal it
        ecart = list(view.get("ecart") or ()) if taker == seat else list(deal.get("ecart", ()))
        history = know.history
        played = [] if history is None else history.played()
        partner = None
        if called is not None:
            partner = next((s for s in range(n) if called in hands[s] and s != taker), None)
            if partner is None and history is not None:
                partner = next(
                    (s for t in history.tricks for s, c in t.plays if c == called and s != taker),
                    None,
                )
                if partner is None:
                    partner = next(
                        (s for s, c in history.trick if c == called and s != taker), None
                    )
        data = {
            "players": n,
            "seed": 0,
            "deals": view["deals"],
            "deal": view["deal"],
            "attempt": 0,
            "dealer": view["dealer"],
            "scores": [0] * n,
            "history": [],
            "phase": phase,
            "hands": hands,
            "chien": chien,
            "chien_dealt": list(shown) if shown is not None else chien,
            "chien_shown": shown is not None,
            "bids": [[b["seat"], b["contract"]] for b in view.get("bids") or ()],
            "taker": taker,
            "contract": view.get("contract"),
            "called": called,
            "partner": partner,
            "partner_known": called is not None
            and (called in played or (shown is not None and called in shown)),
            "ecart": ecart,
            "chelem": view.get("chelem"),
            "poignees": [dict(p) for p in view.get("poignees") or ()],
            "leader": view["leader"],
            "trick": [p["card"] for p in view.get("trick") or ()],
            "tricks": []
            if history is None
            else [
                {"leader": t.leader, "cards": list(t.cards), "winner": t.winner}
                for t in history.tricks
            ],
            "redeal": (view.get("redeal") or {}).get("reason"),
            "redeal_seat": (view.get("redeal") or {}).get("seat"),
        }
        return game.from_json(data)

    def policy(self, game: Game, state: Any, seat: int) -> Action | None:
        if str(state.phase.value) != "ecart":
            return None
        return tarot_ecart(state.hands[seat], game.legal_actions(state, seat))

    def utility(self, event: Event, seat: int) -> float | None:
        kind = event.get("type")
        if kind == "deal_end":
            return float(event["result"]["shares"][seat])
        if kind == "redeal" and event.get("reason") == "all_passed":
            return 0.0
        return None

    def bidding(self, state: Any) -> bool:
        return str(state.phase.value) == "bid"


# -- barbu and motton: no trump to follow, plain French decks -------------------------------------

STANDARD_ORDER = "23456789TJQKA"


def follow_voids(before: Sequence[Play], seat: int, card: str, out: dict[Place, set[str]]) -> None:
    """Follow the suit led, else anything: a card of another suit shows the seat void."""
    if before and card[1] != before[0][1][1]:
        exclude(out, seat, [r + before[0][1][1] for r in STANDARD_ORDER])


def _last_trick(view: Mapping[str, Any]) -> dict[str, Any] | None:
    last = view.get("last_trick")
    if not last:
        return None
    cards = last["cards"]
    return {
        "leader": cards[0]["seat"],
        "cards": [p["card"] for p in cards],
        "winner": last["winner"],
    }


def _leader(view: Mapping[str, Any]) -> int:
    trick = view.get("trick") or ()
    return int(trick[0]["seat"]) if trick else int(view["turn"])


class BarbuAdapter(Adapter):
    #: rounds (1-based) where a heart may not be led before hearts are opened
    HEARTS_CLOSED = ("hearts", "king", "all")

    def knowledge(
        self, game: Game, view: Mapping[str, Any], events: Sequence[Event]
    ) -> Knowledge | None:
        seat = view.get("seat")
        if seat is None or view.get("phase") != "play":
            return None
        n = view["players"]
        history = deal_history(view, events)
        if history is None:
            return None
        sizes: dict[Place, int] = {s: view["counts"][s] for s in range(n) if s != seat}
        excluded: dict[Place, set[str]] = {}
        closed = view.get("contract") in self.HEARTS_CLOSED
        broken = False
        for _, before, s, card in history.all_plays():
            if s != seat:
                follow_voids(before, s, card, excluded)
                if not before and closed and not broken and card[1] == "H":
                    exclude(excluded, s, [r + x for x in "SDC" for r in STANDARD_ORDER])
            if before and card[1] == "H" and before[0][1][1] != "H":
                broken = True
        return knowledge(
            seat, game.deck(n), view["hand"], history.played(), sizes, None, excluded, history
        )

    def build(
        self, game: Game, view: Mapping[str, Any], know: Knowledge, deal: Mapping[Place, list[str]]
    ) -> Any:
        seat, n = know.seat, view["players"]
        history = know.history
        assert history is not None
        taken: list[list[str]] = [[] for _ in range(n)]
        for t in history.tricks:
            taken[t.winner] += t.cards
        data = {
            "players": n,
            "seed": 0,
            "phase": "play",
            "round": view["deal"] - 1,
            "dealer": view["dealer"],
            "hands": [list(view["hand"]) if s == seat else list(deal.get(s, ())) for s in range(n)],
            "turn": view["turn"],
            "leader": _leader(view),
            "trick": [p["card"] for p in view.get("trick") or ()],
            "hearts_broken": view["hearts_broken"],
            "taken": taken,
            "tricks_won": list(view["tricks_won"]),
            "points": list(view["points"]),
            "last_trick": _last_trick(view),
            "scores": list(view["scores"]),
            "sheet": [list(r) for r in view.get("sheet") or ()],
        }
        if view.get("choice"):
            # barbu au choix: the contracts chosen are public
            data["choice"] = {
                "chosen": view["chosen"],
                "contract": view["contract"],
                "played": view["sheet_contracts"],
            }
        return game.from_json(data)

    def utility(self, event: Event, seat: int) -> float | None:
        if event.get("type") == "deal_end":
            return -float(event["scores"][seat])
        return None


class MottonAdapter(Adapter):
    def knowledge(
        self, game: Game, view: Mapping[str, Any], events: Sequence[Event]
    ) -> Knowledge | None:
        seat = view.get("seat")
        phase = view.get("phase")
        if seat is None or phase not in ("bid", "play"):
            return None
        n = view["players"]
        history = None
        gone: list[str] = []
        excluded: dict[Place, set[str]] = {}
        if phase == "play":
            history = deal_history(view, events)
            if history is None:
                return None
            gone = history.played()
            for _, before, s, card in history.all_plays():
                if s != seat:
                    follow_voids(before, s, card, excluded)
        sizes: dict[Place, int] = {s: view["counts"][s] for s in range(n) if s != seat}
        if view.get("turned_hidden"):
            sizes["turned"] = 1
        else:
            gone.append(view["turned"])
        sizes["stock"] = 52 - n * view["cards"] - 1
        return knowledge(seat, game.deck(n), view["hand"], gone, sizes, None, excluded, history)

    def build(
        self, game: Game, view: Mapping[str, Any], know: Knowledge, deal: Mapping[Place, list[str]]
    ) -> Any:
        seat, n = know.seat, view["players"]
        history = know.history
        bids: list[int | None] = [None] * n
        for b in view.get("bids") or ():
            bids[b["seat"]] = b["value"]
        turned = view["turned"] if not view.get("turned_hidden") else deal["turned"][0]
        phase = view["phase"]
        data = {
            "players": n,
            "seed": 0,
            "blind": view["blind"],
            "constrained": view["constrained"],
            "phase": phase,
            "round": view["deal"] - 1,
            "replay": view["replay"],
            "dealer": view["dealer"],
            "hands": [list(view["hand"]) if s == seat else list(deal.get(s, ())) for s in range(n)],
            "stock": list(deal.get("stock", ())),
            "turned": turned,
            "revealed": not view.get("turned_hidden"),
            "bids": bids,
            "turn": view["turn"],
            "leader": _leader(view) if phase == "play" else (view["dealer"] + 1) % n,
            "trick": [p["card"] for p in view.get("trick") or ()],
            "played": [] if history is None else [c for t in history.tricks for c in t.cards],
            "tricks_won": list(view["tricks_won"]),
            "last_trick": _last_trick(view),
            "scores": list(view["scores"]),
            "sheet": [dict(r) for r in view.get("sheet") or ()],
        }
        return game.from_json(data)

    def utility(self, event: Event, seat: int) -> float | None:
        if event.get("type") == "deal_end":
            scores = event["scores"]
            others = [v for s, v in enumerate(scores) if s != seat]
            return float(scores[seat] - sum(others) / len(others))
        return None


ADAPTERS: dict[str, Adapter] = {
    "belote": BeloteAdapter(),
    "contree": BeloteAdapter(),
    "tarot": TarotAdapter(),
    "barbu": BarbuAdapter(),
    "motton": MottonAdapter(),
}
