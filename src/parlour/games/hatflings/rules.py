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
from parlour.engine.errors import IllegalAction
from parlour.engine.game import TERMINAL, Score, State
from parlour.engine.rng import Rng
from parlour.games.hatflings import events as told
from parlour.games.hatflings import reasons
from parlour.games.hatflings import render as drawing
from parlour.games.hatflings.board import NAMES, NEIGHBOUR_MASK, NEIGHBOURS, SQUARES, is_edge, push_line
from parlour.games.hatflings.game import A_GREEDY, A_JUMP, A_PIG, A_PLACE, A_PUDDLE, A_SCENE, PLACE_ROWS, Hatflings
from parlour.games.hatflings.heuristic import evaluate
from parlour.games.hatflings.masks import FLOOR, OWN, WALLS, around, mask, squares_of
from parlour.games.hatflings.pieces import (
    ALL_SPECIALS,
    BARREL,
    CHEATING,
    CLUMSY,
    DANCE,
    EMPTY,
    FIREBUG,
    GREEDY,
    JOKER,
    NORMAL,
    OBJECT_CODES,
    OVER,
    PIG_MOVE,
    PIG_SETUP,
    PUDDLE,
    PUDDLE_CHOICE,
    SCENE,
    SCENERY_NAMES,
    SPENT_JOKER,
    STILTS,
    halfling,
)

BIT = tuple(1 << s for s in SQUARES)
EDGE_MASK = sum(1 << s for s in SQUARES if is_edge(s))
_PUSH_LINES = {(s, d): push_line(s, d) for s in SQUARES for d in range(8)}


class HatflingsState(State):
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
        "mover",
        "phase",
        "turns",
        "lander",
        "seen",
        "repeats",
        "end_reason",
        "rng",
        "_legal",
        "_legal_ids",
    )
    game: Hatflings
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
    mover: int
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
    _legal: list[Action] | None
    _legal_ids: list[int] | None

    @classmethod
    def start(cls, game: Hatflings, seed: int) -> HatflingsState:
        state = cls(game, seed)
        state.hat = bytearray(len(SQUARES))
        state.scenery = bytearray(len(SQUARES))
        state.pig = -1
        state.pool = game.options["general_pool_size"]
        state.specials = [ALL_SPECIALS, ALL_SPECIALS]
        state.puddle_supply = game.puddles
        state.objects_left = [game.supply.get(name, 0) for name in SCENERY_NAMES[:5]]
        state.started = 0
        state.captain = state.mover = game.options["starting_captain"]
        state.turns = 0
        state.lander = -1
        state.seen = {}
        state.repeats = 0
        state.end_reason = ""
        state.rng = Rng(seed)
        state._legal = state._legal_ids = None
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

    # --- protocol ----------------------------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.phase == OVER else self.mover

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._compute_legal()
        return self._legal  # type: ignore[return-value]

    def apply(self, action: Action | int | str) -> list[Event]:
        """As `State.apply`, checking legality against the cached ids rather than comparing actions."""
        if not isinstance(action, Action):
            action = self.game.action(action)
        if self.phase == OVER:
            raise IllegalAction(f"the game is over; {action.label!r} cannot be played")
        if self._legal_ids is None:
            self._compute_legal()
        if action.id not in self._legal_ids:  # type: ignore[operator]
            raise IllegalAction(self.why_illegal(action))
        events = self._apply(action)
        self.history.append(action.id)
        return events

    def _apply(self, action: Action) -> list[Event]:
        self._legal = self._legal_ids = None
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

    def _compute_legal(self) -> list[int]:
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
        self._legal_ids = ids
        self._legal = list(map(self.game.action_at, ids))
        return ids

    def _dance_ids(self) -> list[int]:
        game = self.game
        c = self.captain
        pig = self.pig
        sources = self.specials[c] | (1 << NORMAL if self.pool else 0)
        ids: list[int] = []
        if not self.started >> c & 1:
            # R7: the first turn is a start placement anywhere free in the own start zone.
            hat, scenery = self.hat, self.scenery
            table = game.place_table(sources)
            for s in game.zones[c]:
                if not hat[s] and scenery[s] <= BARREL and s != pig:
                    ids.extend(table[s])
            return ids
        # The floor as bitmasks (see masks.py): whose halflings, what blocks, who may jump whom.
        own, rival = self.own[c], self.own[1 - c]
        floor = self.floor
        blocked = own | rival | self.walls | BIT[pig]
        jumpable = rival & floor  # a rival on a box or barrel cannot be jumped over
        near = own & around(jumpable)  # most turns no own halfling stands next to a jumpable rival
        if near:
            ids = self._jump_ids(near, jumpable, ~blocked)
        targets = around(own) & ~blocked
        if sources and targets:
            # One lookup per rank, unrolled: an empty rank adds an empty tuple.
            p0, p1, p2, p3, p4, p5 = PLACE_ROWS.get(sources) or game.place_rows(sources)
            ids += p0[targets & 63]
            ids += p1[targets >> 6 & 63]
            ids += p2[targets >> 12 & 63]
            ids += p3[targets >> 18 & 63]
            ids += p4[targets >> 24 & 63]
            ids += p5[targets >> 30]
        if self.specials[c] >> GREEDY & 1:
            entries = own & floor & EDGE_MASK
            greedy = game.greedy_by_square
            while entries:
                low = entries & -entries
                entries ^= low
                ids.extend(greedy[low.bit_length() - 1])
        return ids

    def _jump_ids(self, movers: int, jumpable: int, free: int) -> list[int]:
        """The jumps of `movers` over a `jumpable` rival onto a `free` square, in action-id order.

        Origin, jumped and landing squares lie `step` apart in a line, so shifting the masks by one
        and two steps lines them up: one direction's origins come out of a few integer operations
        instead of a loop over every halfling's eight jumps. Only origins whose landing square is on
        the floor are kept, so a shift never wraps round an edge.
        """
        ids: list[int] = []
        for step, step2, origins, jump_ids in self.game.jump_rays_up:
            origins &= movers & jumpable >> step  # a rival to jump over this way...
            if origins:
                origins &= free >> step2  # ...and a free square behind it
                if origins:
                    self._add_jumps(origins, jump_ids, ids)
        for step, step2, origins, jump_ids in self.game.jump_rays_down:
            origins &= movers & jumpable << step
            if origins:
                origins &= free << step2
                if origins:
                    self._add_jumps(origins, jump_ids, ids)
        ids.sort()  # jump ids run by origin, then direction (game.py): the order the rules list jumps in
        return ids

    def _add_jumps(self, origins: int, jump_ids: tuple[int, ...], ids: list[int]) -> None:
        """Append the jump ids of one direction for the `origins` found able to jump that way."""
        hat = self.hat
        for s in squares_of(origins):
            if hat[s] >> 1 != CHEATING:  # 6.3: a cheating halfling is never moved by its captain
                ids.append(jump_ids[s])

    def _scene_ids(self) -> list[int]:
        zones = self.game.zone_masks[0] | self.game.zone_masks[1]
        squares = [s for s in SQUARES if not zones >> s & 1 and not self.scenery[s]]
        ids: list[int] = []
        for code, table in self.game.scene_ids.items():
            if self.objects_left[code]:
                ids.extend(table[s] for s in squares)
        return ids

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

    def _place(self, kind: int, s: int) -> list[Event]:
        c = self.captain
        if kind == NORMAL:
            self.pool -= 1
        else:
            self.specials[c] &= ~(1 << kind)
            self.seen.clear()  # a special pool never grows back, so no earlier position can recur
        if not self.started >> c & 1:
            self.started |= 1 << c
            self.seen.clear()
        events = [told.placed(c, kind, s)]
        if self.scenery[s] == BARREL and not self._barrel_holds(s, events):
            if kind == NORMAL:
                self.pool += 1  # R19: the broken barrel's victim goes back to the pool
            return self._end_turn(events)
        self.hat[s] = kind * 2 + c  # halfling(kind, c), written out on the hot path
        self.own[c] |= BIT[s]
        if kind == FIREBUG:
            self._firebug_blast(s, events)
        elif kind == CLUMSY and self.puddle_supply and self._empty_around(s):
            self.phase = PUDDLE_CHOICE
            self.lander = s
            return events
        return self._land(s, events)

    def _jump(self, origin: int, over: int, to: int) -> list[Event]:
        c = self.captain
        code = self.hat[origin]
        self.hat[origin] = 0
        self.own[c] ^= BIT[origin]
        events = [told.jumped(c, code >> 1, origin, over, to)]
        if self.scenery[to] == BARREL and not self._barrel_holds(to, events):
            if code >> 1 == NORMAL:
                self.pool += 1
            return self._end_turn(events)
        self.hat[to] = code
        self.own[c] |= BIT[to]
        return self._land(to, events)

    def _greedy_entry(self, entry: int, direction: int) -> list[Event]:
        """R11: the contiguous train of floor-standing halflings from the entry square moves one step."""
        c = self.captain
        self.specials[c] &= ~(1 << GREEDY)
        self.seen.clear()
        hat, scenery = self.hat, self.scenery
        line = _PUSH_LINES[entry, direction]
        length = 0
        while length < len(line) and hat[line[length]] and not scenery[line[length]]:
            length += 1
        front = line[length - 1]
        events = [
            Event(
                "push",
                f"{self._colour(c)}'s greedy halfling pushes in at {NAMES[entry]}, moving {length} halfling(s)",
                {"seat": c, "square": NAMES[entry], "moved": [NAMES[s] for s in line[:length]]},
            )
        ]
        if length == len(line):
            self._eliminate(front, "falls off the floor", events)
        elif scenery[line[length]] or line[length] == self.pig:
            self._eliminate(front, f"collides with the {self._obstacle(line[length])}", events)
        else:
            hat[line[length]] = hat[front]
        for i in range(length - 1, 0, -1):
            hat[line[i]] = hat[line[i - 1]]
        hat[entry] = halfling(GREEDY, c)
        self.own = [mask(OWN[0], hat), mask(OWN[1], hat)]  # a whole train moved: recount, once a game
        return self._land(entry, events)

    def _obstacle(self, s: int) -> str:
        return "pig" if s == self.pig else SCENERY_NAMES[self.scenery[s]]

    def _barrel_holds(self, s: int, events: list[Event]) -> bool:
        """The barrel test (7.2, R12, R13): a chance event drawn from the state's own generator."""
        c = self.captain
        if self.rng.randrange(100) >= self.game.barrel_break_percent:
            events.append(told.barrel_held(s))
            return True
        self.seen.clear()  # barrels never come back
        text = f"the barrel at {NAMES[s]} breaks and the halfling is eliminated"
        if self.puddle_supply:
            self._set_scenery(s, PUDDLE + c)
            self.puddle_supply -= 1
            text += f"; a puddle of {self._colour(c)} is left"
        else:
            self._set_scenery(s, EMPTY)
        events.append(Event("barrel break", text, {"square": NAMES[s], "puddle": self.scenery[s] != EMPTY}))
        return False

    def _set_scenery(self, s: int, code: int) -> None:
        """Put scenery `code` (or EMPTY) on square `s`, keeping the `floor` and `walls` masks in step."""
        self.scenery[s] = code
        bit = BIT[s]
        self.floor = self.floor | bit if code == EMPTY else self.floor & ~bit
        self.walls = self.walls | bit if code > BARREL else self.walls & ~bit

    def _eliminate(self, s: int, why: str, events: list[Event]) -> None:
        """R19: a normal halfling goes back to the general pool, a special one to the box for good."""
        code = self.hat[s]
        self.hat[s] = 0
        self.own[code & 1] ^= BIT[s]
        if code >> 1 == NORMAL:
            self.pool += 1
        events.append(told.eliminated(code, s, why))

    def _firebug_blast(self, s: int, events: list[Event]) -> None:
        """R14: every halfling around the new firebug leaves the floor, whatever it wears or stands on."""
        for n in NEIGHBOURS[s]:
            if self.hat[n]:
                self._eliminate(n, "is blown away by the firebug", events)

    def _clumsy_puddle(self, s: int) -> list[Event]:
        c = self.captain
        self._set_scenery(s, PUDDLE + c)
        self.puddle_supply -= 1
        events = [
            Event(
                "puddle",
                f"{self._colour(c)}'s clumsy halfling spills a puddle at {NAMES[s]}",
                {"seat": c, "square": NAMES[s]},
            )
        ]
        return self._land(self.lander, events)

    def _land(self, s: int, events: list[Event]) -> list[Event]:
        """L4 and L5: hat changes around the lander, then the pig if it is next door."""
        self._change_hats(s, events)
        pig = self.pig
        if NEIGHBOUR_MASK[s] >> pig & 1 and self._empty_around(pig):
            self.phase = PIG_MOVE
            self.lander = s
            return events
        return self._end_turn(events)

    def _change_hats(self, s: int, events: list[Event]) -> None:
        """7.5, R15-R17: rivals around the lander take its colour, once, without cascading."""
        hat, own = self.hat, self.own
        code = hat[s]
        c = code & 1
        rivals = NEIGHBOUR_MASK[s] & own[1 - c]
        if code >> 1 != STILTS:
            rivals &= self.floor  # only stilts reach a rival standing on a box or barrel
        if not rivals:
            return
        changed: list[int] = []
        while rivals:  # lowest square first, as NEIGHBOURS lists them
            low = rivals & -rivals
            rivals ^= low
            n = low.bit_length() - 1
            h = hat[n]
            kind = h >> 1
            if kind == CHEATING:
                continue
            if kind == JOKER:
                hat[n] = halfling(SPENT_JOKER, c)
                events.append(told.joker_spent(n))
            elif kind == SPENT_JOKER:
                self._replace_spent_joker(n, c, events)
                continue
            else:
                hat[n] = h ^ 1
            own[c] |= low
            own[1 - c] ^= low
            changed.append(n)
        if changed:
            events.append(told.hats_changed(c, tuple(changed)))

    def _replace_spent_joker(self, s: int, c: int, events: list[Event]) -> None:
        """R17: the joker's second change eliminates it; a pool halfling of the changer takes its place."""
        self.own[1 - c] ^= BIT[s]
        if self.pool:
            self.pool -= 1
            self.hat[s] = halfling(NORMAL, c)
            self.own[c] |= BIT[s]
            text = f"the joker at {NAMES[s]} loses its last hat and is replaced by a {self._colour(c)} halfling"
        else:
            self.hat[s] = 0
            text = f"the joker at {NAMES[s]} loses its last hat and leaves; the pool is empty"
        events.append(
            Event("eliminate", text, {"square": NAMES[s], "halfling": "joker", "replaced": bool(self.hat[s])})
        )

    def _move_pig(self, s: int) -> list[Event]:
        events = [told.pig_ran(self.pig, s)]
        self.pig = s
        return self._end_turn(events)

    def _scene_object(self, code: int, s: int) -> list[Event]:
        self._set_scenery(s, code)
        self.objects_left[code] -= 1
        self.scene_left -= 1
        event = Event(
            "scene",
            f"seat {self.mover} puts a {SCENERY_NAMES[code]} at {NAMES[s]}",
            {"seat": self.mover, "object": SCENERY_NAMES[code], "square": NAMES[s]},
        )
        self.mover = 1 - self.mover
        if not self.scene_left:
            self.phase = PIG_SETUP
            self.mover = 1 - self.game.options["starting_captain"]
        return [event]

    def _scene_pig(self, s: int) -> list[Event]:
        self.pig = s
        events = [
            Event(
                "scene",
                f"seat {self.mover} puts the pig at {NAMES[s]}",
                {"seat": self.mover, "object": "pig", "square": NAMES[s]},
            )
        ]
        self.phase = DANCE
        self.captain = self.mover = self.game.options["starting_captain"]
        return self._start_turn(events)

    # --- between turns -------------------------------------------------------------------------

    def _end_turn(self, events: list[Event]) -> list[Event]:
        self.turns += 1
        c = 1 - self.captain
        self.captain = self.mover = c
        self.phase = DANCE
        self.lander = -1
        if self.puddle_supply < self.game.puddles:
            self._dry_puddles(c, events)
        return self._start_turn(events)

    def _dry_puddles(self, c: int, events: list[Event]) -> None:
        """R20: a captain's puddles go back to the supply as their next turn starts."""
        mine = PUDDLE + c
        layout = bytes(self.scenery)  # searched in C, not square by square; also accepts lists
        s = layout.find(mine)
        while s >= 0:
            self._set_scenery(s, EMPTY)
            self.puddle_supply += 1
            events.append(told.puddle_dried(s))
            s = layout.find(mine, s + 1)

    def _start_turn(self, events: list[Event]) -> list[Event]:
        """T1: the dance ends if the captain cannot act (R22), or by the loop guard (R25)."""
        game = self.game
        ids = self._legal_ids = self._dance_ids()  # as _compute_legal, minus the phase test
        self._legal = list(map(game.action_at, ids))
        if not ids:
            return self._finish(f"{self._colour(self.captain)} cannot introduce or move a halfling", events)
        if game.repetition_limit:
            key = self._position_key()
            count = self.seen.get(key, 0) + 1
            self.seen[key] = self.repeats = count
            if count >= game.repetition_limit:
                return self._finish(f"the same position occurred {count} times", events)
        if game.max_turns and self.turns >= game.max_turns:
            return self._finish(f"{self.turns} turns have been played", events)
        return events

    def _position_key(self) -> tuple[Any, ...]:
        """Everything that decides the rest of the game, exactly (a tuple is cheaper to build than bytes)."""
        specials = self.specials
        return (
            bytes(self.hat),
            bytes(self.scenery),
            self.pig,
            self.pool,
            specials[0],
            specials[1],
            self.puddle_supply,
            self.started,
            self.captain,
        )

    def _finish(self, reason: str, events: list[Event]) -> list[Event]:
        self.phase = OVER
        self.mover = TERMINAL
        self.end_reason = reason
        self._legal, self._legal_ids = [], []
        counts = self.hat_counts()
        winners = self.winners()
        outcome = "a draw" if len(winners) == 2 else f"{self._colour(winners[0])} wins"
        events.append(
            Event(
                "end",
                f"the dance ends: {reason}; {counts[0]}-{counts[1]}, {outcome}",
                {"reason": reason, "hats": counts, "winners": winners},
            )
        )
        return events

    # --- scores and outlook --------------------------------------------------------------------

    def hat_counts(self) -> list[int]:
        counts = [0, 0]
        for h in self.hat:
            if h:
                counts[h & 1] += 1
        return counts

    def rival_zone_counts(self) -> list[int]:
        """R23: halflings of each colour standing in the other seat's start zone."""
        zones = self.game.zones
        return [sum(1 for s in zones[1 - seat] if self.hat[s] and self.hat[s] & 1 == seat) for seat in (0, 1)]

    def scores(self) -> list[Score]:
        counts, zone = self.hat_counts(), self.rival_zone_counts()
        return [
            Score(
                float(counts[seat]),
                {"halflings": counts[seat], "in rival start zone": zone[seat]},
                (float(zone[seat]),),
            )
            for seat in (0, 1)
        ]

    def winners(self) -> list[int]:
        counts, zone = self.hat_counts(), self.rival_zone_counts()
        for values in (counts, zone):
            if values[0] != values[1]:
                return [0 if values[0] > values[1] else 1]
        return [0, 1]

    def heuristic(self, seat: int) -> float:
        if self.phase == OVER:
            return self.returns()[seat]
        return evaluate(self.hat, self.scenery, self.specials, seat)

    # --- copies, views, text ----------------------------------------------------------------------

    def clone(self) -> HatflingsState:
        return self._twin(self.rng.clone())

    def determinize(self, seat: int, rng: Rng) -> HatflingsState:
        """Everything is in view except the barrel's future tosses, so only the generator is re-drawn."""
        return self._twin(Rng(rng.next64()))

    def _twin(self, rng: Rng) -> HatflingsState:
        """An independent copy with generator `rng` (search makes one per iteration, so no copy.deepcopy)."""
        twin = HatflingsState.__new__(HatflingsState)
        self._copy_base_into(twin)
        twin.hat = self.hat.copy()
        twin.scenery = self.scenery.copy()
        twin.own = self.own.copy()
        twin.floor, twin.walls = self.floor, self.walls
        twin.specials = self.specials.copy()
        twin.objects_left = self.objects_left.copy()
        twin.seen = self.seen.copy()
        twin.rng = rng
        twin.pig, twin.pool, twin.puddle_supply = self.pig, self.pool, self.puddle_supply
        twin.scene_left, twin.started, twin.captain, twin.mover = (
            self.scene_left,
            self.started,
            self.captain,
            self.mover,
        )
        twin.phase, twin.turns, twin.lander, twin.end_reason = self.phase, self.turns, self.lander, self.end_reason
        twin.repeats = self.repeats
        # The cached legal lists are never mutated, so the twin may share them.
        twin._legal, twin._legal_ids = self._legal, self._legal_ids
        return twin

    def view(self, seat: int | None) -> dict[str, Any]:
        return drawing.view(self)

    def render(self, seat: int | None = None) -> str:
        return drawing.render(self)

    def why_illegal(self, action: Action) -> str:
        return reasons.why_illegal(self, action)
