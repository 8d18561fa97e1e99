"""Hatairo's set-up: keeping dealt cards in palette or atelier, laying topography tiles (R5, R27),
the drafting variant (R50) and the reveal that ends the set-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from parlour.engine import Event, secret
from parlour.games.hatairo.board import Board
from parlour.games.hatairo.components import FLAGS, PLAYER_COLOURS, TILES, TOPOGRAPHIES
from parlour.games.hatairo.constants import KEPT, SETUP_KEEP, SETUP_TOPOGRAPHY

if TYPE_CHECKING:
    pass


from parlour.games.hatairo.turn import Turn

# Each seat's own topography tiles as (tile id, topography index), in TILES order: read at every
# set-up step, so kept as ints rather than read from the tile records.
OWN_TILES: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple((tile.id, TOPOGRAPHIES.index(tile.topography)) for tile in TILES if tile.player_colour == colour)
    for colour in PLAYER_COLOURS
)


class SetUp(Turn):
    __slots__ = ()

    def _free_topographies(self, board: Board) -> list[int]:
        laid = board.tiles
        return sorted({topo for tile, topo in OWN_TILES[self.to_move] if tile not in laid})

    def _keep(self, board: Board, flag: int, to_atelier: bool, events: list[Event]) -> None:
        seat = self.to_move
        board.hand.remove(flag)
        where = "atelier" if to_atelier else "palette"
        if to_atelier:
            board.atelier.append(flag)
        else:
            board.add_palette_flag(flag)
        mine = self._event("keep", f"you keep {FLAGS[flag].name} in your {where}", flag=flag)
        events.extend(secret(seat, mine, self._event("keep_hidden", f"{self._who(seat)} keeps a card")))
        if len(board.atelier) + len(board.palette_flags) == KEPT:
            self.phase = SETUP_TOPOGRAPHY
            self._auto_topography(board, events)

    def _auto_topography(self, board: Board, events: list[Event]) -> None:
        """Lay the last tile at once when only one is left (P5); finish when every column has one.

        Only a single remaining tile is laid by itself, never one that is merely the only kind left:
        then every player makes the same number of set-up decisions whatever she chose, and how long
        she takes tells the others nothing about her hidden arrangement (R5).
        """
        if board.tiles.count(-1) == 1 and len(self._own_tiles_left(board)) == 1:
            self._put_tile(board, self._free_topographies(board)[0], board.tiles.index(-1))
        if -1 not in board.tiles:
            self._next_setup_seat(events)

    def _own_tiles_left(self, board: Board) -> list[int]:
        laid = board.tiles
        return [tile for tile, _ in OWN_TILES[self.to_move] if tile not in laid]

    def _put_tile(self, board: Board, topo: int, column: int) -> None:
        laid = board.tiles
        for tile, kind in OWN_TILES[self.to_move]:
            if kind == topo and tile not in laid:
                laid[column] = tile
                return

    def _place_topography(self, board: Board, topo: int, column: int, events: list[Event]) -> None:
        self._put_tile(board, topo, column)
        seat = self.to_move
        text = f"you put your {TOPOGRAPHIES[topo]} tile under column {column + 1}"
        mine = self._event("topography", text, topography=topo, column=column)
        # The others learn only that a tile went down: every player lays the same number of tiles
        # (P5), so the fact tells nothing, while which tile and where stay hers until the reveal (R5).
        theirs = self._event("topography_hidden", f"{self._who(seat)} lays a topography tile")
        events.extend(secret(seat, mine, theirs))
        self._auto_topography(board, events)

    def _next_setup_seat(self, events: list[Event]) -> None:
        if self.to_move + 1 < self.game.num_players:
            self.to_move += 1
            self.phase = SETUP_KEEP
            return
        self._reveal_setup(events)

    def _draft(self, board: Board, flag: int, events: list[Event]) -> None:
        seat = self.to_move
        board.hand.remove(flag)
        board.picks.append(flag)
        mine = self._event("draft", f"you draft {FLAGS[flag].name}", flag=flag)
        events.extend(secret(seat, mine, self._event("draft_hidden", f"{self._who(seat)} drafts a card")))
        n = self.game.num_players
        if seat + 1 < n:
            self.to_move = seat + 1
            return
        self.to_move = 0
        self.draft_round += 1
        if self.draft_round < KEPT:
            # R50: every hand passes to the left (the next seat).
            hands = [b.hand for b in self.boards]
            for index, b in enumerate(self.boards):
                b.passed.append(b.hand[:])  # a copy: the hand itself travels on and shrinks
                b.hand = hands[(index - 1) % n]
            events.append(self._event("pass_hands", "every player passes her hand to the left"))
            return
        for b in self.boards:
            self.flag_supply.extend(b.hand)
            b.returned = b.hand
            # Her picks stay listed until the reveal: with what she passed they say where cards went.
            b.hand = b.picks[:]
        self.phase = SETUP_KEEP

    def _reveal_setup(self, events: list[Event]) -> None:
        for board in self.boards:
            self.flag_supply.extend(board.hand)
            board.hand = []
            board.picks = []
            board.passed = []
            board.returned = []
        self.rng.shuffle(self.flag_supply)
        self.revealed = True
        for seat, board in enumerate(self.boards):
            palette = ", ".join(FLAGS[f].name for f in board.palette_flags) or "nothing"
            atelier = ", ".join(FLAGS[f].name for f in board.atelier) or "nothing"
            tiles = ", ".join(TILES[t].topography for t in board.tiles if t >= 0)
            text = f"{self._who(seat)} reveals palette: {palette}; atelier: {atelier}; topography: {tiles}"
            events.append(self._event("reveal", text, seat=seat))
        self.active = 0
        self._begin_turn(events)
