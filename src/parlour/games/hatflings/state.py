"""The rules of Hatflings! as a state machine (spec rulings R1-R27).

A turn is one action of the captain to move, possibly followed by decisions of the same captain
that the action calls for: where the clumsy halfling's puddle goes, then where the pig runs (R26,
R27). Between turns the next captain's puddles dry up (R20), then the end of the dance is checked:
no legal action (R22), a position seen `repetition_limit` times or `max_turns` turns played (R25).

Landing follows R9: barrel test, the halfling lands, its placement ability (firebug, clumsy), hat
changes around it, then the pig. The barrel's toss is drawn from the state's own generator.
"""

from __future__ import annotations

from typing import Any

from parlour.engine.actions import Action, Event
from parlour.engine.game import TERMINAL
from parlour.engine.hidden import Generator
from parlour.games.hatflings import reasons
from parlour.games.hatflings import render as drawing
from parlour.games.hatflings.board import SQUARES
from parlour.games.hatflings.constants import (
    A_GREEDY,
    A_JUMP,
    A_PIG,
    A_PLACE,
    A_PUDDLE,
    A_SCENE,
    DANCE,
    OVER,
    PIG_MOVE,
    PIG_SETUP,
    PUDDLE_CHOICE,
    SCENE,
)
from parlour.games.hatflings.masks import squares_of
from parlour.games.hatflings.setup import SceneSetup
from parlour.games.hatflings.view import view


class HatflingsState(SceneSetup):  # SceneSetup < Dance < HatflingsPosition: one line of bases
    """A Hatflings! position with its phases: the scene set-up (setup.py) and the dance (turn.py)."""

    __slots__ = ()

    # Everything is in view except the barrel's future tosses, so only the generator is re-drawn.
    hidden = (Generator(),)

    # --- protocol ----------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.to_move

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def _apply(self, action: Action) -> list[Event]:
        family, a, b, c = self.game.moves[action.id]
        if family == A_PLACE:
            return self._place(a, b)
        if family == A_JUMP:
            return self._jump(a, b, c)
        if family == A_PIG:
            return self._move_pig(a)
        if family == A_PUDDLE:
            return self._clumsy_puddle(a)
        if family == A_GREEDY:
            return self._greedy_entry(a, b)
        if family == A_SCENE:
            return self._scene_object(a, b)
        return self._scene_pig(a)

    # --- legal actions -------------------------------------------------------------------------

    def _legal_now(self) -> list[Action]:
        phase = self.phase
        if phase == DANCE:
            ids = self._dance_ids()
        elif phase == PIG_MOVE:
            ids = list(map(self.game.pig_ids.__getitem__, squares_of(self._empty_around(self.pig))))
        elif phase == PUDDLE_CHOICE:
            ids = list(map(self.game.puddle_ids.__getitem__, squares_of(self._empty_around(self.lander))))
        elif phase == SCENE:
            ids = self._scene_ids()
        elif phase == PIG_SETUP:
            ids = [self.game.pig_setup_ids[s] for s in SQUARES if self._is_free(s)]
        else:
            ids = []
        return list(map(self.game.action_at, ids))

    # --- copies, views, text ----------------------------------------------------------------------

    def clone(self) -> HatflingsState:
        """An independent copy (search makes one per iteration, so no copy.deepcopy)."""
        twin = HatflingsState.__new__(HatflingsState)
        self._copy_base_into(twin)
        twin.hat = self.hat.copy()
        twin.scenery = self.scenery.copy()
        twin.own = self.own.copy()
        twin.floor, twin.walls = self.floor, self.walls
        twin.specials = self.specials.copy()
        twin.objects_left = self.objects_left.copy()
        twin.seen = self.seen.copy()
        twin.rng = self.rng.clone()
        twin.pig, twin.pool, twin.puddle_supply = self.pig, self.pool, self.puddle_supply
        twin.scene_left, twin.started, twin.captain, twin.to_move = (
            self.scene_left,
            self.started,
            self.captain,
            self.to_move,
        )
        twin.phase, twin.turns, twin.lander, twin.end_reason = self.phase, self.turns, self.lander, self.end_reason
        twin.repeats = self.repeats
        return twin

    def view(self, seat: int | None) -> dict[str, Any]:
        return view(self, seat)

    def render(self, seat: int | None = None) -> str:
        return drawing.render(self)

    def why_illegal(self, action: Action) -> str:
        return reasons.why_illegal(self, action)
