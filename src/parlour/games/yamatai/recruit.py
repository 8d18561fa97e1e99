"""Yamataï phases IV and V: keeping boats in the harbour, then recruiting a specialist and paying for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine import Event
from parlour.games.yamatai.actions import KIND_PAIRS, KIND_TRIPLES, Ids
from parlour.games.yamatai.components import (
    RESOURCES,
)
from parlour.games.yamatai.constants import END, HARBOUR, PAY

if TYPE_CHECKING:
    pass


from parlour.games.yamatai.position import YamataiPosition


class Recruit(YamataiPosition):
    __slots__ = ()

    def _harbour_capacity(self) -> int:
        return self._spec_param("harbour_capacity", "capacity") if self._has("harbour_capacity") else 1

    def _enter_harbour(self) -> None:
        self.phase = HARBOUR
        self.keep_left = self._harbour_capacity()

    def _stop_collecting(self) -> list[Event]:
        self._enter_harbour()
        return [Event("stop_collecting", f"{self._who()} stops collecting", {"seat": self.to_move})]

    def _harbour_ids(self) -> list[int]:
        """Which colour to keep next; empty when the choice is forced (the harbour fills as far as it can)."""
        hand = self.hand
        colours = [c for c in range(5) if hand[c]]
        if self.keep_left == 0 or len(colours) < 2 or sum(hand) <= self.keep_left:
            return []
        return [Ids.KEEP + c for c in colours]

    def _keep(self, colour: int) -> list[Event]:
        self.hand[colour] -= 1
        self.harbour[5 * self.to_move + colour] += 1
        self.keep_left -= 1
        return [Event("keep", f"{self._who()} keeps a {RESOURCES[colour]} boat", {"seat": self.to_move})]

    def _close_harbour(self) -> None:
        """Forced part of phase IV: keep what still fits, discard the rest for good (R17)."""
        hand = self.hand
        base = 5 * self.to_move
        room = self.keep_left
        for c in range(5):
            keep = min(room, hand[c])
            self.harbour[base + c] += keep
            room -= keep
            self.discarded[self.to_move] += hand[c] - keep
            hand[c] = 0
        self.keep_left = 0

    def _payments(self) -> list[int]:
        held = self.culture[6 * self.to_move : 6 * self.to_move + 6]
        ids = [Ids.PAY_SAME + k for k in range(6) if held[k] >= 2]
        ids.extend(Ids.PAY_THREE + n for n, (a, b, c) in enumerate(KIND_TRIPLES) if held[a] and held[b] and held[c])
        if self._has("cheap_recruit"):  # Envoy
            ids.extend(Ids.PAY_TWO + n for n, (a, b) in enumerate(KIND_PAIRS) if held[a] and held[b])
        return ids

    def _recruit_ids(self) -> list[int]:
        held = self.culture[6 * self.to_move : 6 * self.to_move + 6]
        kinds = sum(1 for k in held if k)
        can_pay = max(held) >= 2 or kinds >= 3 or (kinds >= 2 and self._has("cheap_recruit"))
        if not can_pay:
            return []
        return sorted(Ids.RECRUIT + s for s in self.spec_track if s >= 0)

    def _choose_recruit(self, specialist: int) -> list[Event]:
        """The specialist is chosen first; the tokens paid for it are the next step (R18)."""
        self.pending = self.spec_track.index(specialist)
        self.phase = PAY
        name = self.game.components.specialists[specialist].name
        text = f"{self._who()} chooses to recruit the {name}"
        return [Event("recruit_choice", text, {"seat": self.to_move, "specialist": name})]

    def _no_recruit(self) -> list[Event]:
        self.phase = END
        return [Event("no_recruit", f"{self._who()} recruits no specialist", {"seat": self.to_move})]

    def _pay(self, a: int) -> list[Event]:
        seat = self.to_move
        base = 6 * seat
        if a < Ids.PAY_THREE:
            paid: tuple[int, ...] = (a - Ids.PAY_SAME,) * 2
        elif a < Ids.PAY_TWO:
            paid = KIND_TRIPLES[a - Ids.PAY_THREE]
        else:
            paid = KIND_PAIRS[a - Ids.PAY_TWO]
        for k in paid:
            self.culture[base + k] -= 1  # spent tokens leave the game (R18)
        slot = self.pending
        specialist = self.spec_track[slot]
        coins = self.spec_coins[slot]
        self.coins[seat] += coins
        self.specs[seat] |= 1 << specialist
        self.spec_track[slot] = -1
        self.spec_coins[slot] = 0
        self.pending = -1
        self.phase = END
        name = self.game.components.specialists[specialist].name
        return [
            Event(
                "recruit",
                f"{self._who()} recruits the {name} and takes {coins} coin{'' if coins == 1 else 's'}",
                {"seat": seat, "specialist": name, "coins": coins},
            )
        ]
