"""Accounts as the REST layer sees them: a guest claims its name with a password, logs in from
any browser, logs out (here or everywhere), changes its password.

Passwords are hashed with Argon2id (``argon2-cffi``'s ``PasswordHasher``, its RFC 9106 defaults),
off the event loop; only the hash is stored. A login opens a new session (a fresh token: the token
rotates at every login); sessions expire after ``TABLEE_SESSION_DAYS``. Closing the sockets of a
player who logged out everywhere is the app's part (as for a ban).
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from tablee.protocol import ErrorCode
from tablee.settings import Settings
from tablee.store import Store
from tablee.store.accounts import AccountStore, SessionRecord
from tablee.store.models import now
from tablee.store.names import name_key, reserved

from .errors import TableError
from .records import PlayerRecord

WRONG = "Nom ou mot de passe incorrect."
#: verified against when the name is unknown, so that the answer takes as long either way
_HASHER = PasswordHasher()
_DUMMY = _HASHER.hash("not a password of anyone")


def login_key(name: str) -> str:
    """The key login attempts are counted under: the name without case or look-alikes."""
    return name_key(name)


class Accounts:
    def __init__(self, store: Store, settings: Settings) -> None:
        self._store = AccountStore(store)
        self._days = settings.session_days
        self._hasher = _HASHER

    def _expiry(self) -> datetime:
        return now() + timedelta(days=self._days)

    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self._hasher.hash, password)

    async def _verify(self, password_hash: str, password: str) -> bool:
        def verify() -> bool:
            try:
                return self._hasher.verify(password_hash, password)
            except (VerificationError, InvalidHashError):
                return False

        return await asyncio.to_thread(verify)

    async def claim(
        self,
        player: PlayerRecord,
        password: str,
        email: str | None,
        ip: str | None,
        user_agent: str | None,
    ) -> str:
        """The guest's name becomes an account; the first session's token (the guest token no
        longer works). 409 if it is an account already, or its name is reserved."""
        if player.claimed:
            raise TableError(ErrorCode.CONFLICT, "Ce joueur a déjà un compte : connectez-vous.")
        if reserved(player.name):
            raise TableError(
                ErrorCode.NAME_TAKEN,
                f"Le nom « {player.name} » est réservé : demandez à un admin de vous renommer.",
            )
        token = await self._store.claim(
            player.id, await self._hash(password), email, self._expiry(), ip, user_agent
        )
        if token is None:
            raise TableError(ErrorCode.CONFLICT, "Ce joueur a déjà un compte : connectez-vous.")
        return token

    async def login(
        self, name: str, password: str, ip: str | None, user_agent: str | None
    ) -> tuple[PlayerRecord, str]:
        """A new session for the account of this name (a fresh token). 401 with the same words
        for an unknown name, a guest's name and a wrong password; 403 for a banned player."""
        found = await self._store.credentials(name_key(name))
        if found is None or found.password_hash is None:
            await self._verify(_DUMMY, password)
            raise TableError(ErrorCode.UNAUTHORIZED, WRONG)
        if not await self._verify(found.password_hash, password):
            raise TableError(ErrorCode.UNAUTHORIZED, WRONG)
        if found.player.banned:
            raise TableError(
                ErrorCode.BANNED,
                "Ce joueur est banni de ce serveur ; demandez pourquoi aux admins.",
            )
        if self._hasher.check_needs_rehash(found.password_hash):
            await self._store.set_password(found.player.id, await self._hash(password))
        token = await self._store.open_session(found.player.id, self._expiry(), ip, user_agent)
        return found.player, token

    async def logout(self, token: str) -> bool:
        return await self._store.close_session(token)

    async def logout_everywhere(self, player_id: int) -> int:
        """Every session of the player closed; how many."""
        return await self._store.close_sessions(player_id)

    async def change_password(self, player: PlayerRecord, old: str, new: str, token: str) -> int:
        """The new password, once the old one is checked; the player's other sessions are closed
        (how many is returned), this one stays."""
        if not player.claimed:
            raise TableError(
                ErrorCode.CONFLICT, "Un invité n'a pas de mot de passe : créez un compte."
            )
        current = await self._store.password_hash(player.id)
        if current is None or not await self._verify(current, old):
            raise TableError(
                ErrorCode.FORBIDDEN, "Mot de passe actuel incorrect.", ("body", "old_password")
            )
        await self._store.set_password(player.id, await self._hash(new))
        return await self._store.close_sessions(player.id, keep=token)

    async def sessions(self, player_id: int) -> list[SessionRecord]:
        return await self._store.sessions(player_id)

    async def account(self, player_id: int) -> tuple[str | None, datetime | None, int] | None:
        return await self._store.account(player_id)

    # -- the admin's part ------------------------------------------------------------------------

    async def close_session(self, player_id: int, session_id: int) -> int:
        return await self._store.close_sessions(player_id, session_id=session_id)

    async def reset_password(self, player_id: int, password: str) -> bool:
        """An admin sets the password; every session of the player is closed."""
        done = await self._store.set_password(player_id, await self._hash(password))
        if done:
            await self._store.close_sessions(player_id)
        return done


__all__ = ["Accounts", "SessionRecord", "login_key"]
