"""Yamataï phase IIIA: placing boats as one chain through the archipelago."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine import Event
from parlour.games.yamatai.actions import N_SPOTS, Ids
from parlour.games.yamatai.components import (
    RESOURCES,
)

if TYPE_CHECKING:
    pass


from parlour.games.yamatai.building import Building


class Placement(Building):
    __slots__ = ()

    def _place_ids(self) -> list[int]:
        if self.chain_closed:
            return []
        hand = self.hand
        colours = [c for c in range(5) if hand[c]]
        if not colours:
            return []
        boats = self.spot_boat
        neighbours = self.game.components.board.spot_neighbours
        if self.head < 0:
            return self._first_boat_ids(colours)
        spots = {t for t in neighbours[self.head] if boats[t] < 0}
        if not self.branch_used and self._has("branch_once"):  # Navigator
            for s in self.placed:
                spots.update(t for t in neighbours[s] if boats[t] < 0)
        ordered = sorted(spots)
        return [Ids.PLACE + c * N_SPOTS + s for c in colours for s in ordered]

    def _first_boat_ids(self, colours: list[int]) -> list[int]:
        """First boat: an empty entry spot, or an empty spot next to a boat of its colour (Pilot: any)."""
        board = self.game.components.board
        boats = self.spot_boat
        neighbours = board.spot_neighbours
        pilot = self._has("free_first_boat")
        wanted = [pilot] * 5
        for c in colours:
            wanted[c] = True
        by_colour: list[list[int]] = [[], [], [], [], []]
        for s, b in enumerate(boats):
            if b >= 0 and wanted[b]:
                by_colour[b].extend(neighbours[s])
        entries = {s for s in board.entry_spots if boats[s] < 0}
        if pilot:  # the Pilot's first boat may go next to a boat of any colour
            for near in by_colour:
                entries.update(t for t in near if boats[t] < 0)
        ids: list[int] = []
        for c in colours:
            base = Ids.PLACE + c * N_SPOTS
            ids.extend(base + s for s in sorted(entries.union(t for t in by_colour[c] if boats[t] < 0)))
        return ids

    def _place(self, colour: int, spot: int) -> list[Event]:
        if self.head >= 0 and spot not in self.game.components.board.spot_neighbours[self.head]:
            self.branch_used = True  # only the Navigator makes such a spot legal
        self.spot_boat[spot] = colour
        self.hand[colour] -= 1
        self.placed.append(spot)
        self.head = spot
        name = self.game.components.board.spot_ids[spot]
        return [
            Event(
                "place",
                f"{self._who()} places a {RESOURCES[colour]} boat at {name}",
                {"seat": self.to_move, "resource": RESOURCES[colour], "spot": name},
            )
        ]

    def _stop_placing(self) -> list[Event]:
        """The chain ends while she still holds boats: the others see that she stopped."""
        self.chain_closed = True
        return [Event("stop_placing", f"{self._who()} stops placing boats", {"seat": self.to_move})]
