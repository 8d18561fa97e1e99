"""Hatflings! set-up (interactive scene): the captains take turns putting scenery objects outside
the start zones, then the pig (R4-R6); each step's legal moves and its resolution."""

from __future__ import annotations

from parlour.engine.actions import Event
from parlour.games.hatflings.board import NAMES, SQUARES
from parlour.games.hatflings.constants import DANCE, PIG_SETUP
from parlour.games.hatflings.pieces import SCENERY_NAMES
from parlour.games.hatflings.turn import Dance


class SceneSetup(Dance):
    """The scene set-up phases of `HatflingsState` (SCENE, PIG_SETUP)."""

    __slots__ = ()

    def _scene_ids(self) -> list[int]:
        zones = self.game.zone_masks[0] | self.game.zone_masks[1]
        squares = [s for s in SQUARES if not zones >> s & 1 and not self.scenery[s]]
        ids: list[int] = []
        for code, table in self.game.scene_ids.items():
            if self.objects_left[code]:
                ids.extend(table[s] for s in squares)
        return ids

    def _scene_object(self, code: int, s: int) -> list[Event]:
        self._set_scenery(s, code)
        self.objects_left[code] -= 1
        self.scene_left -= 1
        event = Event(
            "scene",
            f"seat {self.to_move} puts a {SCENERY_NAMES[code]} at {NAMES[s]}",
            {"seat": self.to_move, "object": SCENERY_NAMES[code], "square": NAMES[s]},
        )
        self.to_move = 1 - self.to_move
        if not self.scene_left:
            self.phase = PIG_SETUP
            self.to_move = 1 - self.game.options["starting_captain"]
        return [event]

    def _scene_pig(self, s: int) -> list[Event]:
        self.pig = s
        events = [
            Event(
                "scene",
                f"seat {self.to_move} puts the pig at {NAMES[s]}",
                {"seat": self.to_move, "object": "pig", "square": NAMES[s]},
            )
        ]
        self.phase = DANCE
        self.captain = self.to_move = self.game.options["starting_captain"]
        return self._start_turn(events)
