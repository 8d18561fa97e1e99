"""Hatflings! dance: a captain's turn (place, greedy entry, jump), the landing it sets off (R9:
barrel, abilities, hat changes, the pig), the follow-up decisions of the same turn (clumsy puddle,
pig run) and what happens between turns (puddles dry, R20; the end of the dance, R22, R25)."""

from __future__ import annotations

from typing import Any

from parlour.engine.actions import Event
from parlour.engine.game import TERMINAL
from parlour.games.hatflings import events as told
from parlour.games.hatflings.board import NAMES, NEIGHBOUR_MASK, NEIGHBOURS
from parlour.games.hatflings.constants import (
    BIT,
    DANCE,
    EDGE_MASK,
    OVER,
    PIG_MOVE,
    PLACE_ROWS,
    PUDDLE_CHOICE,
    PUSH_LINES,
)
from parlour.games.hatflings.masks import OWN, around, mask, squares_of
from parlour.games.hatflings.pieces import (
    BARREL,
    CHEATING,
    CLUMSY,
    EMPTY,
    FIREBUG,
    GREEDY,
    JOKER,
    NORMAL,
    PUDDLE,
    SCENERY_NAMES,
    SPENT_JOKER,
    STILTS,
    halfling,
)
from parlour.games.hatflings.position import HatflingsPosition


class Dance(HatflingsPosition):
    """The dance phases of `HatflingsState` (DANCE, PUDDLE_CHOICE, PIG_MOVE) and the turn boundary."""

    __slots__ = ()

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
        line = PUSH_LINES[entry, direction]
        length = 0
        while length < len(line) and hat[line[length]] and not scenery[line[length]]:
            length += 1
        front = line[length - 1]
        events = [
            Event(
                "push",
                f"{self._colour(c)}'s greedy halfling pushes in at {NAMES[entry]}, "
                f"moving {length} halfling{'' if length == 1 else 's'}",
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

    def _end_turn(self, events: list[Event]) -> list[Event]:
        self.turns += 1
        c = 1 - self.captain
        self.captain = self.to_move = c
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
        ids = self._dance_ids()  # as _legal_now, minus the phase test
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
        self.to_move = TERMINAL
        self.end_reason = reason
        self._legal = []
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
