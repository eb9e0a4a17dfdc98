"""Rows as the records the rest of the app reads (``tablee.tables.records``), for every module of
the store: it imports no other module of the store but the models, so the repository, its writer
and the ratings share it without importing one another in a circle."""

from __future__ import annotations

from tablee.tables.records import PlayerRecord

from . import models as m


def player_record(row: m.Player) -> PlayerRecord:
    return PlayerRecord(
        id=row.id,
        name=row.name,
        created_at=row.created_at,
        banned=row.banned,
        claimed=row.password_hash is not None,
    )
