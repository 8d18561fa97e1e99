"""The Hatflings! game: its options and its fixed action space.

Actions, in the words a captain types:

* scene set-up: "tree at c3", "column at c3", "box at c3", "barrel at c3", then "pig at e3";
* the dance: "place normal at c4", "place firebug at b1" (a halfling from the general pool or one of
  the six specials), "greedy push at a3 east" (greedy entry with its push direction), "jump d4 over
  d5 to d6";
* follow-up decisions of the same turn: "puddle at e5" (clumsy), "pig to f3" (the pig must move).
"""

from __future__ import annotations

from typing import Any, ClassVar

from parlour.engine.actions import Action
from parlour.engine.data import DATA_OPTION, game_components
from parlour.engine.errors import InvalidOption
from parlour.engine.game import Game
from parlour.engine.options import Option
from parlour.games.hatflings import board
from parlour.games.hatflings.board import DIRECTIONS, NAMES, SQUARES
from parlour.games.hatflings.components import COMPONENTS, PACKAGE, load_components, option_defaults
from parlour.games.hatflings.constants import (
    A_GREEDY,
    A_JUMP,
    A_PIG,
    A_PIG_SETUP,
    A_PLACE,
    A_PUDDLE,
    A_SCENE,
    PLACE_ROWS,
    PLACE_TABLES,
    Move,
)
from parlour.games.hatflings.pieces import KIND_NAMES, OBJECT_CODES, OBJECT_KINDS, SOURCE_KINDS
from parlour.games.hatflings.scene import Scene, check_zones, parse_scene, parse_zone
from parlour.games.hatflings.state import HatflingsState

_SUPPLY_TOTAL = sum(COMPONENTS.objects.values())


class Hatflings(Game):
    name = "hatflings"
    title = "Hatflings!"
    summary = "two captains introduce halflings and jump them about a 6×6 floor, changing their rivals' hats"
    perfect_information = True
    max_game_length = 2_000
    # Searches judge leaves by the shipped learned evaluator and let its policy guide them (PUCT):
    # stronger than the heuristic search at the same time per move (docs/bots.md, Learned evaluators).
    # An iteration judged by the network costs about five of the heuristic's, so a learned search
    # with no budget in its spec runs 200 iterations: a move then costs no more CPU than 1000
    # iterations of the heuristic search (benchmarks/learned_speed.py).
    search_defaults: ClassVar[dict[str, Any]] = {
        "eval": "learned",
        "puct": 1.0,
        "even": 0.25,
        "learned_iterations": 200,
    }
    options_spec = (
        Option("players", int, 2, "number of captains", choices=(2,), title="Captains"),
        Option(
            "scene",
            str,
            "default",
            "'default' (first-game scene), 'interactive' (captains place the objects and the pig) "
            "or a fixed scene such as 'tree:c3,box:d4,barrel:b4,pig:e3'",
            title="Scenery",
        ),
        Option(
            "num_objects",
            int,
            COMPONENTS.num_objects,
            "objects placed in an interactive scene",
            minimum=COMPONENTS.min_objects,
            maximum=_SUPPLY_TOTAL,
            title="Objects in an interactive scene",
        ),
        Option(
            "starting_captain",
            int,
            COMPONENTS.starting_captain,
            "0: the first captain starts, 1: the second",
            choices=(0, 1),
            title="Starting captain",
        ),
        Option(
            "general_pool_size",
            int,
            COMPONENTS.general_pool_size,
            "normal halflings in the pool",
            minimum=0,
            maximum=200,
            title="Shared pool of normal halflings",
        ),
        Option(
            "repetition_limit",
            int,
            COMPONENTS.repetition_limit,
            "a position seen this often ends the game (0: off)",
            minimum=0,
            maximum=100,
            title="Repetition limit",
        ),
        Option(
            "max_turns",
            int,
            COMPONENTS.max_turns,
            "turns before the game ends (0: off)",
            minimum=0,
            maximum=100_000,
            title="Turn limit",
        ),
        Option(
            "barrel_break_percent",
            int,
            COMPONENTS.barrel_break_percent,
            "chance in percent that a barrel breaks",
            minimum=0,
            maximum=100,
            title="Barrel break chance (%)",
        ),
        Option(
            "start_zone_0",
            str,
            ",".join(COMPONENTS.start_zones[0]),
            "squares where the first captain's halflings may enter",
            title="First captain's start zone",
        ),
        Option(
            "start_zone_1",
            str,
            ",".join(COMPONENTS.start_zones[1]),
            "squares where the second captain's halflings may enter",
            title="Second captain's start zone",
        ),
        DATA_OPTION,
    )
    data_package: ClassVar[str] = PACKAGE
    """Where the built-in data files live (records and parlour data export read it)."""

    def __init__(self, **options: Any) -> None:
        # Each game reads its own data set (built-in or a designer's folder), parsed once per content;
        # the options a data set gives defaults for take them unless the options set them.
        self.data, self.components = game_components(self.name, self.data_package, options, load_components)
        super().__init__(**{**option_defaults(self.components), **options})
        self.action_at = self.actions.__getitem__  # bound once: the move generator maps ids with it every turn
        if self.options["repetition_limit"] == 1:
            raise InvalidOption("hatflings option repetition_limit must be 0 (off) or at least 2, got 1")
        zones = (parse_zone(self.options["start_zone_0"], 0), parse_zone(self.options["start_zone_1"], 1))
        check_zones(*zones)
        self.zones = zones
        self.barrel_break_percent: int = self.options["barrel_break_percent"]
        self.repetition_limit: int = self.options["repetition_limit"]
        self.max_turns: int = self.options["max_turns"]
        self.zone_masks = (sum(1 << s for s in zones[0]), sum(1 << s for s in zones[1]))
        self.colours = self.components.colours
        self.supply = dict(self.components.objects)
        self.puddles = self.components.puddles
        self.scene = self._fixed_scene(self.options["scene"].strip())
        if self.scene is not None and self.options["num_objects"] != self.components.num_objects:
            raise InvalidOption(
                f"hatflings option num_objects={self.options['num_objects']} only applies to scene='interactive'; "
                "a fixed scene lists its own objects"
            )
        supplied = sum(self.supply.values())  # a data folder's supply may differ from the built-in one
        if self.scene is None and not self.components.min_objects <= self.options["num_objects"] <= supplied:
            raise InvalidOption(
                f"hatflings option num_objects must be between {self.components.min_objects} and the {supplied}"
                f" objects of the supply, got {self.options['num_objects']}"
            )
        outside = len(SQUARES) - len(zones[0]) - len(zones[1])
        if self.scene is None and self.options["num_objects"] > outside:
            raise InvalidOption(
                f"hatflings: {self.options['num_objects']} scene objects do not fit on the {outside} squares "
                "outside the start zones"
            )

    def _fixed_scene(self, text: str) -> Scene | None:
        if text.lower() == "interactive":
            return None
        if text.lower() == "default":
            text = self.components.default_scene
        return parse_scene(text, self.zones, self.supply, self.components.min_objects)

    def _build_actions(self) -> list[Action]:
        actions: list[Action] = []
        self.moves: list[Move] = []
        self.scene_ids = {code: [0] * len(SQUARES) for code in OBJECT_CODES.values()}
        self.pig_setup_ids = [0] * len(SQUARES)
        self.place_ids = {kind: [0] * len(SQUARES) for kind in SOURCE_KINDS}
        self.puddle_ids = [0] * len(SQUARES)
        self.pig_ids = [0] * len(SQUARES)

        def add(label: str, kind: str, move: tuple[int, int, int, int], **params: Any) -> int:
            actions.append(Action(len(actions), label, kind, tuple(params.items())))
            self.moves.append(Move(*move))
            return len(actions) - 1

        for object_kind in OBJECT_KINDS:
            code = OBJECT_CODES[object_kind]
            for s in SQUARES:
                self.scene_ids[code][s] = add(
                    f"{object_kind} at {NAMES[s]}", "scene", (A_SCENE, code, s, 0), object=object_kind, square=NAMES[s]
                )
        for s in SQUARES:
            self.pig_setup_ids[s] = add(f"pig at {NAMES[s]}", "pig setup", (A_PIG_SETUP, s, 0, 0), square=NAMES[s])
        for kind in SOURCE_KINDS:
            for s in SQUARES:
                self.place_ids[kind][s] = add(
                    f"place {KIND_NAMES[kind]} at {NAMES[s]}",
                    "place",
                    (A_PLACE, kind, s, 0),
                    halfling=KIND_NAMES[kind],
                    square=NAMES[s],
                )
        self.greedy_by_square: list[tuple[int, ...]] = [() for _ in SQUARES]
        for s in SQUARES:
            for d in board.inward_directions(s):
                name = DIRECTIONS[d][0]
                aid = add(
                    f"greedy push at {NAMES[s]} {name}", "greedy", (A_GREEDY, s, d, 0), square=NAMES[s], direction=name
                )
                self.greedy_by_square[s] += (aid,)
        jump_ids = [[0] * len(SQUARES) for _ in DIRECTIONS]
        origins = [0] * len(DIRECTIONS)
        for s in SQUARES:
            for d, over, to in board.jump_lines(s):
                label = f"jump {NAMES[s]} over {NAMES[over]} to {NAMES[to]}"
                jump_ids[d][s] = add(
                    label, "jump", (A_JUMP, s, over, to), origin=NAMES[s], over=NAMES[over], to=NAMES[to]
                )
                origins[d] |= 1 << s
        # Per direction: the step from a jump's origin to the jumped square and twice that to the
        # landing square, the origins whose jump stays on the floor, and each origin's jump id; split
        # by the step's sign, so the move generator shifts the masks one way (`HatflingsState._jump_ids`).
        self.jump_rays_up: list[tuple[int, int, int, tuple[int, ...]]] = []
        self.jump_rays_down: list[tuple[int, int, int, tuple[int, ...]]] = []
        for d, (_, dx, dy) in enumerate(DIRECTIONS):
            step = dy * board.WIDTH + dx
            rays = self.jump_rays_up if step > 0 else self.jump_rays_down
            rays.append((abs(step), 2 * abs(step), origins[d], tuple(jump_ids[d])))
        for s in SQUARES:
            self.puddle_ids[s] = add(f"puddle at {NAMES[s]}", "puddle", (A_PUDDLE, s, 0, 0), square=NAMES[s])
        for s in SQUARES:
            self.pig_ids[s] = add(f"pig to {NAMES[s]}", "pig", (A_PIG, s, 0, 0), square=NAMES[s])
        return actions

    def place_table(self, sources: int) -> tuple[tuple[int, ...], ...]:
        """Per square, the ids of "place ... at" actions for the halfling kinds set in `sources`."""
        table = PLACE_TABLES.get(sources)
        if table is None:
            kinds = [kind for kind in SOURCE_KINDS if sources >> kind & 1]
            table = tuple(tuple(self.place_ids[kind][s] for kind in kinds) for s in SQUARES)
            PLACE_TABLES[sources] = table
        return table

    def place_rows(self, sources: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """Per rank, the ids of the "place" actions for each 6-bit pattern of squares on that rank.

        Lets the legal-move generator turn a bitmask of target squares into action ids with one
        lookup per rank instead of one per square. Action ids are the same in every Hatflings
        game, so the tables are shared by all of them and built once per set of sources.
        """
        rows = PLACE_ROWS.get(sources)
        if rows is None:
            per_square = self.place_table(sources)
            built = []
            for y in range(board.HEIGHT):
                patterns: list[tuple[int, ...]] = [()] * (1 << board.WIDTH)
                for pattern in range(1, 1 << board.WIDTH):
                    high = pattern.bit_length() - 1
                    patterns[pattern] = patterns[pattern ^ (1 << high)] + per_square[y * board.WIDTH + high]
                built.append(tuple(patterns))
            rows = PLACE_ROWS[sources] = tuple(built)
        return rows

    def new_state(self, seed: int = 0) -> HatflingsState:
        return HatflingsState.set_up(self, seed)
