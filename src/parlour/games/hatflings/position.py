"""A Hatflings! position: its fields (the floor as bit masks, the pools, the pig, the puddles), the
set-up, the scores, and what every phase reads. The phases themselves are in setup.py and turn.py;
state.py puts them together (spec rulings R1-R27 are cited where they apply).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from parlour.engine.actions import Event
from parlour.engine.game import Score, State
from parlour.engine.rng import Rng
from parlour.games.hatflings import scoring
from parlour.games.hatflings.board import NEIGHBOUR_MASK, SQUARES
from parlour.games.hatflings.constants import BIT, DANCE, OVER, SCENE
from parlour.games.hatflings.heuristic import evaluate
from parlour.games.hatflings.masks import FLOOR, OWN, WALLS, mask
from parlour.games.hatflings.pieces import ALL_SPECIALS, BARREL, EMPTY, OBJECT_CODES, SCENERY_NAMES

if TYPE_CHECKING:
    from parlour.games.hatflings.game import Hatflings


class HatflingsPosition(State["Hatflings"]):
    """The fields of a Hatflings! position and what every phase reads or changes in it;
    `HatflingsState` adds the phases (set-up, dance) and the engine protocol."""

    __slots__ = (
        "hat",
        "scenery",
        "own",
        "floor",
        "walls",
        "pig",
        "pool",
        "specials",
        "puddle_supply",
        "objects_left",
        "scene_left",
        "started",
        "captain",
        "to_move",
        "phase",
        "turns",
        "lander",
        "seen",
        "repeats",
        "end_reason",
        "rng",
    )
    hat: bytearray
    """Per square: 0, or the halfling there as kind * 2 + colour."""
    scenery: bytearray
    """Per square: EMPTY, BOX, BARREL, TREE, COLUMN or PUDDLE + owner."""
    # The move generator asks "whose halfling, what blocks" of all 36 squares every turn, so these
    # masks of `hat` and `scenery` are kept up to date by each change instead of recomputed.
    # `rebuild_masks` derives them afresh; anything writing `hat` or `scenery` by hand must call it.
    own: list[int]
    """Per colour, a bitmask of the squares holding a halfling that wears it."""
    floor: int
    """Bitmask of the squares without scenery."""
    walls: int
    """Bitmask of the squares no halfling may enter for their scenery: tree, column, puddle."""
    pig: int
    """The pig's square (-1 before it is placed)."""
    pool: int
    specials: list[int]
    """Per seat, a bitmask of the special kinds still in its special pool."""
    puddle_supply: int
    objects_left: list[int]
    scene_left: int
    started: int
    """Bit per seat: has it had its first turn (R7)."""
    captain: int
    to_move: int
    phase: int
    turns: int
    lander: int
    """The square of the halfling whose landing is still being resolved (clumsy puddle, pig)."""
    seen: dict[tuple[Any, ...], int]
    """How often each position occurred at the start of a turn (R25)."""
    repeats: int
    """How often the position at the start of this turn has occurred, this time included (R25)."""
    end_reason: str
    rng: Rng

    @classmethod
    def set_up(cls, game: Hatflings, seed: int) -> Self:
        state = cls(game, seed)
        state.hat = bytearray(len(SQUARES))
        state.scenery = bytearray(len(SQUARES))
        state.pig = -1
        state.pool = game.options["general_pool_size"]
        state.specials = [ALL_SPECIALS, ALL_SPECIALS]
        state.puddle_supply = game.puddles
        state.objects_left = [game.supply.get(name, 0) for name in SCENERY_NAMES[:5]]
        state.started = 0
        state.captain = state.to_move = game.options["starting_captain"]
        state.turns = 0
        state.lander = -1
        state.seen = {}
        state.repeats = 0
        state.end_reason = ""
        state.rng = Rng(seed)
        if game.scene is None:
            state.phase = SCENE
            state.scene_left = game.options["num_objects"]
        else:
            state.scene_left = 0
            for name, square in game.scene.objects:
                state.scenery[square] = OBJECT_CODES[name]
                state.objects_left[OBJECT_CODES[name]] -= 1
            state.pig = game.scene.pig
            state.phase = DANCE
        state.rebuild_masks()
        if state.phase == DANCE:
            state._start_turn([])
        return state

    def rebuild_masks(self) -> None:
        """Derive `own`, `floor` and `walls` from `hat` and `scenery` (after setting them up by hand)."""
        self.own = [mask(OWN[0], self.hat), mask(OWN[1], self.hat)]
        self.floor = mask(FLOOR, self.scenery)
        self.walls = mask(WALLS, self.scenery)

    def _empty_around(self, s: int) -> int:
        """Bitmask of the squares next to `s` with nothing at all on them: no halfling, scenery or pig."""
        own = self.own
        return NEIGHBOUR_MASK[s] & self.floor & ~(own[0] | own[1] | BIT[self.pig])

    def _is_free(self, s: int) -> bool:
        """No halfling, tree, column, puddle or pig (an unoccupied box or barrel is free)."""
        return not self.hat[s] and self.scenery[s] <= BARREL and s != self.pig

    # --- resolving actions ---------------------------------------------------------------------

    def _colour(self, seat: int) -> str:
        return self.game.colours[seat]

    def _set_scenery(self, s: int, code: int) -> None:
        """Put scenery `code` (or EMPTY) on square `s`, keeping the `floor` and `walls` masks in step."""
        self.scenery[s] = code
        bit = BIT[s]
        self.floor = self.floor | bit if code == EMPTY else self.floor & ~bit
        self.walls = self.walls | bit if code > BARREL else self.walls & ~bit

    # --- scores and outlook --------------------------------------------------------------------

    def hat_counts(self) -> list[int]:
        return scoring.hat_counts(self.hat)

    def rival_zone_counts(self) -> list[int]:
        """R23: halflings of each colour standing in the other seat's start zone."""
        return scoring.rival_zone_counts(self.hat, self.game.zones)

    def scores(self) -> list[Score]:
        return scoring.scores(self.hat_counts(), self.rival_zone_counts())

    def winners(self) -> list[int]:
        return scoring.winners(self.hat_counts(), self.rival_zone_counts())

    def heuristic(self, seat: int) -> float:
        if self.phase == OVER:
            return self.returns()[seat]
        return evaluate(self.hat, self.scenery, self.specials, seat)

    # --- where one phase hands over to another --------------------------------------------------

    def _start_turn(self, events: list[Event]) -> list[Event]:
        """T1: the next captain's turn begins (the dance, turn.py); the set-up ends by calling it."""
        raise NotImplementedError
