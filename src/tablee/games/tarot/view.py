"""What a seat (or a spectator) sees of a tarot state: the spec's "Views" section (the package's
docstring)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tablee.engine import BaseGame
from tablee.games._tricks import last_trick_view, trick_view

from .rules import CHIEN_SIZE, TRUMP_SET, Phase, TarotState, partner_for
from .scoring import record_json


def view(game: BaseGame[TarotState], state: TarotState, seat: int | None) -> dict[str, Any]:
    """``game``'s view of ``state`` for ``seat`` (None: a spectator)."""
    n = state.players
    ended = state.phase in (Phase.END, Phase.OVER)
    last = state.tricks[-1] if state.tricks else None
    tricks_won = [0] * n
    for t in state.tricks:
        tricks_won[t.winner] += 1
    return {
        **game.view_header(state, seat, deal=state.deal),
        "deals": state.deals,
        "trump": "A",
        "trick": trick_view(state.leader, state.trick, n),
        "last_trick": last_trick_view(last, n),
        "bids": [{"seat": s, "contract": c} for s, c in state.bids],
        "tricks_won": tricks_won,
        "history": [record_json(r) for r in state.history],
        "taker": state.taker,
        "contract": state.contract,
        "called": state.called,
        "partner": partner_for(state, seat),
        "chien": list(state.chien_dealt) if state.chien_shown or ended else None,
        "chien_size": CHIEN_SIZE[n],
        "ecart": _ecart(state, seat),
        "chelem": state.chelem,
        "poignees": [
            {"seat": p.seat, "level": p.level, "cards": list(p.cards)} for p in state.poignees
        ],
        "leader": state.leader,
        "redeal": None
        if state.redeal is None
        else {"reason": state.redeal, "seat": state.redeal_seat},
        "result": record_json(state.history[-1]) if ended and state.history else None,
    }


def views(
    game: BaseGame[TarotState], state: TarotState, seats: Iterable[int | None]
) -> dict[int | None, dict[str, Any]]:
    """``view`` of each of ``seats``: a seat sees what a spectator sees, its hand, the écart if
    it took, and its partner if it is the called king's."""
    hands = state.hands

    def own(seat: int) -> dict[str, Any]:
        return {
            "hand": list(hands[seat]),
            "partner": partner_for(state, seat),
            "ecart": _ecart(state, seat),
        }

    return game._spectators_views(state, seats, own)


def _ecart(state: TarotState, seat: int | None) -> list[str]:
    """The écart as ``seat`` sees it: all of it once the deal is over, or if it made it;
    nothing while it is being made; else the trumps laid in it (shown, as the rules ask)."""
    if state.phase in (Phase.END, Phase.OVER) or (seat is not None and seat == state.taker):
        return list(state.ecart)
    if state.phase is Phase.ECART:
        return []
    return [c for c in state.ecart if c in TRUMP_SET]
