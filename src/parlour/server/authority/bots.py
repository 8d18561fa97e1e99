"""Bots and hints: a bot's turn is thought out in fair slices on the bot threads, within a cap per
move, and goes through the same move path as a person's; hints run on threads of their own."""

from __future__ import annotations

import asyncio
import contextlib
import time

import anyio
import anyio.to_thread

from parlour.agents import Agent
from parlour.agents import hint as search_hint
from parlour.agents.random_agent import RandomAgent
from parlour.engine.actions import Action
from parlour.engine.game import State
from parlour.server.authority.base import HubBase
from parlour.server.authority.table import RUNNING, LiveTable
from parlour.server.edge.errors import ServerError
from parlour.server.edge.logs import log


class Bots(HubBase):
    def wake_bots(self, table: LiveTable) -> None:
        seat = table.seat_to_move()
        if self.stopping or table.status != RUNNING or seat is None or not seat.is_bot or not self.runs(table):
            return
        if table.bot_task is None or table.bot_task.done():
            table.bot_task = asyncio.create_task(self._play_bots(table))

    async def _play_bots(self, table: LiveTable) -> None:
        """Let the bots move while it is a bot's turn; each move is computed in a worker thread."""
        while not self.stopping and table.status == RUNNING and self.runs(table):
            seat = table.seat_to_move()
            if seat is None or seat.agent is None:
                return
            if self.settings.bot_delay:
                await asyncio.sleep(self.settings.bot_delay)
            version, position = table.version, table.state.clone()
            try:
                started = time.perf_counter()
                action = await self.think(seat.agent, position)
                self.metrics.bot_think.observe(time.perf_counter() - started)
                # The bot passes through the same checks as a person: same seat, same version.
                await self._submit(table, seat.index, action.id, version)
            except ServerError as error:
                if error.code == "storage_error":
                    await asyncio.sleep(1.0)
                    continue
                log.error("bot move refused", extra={"table": table.id, "seat": seat.index, "error": error.message})
                return
            except Exception:
                log.exception("bot failed", extra={"table": table.id, "seat": seat.index})
                return

    async def think(self, agent: Agent, position: State) -> Action:
        """A bot's move, worked out in turns of at most bot_slice seconds on a bot thread.

        After each turn the bot queues again behind every other table waiting for a bot, so that a
        long search cannot starve the others; once it has thought for bot_seconds in all, it must
        decide with what it has.

        The random bot decides at once on the event loop: handing its microseconds of work to a
        thread would cost more than the move. (Only it: another agent asking for no budget may
        still take its time, and must not hold up the loop.)
        """
        if type(agent) is RandomAgent:
            return agent.act(position)
        thought = None
        spent = 0.0
        settings = self.settings
        while True:
            async with self.bot_turns.turn():
                if thought is None:
                    # Starting a search can take work too (keeping the old tree): in the thread.
                    thought = await anyio.to_thread.run_sync(agent.think, position, limiter=self.bot_threads)
                if spent >= settings.bot_seconds:
                    return await anyio.to_thread.run_sync(thought.conclude, limiter=self.bot_threads)
                allowed = min(settings.bot_slice, settings.bot_seconds - spent)
                start = time.perf_counter()
                action = await anyio.to_thread.run_sync(thought.advance, allowed, limiter=self.bot_threads)
                spent += time.perf_counter() - start
            if action is not None:
                return action

    async def drain_bots(self) -> None:
        """Wait until no bot is thinking (tests use this to reach a quiet table)."""
        while tasks := [t.bot_task for t in self.tables.values() if t.bot_task is not None and not t.bot_task.done()]:
            with contextlib.suppress(Exception):
                await asyncio.gather(*tasks)

    @staticmethod
    def _bot_to_move(table: LiveTable) -> bool:
        seat = table.seat_to_move()
        return table.status == RUNNING and seat is not None and seat.is_bot

    async def hint(self, table: LiveTable, seat: int, client: str) -> tuple[int, Action, str]:
        """The search's advice for `seat` (to move), within the hint budget and the hint rates.

        Hints run on threads of their own, so however many are asked for, no bot waits for them.
        """
        settings = self.settings
        if not self.hints_by_seat.take(f"{table.id}/{seat}"):
            pace = self.hints_by_seat.pace()
            raise ServerError("rate_limited", f"too many hints for this seat: {pace}", 429)
        if not self.hints_by_client.take(client):
            pace = self.hints_by_client.pace()
            raise ServerError("rate_limited", f"too many hints from your address: {pace}", 429)
        if self.hints_asked >= settings.hint_threads + settings.hint_queue:
            raise ServerError("busy", "the server is working out other hints; ask again in a moment", 503)
        position = table.state_for(seat).clone()
        version = len(position.history)
        self.hints_asked += 1
        try:
            action, text = await anyio.to_thread.run_sync(
                lambda: search_hint(
                    position, seed=version, iterations=settings.hint_iterations, max_seconds=settings.hint_seconds
                ),
                limiter=self.hint_threads,
            )
        finally:
            self.hints_asked -= 1
        return version, action, text
