"""`parlour learn GAME`: a game's guided first game in the terminal.

The terminal session of `parlour play`, with a coach: before each of the learner's scripted moves
it says what to do and why, refuses any other move with the reason, tells what the scripted bot did,
and once the script is over the game goes on against the gentle bot.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from parlour.engine.actions import Action, Event
from parlour.engine.errors import IllegalAction
from parlour.engine.game import Game
from parlour.engine.tutorial import LEARNER, Step, Tutorial, tutorial_of
from parlour.play import Table, TerminalSession, choose, seat_table


def tutorial_table(cls: type[Game]) -> tuple[Tutorial, Table]:
    tutorial = tutorial_of(cls)
    return tutorial, seat_table(cls(**tutorial.game_options()), tutorial.seats(), tutorial.seed)


def wrong_move(step: Step) -> str:
    """What the coach says to a move other than the script's."""
    return step.wrong or "Not in this lesson: try the move it asks for; the whole game comes after it."


class LearnSession(TerminalSession):
    def __init__(
        self, tutorial: Tutorial, table: Table, ask: Callable[[str], str] = input, say: Callable[[str], None] = print
    ) -> None:
        super().__init__(table, ask, say)
        self.tutorial = tutorial
        self.said_goodbye = False

    def step_now(self) -> Step | None:
        ply = len(self.table.state.history)
        return self.tutorial.steps[ply] if ply < len(self.tutorial.steps) else None

    def _show_turn(self, seat: int) -> None:
        super()._show_turn(seat)
        step = self.step_now()
        if step is not None and step.seat == LEARNER:
            number = sum(1 for s in self.tutorial.steps[: len(self.table.state.history) + 1] if s.seat == LEARNER)
            self.show(f"Lesson, step {number}: {step.say}\n  Why: {step.why}\n  (type the move's number or its words)")
        elif step is None and not self.said_goodbye:
            self.said_goodbye = True
            self.show(f"Lesson over. {self.tutorial.goodbye}")

    def _command(self, entry: str) -> bool:
        if super()._command(entry):
            return True
        step = self.step_now()
        if step is None:
            return False
        try:
            action = choose(self.table.state, entry)
        except IllegalAction:
            return False  # the session says why, as in any game
        if action.label == step.move:
            return False
        self.show(f"{wrong_move(step)}\n  This step: {step.say}")
        return True

    def _tell_move(self, seat: int, action: Action, events: Sequence[Event], watcher: int | None) -> None:
        super()._tell_move(seat, action, events, watcher)
        ply = len(self.table.state.history) - 1
        if seat != LEARNER and ply < len(self.tutorial.steps) and self.tutorial.steps[ply].move == action.label:
            self.show(f"  Lesson: {self.tutorial.steps[ply].say}")
