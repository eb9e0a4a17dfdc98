"""Tarot's scoring: the score of a deal from the taker's side, the shares of each seat, the count of
a finished deal's tricks, the deal's record on the sheet and the outcome of the match. The spec is
the package's docstring ("Scoring")."""

from __future__ import annotations

from typing import Any

from tablee.engine import Event
from tablee.engine.state import evolve
from tablee.games._breakdown import breakdown, line

from .rules import (
    BOUTS,
    EXCUSE,
    HALF_POINTS,
    MULTIPLIER,
    PETIT,
    POIGNEE_VALUE,
    REQUIRED,
    DealRecord,
    Phase,
    TarotState,
    attackers,
)


def required_points(bouts: int) -> int:
    return REQUIRED[bouts]


def deal_score(
    contract: str,
    points2: int,
    bouts: int,
    *,
    petit_au_bout: int = 0,
    poignees: int = 0,
    chelem_announced: bool = False,
    attack_slam: bool = False,
    defence_slam: bool = False,
) -> tuple[int, bool]:
    """The score of a deal from the taker's side, per defender, and whether it was made.

    ``points2``: the attack's card points in half points. ``petit_au_bout``: +1 when the attack
    won it, -1 when the defence did. ``poignees``: total value of every poignée shown (they go to
    the winning side). A half point in the margin is rounded in the taker's favour when made,
    against when failed (made by ½ is made by 1; failed by ½, failed by 1), before the contract
    multiplies it. The sum of ``score_lines`` (one computation, so that the deal's breakdown
    always adds up to its score).
    """
    lines = score_lines(
        contract,
        points2,
        bouts,
        petit_au_bout=petit_au_bout,
        poignees=poignees,
        chelem_announced=chelem_announced,
        attack_slam=attack_slam,
        defence_slam=defence_slam,
    )
    return sum(score for _, score, _ in lines), points2 >= 2 * required_points(bouts)


def score_lines(
    contract: str,
    points2: int,
    bouts: int,
    *,
    petit_au_bout: int = 0,
    poignees: int = 0,
    chelem_announced: bool = False,
    attack_slam: bool = False,
    defence_slam: bool = False,
) -> list[tuple[str, int, dict[str, Any]]]:
    """``deal_score`` part by part, from the taker's side per defender: (item, score, what the
    line needs to be read)."""
    diff2 = points2 - 2 * required_points(bouts)
    made = diff2 >= 0
    sign = 1 if made else -1
    margin = -(-diff2 // 2) if made else diff2 // 2
    factor = MULTIPLIER[contract]
    out: list[tuple[str, int, dict[str, Any]]] = [
        ("contract", 25 * sign * factor, {"contract": contract, "factor": factor, "made": made}),
        (
            "margin",
            margin * factor,
            {
                "card_points": points2 // 2 if points2 % 2 == 0 else points2 / 2,
                "required": required_points(bouts),
                "bouts": bouts,
                "margin": margin,
                "factor": factor,
            },
        ),
        (
            "petit_au_bout",
            10 * petit_au_bout * factor,
            {"side": {1: "attack", -1: "defence", 0: None}[petit_au_bout], "factor": factor},
        ),
        ("poignee", sign * poignees, {"value": poignees}),
    ]
    if chelem_announced:
        out.append(("chelem", 400 if attack_slam else -200, {"announced": True}))
    elif attack_slam:
        out.append(("chelem", 200, {"announced": False}))
    if defence_slam:
        out.append(("chelem_defence", -200, {}))
    return out


def shares(players: int, taker: int, partner: int | None, score: int) -> tuple[int, ...]:
    """Each defender -score; the taker +score per defender; at five with a partner, the taker
    x2 and the partner x1."""
    out = [-score] * players
    if partner is not None and partner != taker:
        out[taker], out[partner] = 2 * score, score
    else:
        out[taker] = score * (players - 1)
    return tuple(out)


def record_json(r: DealRecord) -> dict[str, Any]:
    points: float = r.points2 / 2
    return {
        "deal": r.deal,
        "dealer": r.dealer,
        "taker": r.taker,
        "contract": r.contract,
        "partner": r.partner,
        "points": int(points) if points.is_integer() else points,
        "bouts": r.bouts,
        "required": r.required,
        "made": r.made,
        "petit_au_bout": r.petit_au_bout,
        "poignees": r.poignees,
        "chelem_announced": r.chelem_announced,
        "slam": r.slam,
        "score": r.score,
        "shares": list(r.shares),
    }


def count(state: TarotState) -> tuple[int, int, int]:
    """(attack half points, attack bouts, petit au bout: +1 attack, -1 defence, 0 none) of a
    finished deal."""
    attack = attackers(state)
    n = state.players
    half = 0
    bouts = 0
    for t in state.tricks:
        to_attack = t.winner in attack
        for i, card in enumerate(t.cards):
            owner = (t.leader + i) % n
            if card == EXCUSE and owner != t.winner and (owner in attack) != to_attack:
                # the Excuse stays with its owner's team, who give a half-point card for it
                if owner in attack:
                    half += HALF_POINTS[card] - 1
                    bouts += 1
                else:
                    half += 1
                continue
            if to_attack:
                half += HALF_POINTS[card]
                bouts += card in BOUTS
    # the écart (prise, garde) or the chien (garde sans) is the taker's; under garde contre
    # the chien is the defence's and adds nothing here
    attack_gets = state.chien if state.contract == "garde_sans" else state.ecart
    for card in attack_gets:
        half += HALF_POINTS[card]
        bouts += card in BOUTS
    petit = 0
    last = state.tricks[-1]
    where = None
    if PETIT in last.cards:
        where = last
    elif EXCUSE in last.cards and PETIT in state.tricks[-2].cards:
        where = state.tricks[-2]
    if where is not None:
        petit = 1 if where.winner in attack else -1
    return half, bouts, petit


def score_deal(state: TarotState, events: list[Event]) -> tuple[TarotState, list[Event]]:
    assert state.taker is not None and state.contract is not None
    attack = attackers(state)
    half, bouts, petit = count(state)
    attack_slam = all(t.winner in attack for t in state.tricks)
    defence_slam = not any(t.winner in attack for t in state.tricks)
    value = sum(POIGNEE_VALUE[p.level] for p in state.poignees)
    score, made = deal_score(
        state.contract,
        half,
        bouts,
        petit_au_bout=petit,
        poignees=value,
        chelem_announced=bool(state.chelem),
        attack_slam=attack_slam,
        defence_slam=defence_slam,
    )
    parts = shares(state.players, state.taker, state.partner, score)
    lines = [
        line(item, shares(state.players, state.taker, state.partner, part), **about)
        for item, part, about in score_lines(
            state.contract,
            half,
            bouts,
            petit_au_bout=petit,
            poignees=value,
            chelem_announced=bool(state.chelem),
            attack_slam=attack_slam,
            defence_slam=defence_slam,
        )
    ]
    record = DealRecord(
        deal=state.deal,
        dealer=state.dealer,
        taker=state.taker,
        contract=state.contract,
        partner=state.partner,
        points2=half,
        bouts=bouts,
        required=required_points(bouts),
        made=made,
        petit_au_bout={1: "attack", -1: "defence", 0: None}[petit],
        poignees=value,
        chelem_announced=bool(state.chelem),
        slam="attack" if attack_slam else "defence" if defence_slam else None,
        score=score,
        shares=parts,
    )
    totals = tuple(a + b for a, b in zip(state.scores, parts, strict=True))
    over = state.deal >= state.deals
    state = evolve(
        state,
        scores=totals,
        history=(*state.history, record),
        phase=Phase.OVER if over else Phase.END,
        partner_known=True,
    )
    events.append(
        {
            "type": "deal_end",
            "seat": state.taker,
            "result": record_json(record),
            "scores": list(totals),
            "breakdown": breakdown("seat", state.players, lines),
            "chien": list(state.chien_dealt),
            "ecart": list(state.ecart),
        }
    )
    if over:
        out = outcome(state)
        assert out is not None
        events.append(
            {
                "type": "game_over",
                "seat": None,
                "scores": out["scores"],
                "winners": out["winners"],
            }
        )
    return state, events


def outcome(state: TarotState) -> dict[str, Any] | None:
    if state.phase is not Phase.OVER:
        return None
    best = max(state.scores)
    return {
        "scores": list(state.scores),
        "winners": [s for s, v in enumerate(state.scores) if v == best],
        "deals": [record_json(r) for r in state.history],
    }
