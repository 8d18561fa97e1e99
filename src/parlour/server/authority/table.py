"""A live table: the game's state in memory, its seats, and what each seat and spectator is shown.

Everything a client receives about the game is built here, and always from `state.view(seat)` for
a seat, `state.view(None)` for a spectator, and the events each may see (`Event.visible_to`). The
action itself goes only to the seat that played it: some games keep a move secret from the others
(a card chosen face down), and they tell the others what they may know through events.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from parlour.agents import Agent, make_agent
from parlour.deal import Deal, bot_seed
from parlour.engine.actions import Action, Event
from parlour.engine.game import TERMINAL, State
from parlour.server.authority.broadcast import to_audiences

if TYPE_CHECKING:
    from parlour.server.features.clients import Client

OPEN, RUNNING, FINISHED = "open", "running", "finished"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass
class Seat:
    index: int
    agent_spec: str | None  # None: a person's seat
    name: str | None = None
    token_hash: str | None = None
    agent: Agent | None = None

    @property
    def is_bot(self) -> bool:
        return self.agent_spec is not None

    @property
    def is_free(self) -> bool:
        return not self.is_bot and self.token_hash is None

    def holds(self, token: str) -> bool:
        return self.token_hash is not None and hmac.compare_digest(self.token_hash, hash_token(token))

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "kind": "bot" if self.is_bot else "human",
            "agent": self.agent_spec,
            "name": self.agent_spec if self.is_bot else self.name,
            "taken": not self.is_free,
        }


@dataclass
class Move:
    """One applied action and what it produced, kept in memory to send to every audience."""

    version: int  # the table's version once this move is applied
    seat: int
    action: Action
    events: list[Event]


@dataclass
class Tentative:
    """The steps of a turn not committed yet: the seat's own unfinished input, which it may take
    back. Only that seat is shown them; they live in memory alone (a restart loses them)."""

    seat: int
    steps: list[tuple[Move, State]]  # each step and the position it leaves

    @property
    def state(self) -> State:
        return self.steps[-1][1]


@dataclass
class LiveTable:
    id: str
    state: State
    seats: list[Seat]
    created_at: datetime
    finished_at: datetime | None = None
    deal: Deal = field(default_factory=lambda: Deal(None, None))
    # Held from checking an action to broadcasting it, so a table's moves are strictly ordered.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    clients: set[Client] = field(default_factory=set)
    bot_task: asyncio.Task[None] | None = None
    # When the table was last asked for or in use (time.monotonic()); the hub lets go of it from
    # memory once it has been idle for its idle_seconds.
    touched: float = field(default_factory=time.monotonic)
    # The steps the seat to move has taken this turn and may still take back (Hub.undo).
    tentative: Tentative | None = None
    # Several processes: moves were committed elsewhere that this copy has not applied, since
    # nobody here played or watched it (Hub.set_aside); it is read afresh before it is used again.
    stale: bool = False
    # How the table ended when its game did not: 'expired', 'conceded N' or 'left N' (Hub.expire_idle,
    # Hub.concede, Hub.leave).
    ended: str | None = None

    @classmethod
    def seated(
        cls, table_id: str, state: State, seats: list[Seat], created_at: datetime, deal: Deal | None = None
    ) -> LiveTable:
        deal = deal or Deal(None, None)
        for seat in seats:
            if seat.agent_spec is not None:
                seat.agent = make_agent(seat.agent_spec, cls._bot_seed(state.seed, deal, seat.index))
        return cls(table_id, state, seats, created_at, deal=deal)

    @staticmethod
    def _bot_seed(seed: int, deal: Deal, seat: int) -> int:
        # Each bot gets its own seed, so a table's bots differ. Where the server drew the deal the
        # bots' seeds come from the secret salt too: their moves must not lead back to the seed.
        if deal.salt is not None and not deal.fixed:
            return bot_seed(seed, deal.salt, seat)
        return seed * 31 + seat + 1

    @property
    def version(self) -> int:
        return len(self.state.history)

    @property
    def status(self) -> str:
        if self.state.is_terminal() or self.ended is not None:
            return FINISHED
        # Asked several times a move: a plain loop over the seats' fields (Seat.is_free written
        # out) instead of a generator of property calls.
        for seat in self.seats:
            if seat.agent_spec is None and seat.token_hash is None:
                return OPEN
        return RUNNING

    def state_for(self, seat: int | None) -> State:
        """The position `seat` sees: with its tentative steps for the seat that took them, the
        committed position for everybody else."""
        held = self.tentative
        return held.state if held is not None and held.seat == seat else self.state

    def version_for(self, seat: int | None) -> int:
        return len(self.state_for(seat).history)

    def seat_to_move(self) -> Seat | None:
        player = self.state.current_player()
        return None if player == TERMINAL else self.seats[player]

    def seat_with_token(self, token: str) -> Seat | None:
        return next((seat for seat in self.seats if seat.holds(token)), None)

    # --- what clients are shown ---------------------------------------------------------------

    def result(self) -> dict[str, Any] | None:
        if not self.state.is_terminal():
            return None
        return {
            "winners": self.state.winners(),
            "scores": [score.to_json() for score in self.state.scores()],
            "returns": self.state.returns(),
        }

    def ending(self) -> dict[str, Any] | None:
        """How the table ended when its game did not: {"reason": "expired"}, or {"reason":
        "conceded" or "left", "seat": N}; None while it runs or once its game is over."""
        if self.ended is None:
            return None
        reason, _, seat = self.ended.partition(" ")
        return {"reason": reason, "seat": int(seat)} if seat else {"reason": reason}

    def summary(self, invite_url: str) -> dict[str, Any]:
        """What the lobby shows about a table: public to anybody."""
        game = self.state.game
        return {
            "id": self.id,
            "game": game.name,
            "title": game.title,
            "options": dict(game.options),
            "seats": [seat.to_json() for seat in self.seats],
            "status": self.status,
            "version": self.version,
            "to_move": self.state.current_player(),
            "created_at": self.created_at.isoformat(),
            "finished_at": self.finished_at.isoformat() if self.finished_at else None,
            "invite_url": invite_url,
            "result": self.result(),
            "ended": self.ending(),
            # The seed decides every hidden card; it is shown only once nothing is hidden any more.
            "seed": self.state.seed if self.state.is_terminal() else None,
            "deal": self.deal_json(),
        }

    def deal_json(self) -> dict[str, Any]:
        """The commitment to the deal, for everybody; its seed and salt once the game is over."""
        return self.deal.to_json(self.state.seed, revealed=self.state.is_terminal())

    def position(self, seat: int | None) -> dict[str, Any]:
        """The position as `seat` (None: a spectator) may see it, with its legal actions."""
        state = self.state_for(seat)
        to_move = state.current_player()
        status = self.status
        mine = seat is not None and to_move == seat and status == RUNNING
        held = self.tentative
        return {
            "status": status,
            "to_move": to_move,
            "view": state.view(seat),
            "legal": [action.to_json() for action in state.legal_actions()] if mine else [],
            "result": self.result(),
            "ended": self.ending(),
            # How many of this turn's steps the seat may still take back (0 for everybody else).
            "undoable": len(held.steps) if held is not None and held.seat == seat else 0,
        }

    def sync_message(self, seat: int | None) -> dict[str, Any]:
        return {
            "type": "sync",
            "table": self.id,
            "version": self.version_for(seat),
            "seat": seat,
            "seats": [s.to_json() for s in self.seats],
            "deal": self.deal_json(),
            **self.position(seat),
        }

    def update_message(self, move: Move, seat: int | None) -> dict[str, Any]:
        message = {
            "type": "update",
            "table": self.id,
            "version": move.version,
            "seat": seat,
            "actor": move.seat,
            "action": move.action.to_json() if seat == move.seat else None,
            "events": [event.to_json() for event in move.events if event.visible_to(seat)],
            **self.position(seat),
        }
        if self.state.is_terminal():
            # The move that ends the game reveals the deal to everybody watching.
            message["deal"] = self.deal_json()
        return message

    def broadcast_move(self, move: Move) -> None:
        """Send a move to every client, each encoded once per audience."""
        to_audiences(self.clients, lambda seat: self.update_message(move, seat))

    def sync_seat(self, seat: int) -> None:
        """Send the clients of `seat` alone their whole position (its tentative steps changed)."""
        to_audiences([client for client in self.clients if client.seat == seat], self.sync_message)

    def broadcast_sync(self) -> None:
        """Send every client its whole position again (after a seat is taken, for instance)."""
        to_audiences(self.clients, self.sync_message)
