"""Yamataï phase IIIB: collecting culture tokens or building on an island next to the chain."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.engine import Event
from parlour.games.yamatai import board as geo
from parlour.games.yamatai.actions import N_ISLANDS, N_TILES, Ids
from parlour.games.yamatai.constants import COLLECT, NO_TOKEN

if TYPE_CHECKING:
    pass


from parlour.games.yamatai.recruit import Recruit


class Building(Recruit):
    __slots__ = ()

    def _near_islands(self) -> set[int]:
        spot_islands = self.game.components.board.spot_islands
        near: set[int] = set()
        for s in self.placed:
            near.update(spot_islands[s])
        return near

    def _substitutions(self) -> list[tuple[int, int]]:
        mask = self.specs[self.to_move]
        return [sub for index, sub in self.game.subs_by_spec.items() if mask >> index & 1]

    def _build_options(self) -> tuple[list[int], bool]:
        """Legal Build ids, and whether one of them needs no power's help (R9, R46)."""
        seat = self.to_move
        game = self.game
        board = game.components.board
        tiles = [t for t in self.row if t >= 0]
        reserved = self.reserved[seat]
        if reserved:
            tiles.extend(t for t in range(N_TILES) if reserved >> t & 1)
        if self.pieces[seat] == 0:
            tiles = [t for t in tiles if not game.components.buildings[t].standard]  # R11
        if not tiles:
            return [], False
        master = self._has("build_on_token")
        subs = self._substitutions()
        minus = 1 if self.minus_one else 0
        ids: list[int] = []
        plain = False
        boats = self.spot_boat
        totals, needs_of = game.tile_total, game.tile_needs
        for i in sorted(self._near_islands()):
            if self.island_building[i] != geo.NO_BUILDING:
                continue
            has_token = self.island_token[i] != NO_TOKEN
            if has_token and not master:
                continue
            have = [0, 0, 0, 0, 0]
            around = 0
            for s in board.island_spots[i]:
                if boats[s] >= 0:
                    have[boats[s]] += 1
                    around += 1
            for t in tiles:
                if totals[t] > around + minus:
                    continue  # too few boats around, whatever the relaxations
                needs = needs_of[t]
                short = 0
                for c in range(5):
                    if needs[c] > have[c]:
                        short += needs[c] - have[c]
                if short == 0:
                    plain = plain or not has_token
                elif short > minus + len(subs) or geo.missing_boats(needs, have, subs) > minus:
                    continue
                ids.append(Ids.BUILD + t * N_ISLANDS + i)
        return ids, plain

    def _choose_ids(self) -> tuple[list[int], bool]:
        tokens = self.island_token
        collect = [Ids.COLLECT + i for i in sorted(self._near_islands()) if tokens[i] != NO_TOKEN]
        builds, plain = self._build_options()
        return collect + builds, bool(collect) or plain

    def _collect_ids(self, picks: list[int]) -> list[int]:
        tokens = self.island_token
        extra = 1 if self._has("extra_collect") else 0  # Land Clearer
        spot_islands = self.game.components.board.spot_islands
        ids = []
        for i in sorted(self._near_islands()):
            if tokens[i] != NO_TOKEN:
                trial = [*picks, i]
                if geo.max_matching(trial, self.placed, spot_islands) + extra >= len(trial):
                    ids.append(Ids.COLLECT + i)
        return ids

    def _collect(self, island: int) -> list[Event]:
        seat = self.to_move
        kind = self.island_token[island]
        self.island_token[island] = NO_TOKEN
        self.culture[6 * seat + kind] += 1
        self.picks.append(island)
        self.phase = COLLECT
        name = self.game.components.board.island_ids[island]
        colour = self.game.components.culture_colours[kind]
        text = f"{self._who()} collects the {colour} token on {name}"
        return [Event("collect", text, {"seat": seat, "island": name, "token": colour})]

    def _build(self, tile: int, island: int) -> list[Event]:
        seat = self.to_move
        game = self.game
        parts = game.components
        board = parts.board
        spec = parts.buildings[tile]
        data: dict[str, Any] = {"seat": seat, "tile": spec.code, "island": board.island_ids[island]}
        took = self.island_token[island]
        if took != NO_TOKEN:  # Master Builder: take the token first (R46)
            self.culture[6 * seat + took] += 1
            self.island_token[island] = NO_TOKEN
            data["token"] = parts.culture_colours[took]
        have = [0, 0, 0, 0, 0]
        for s in board.island_spots[island]:
            if self.spot_boat[s] >= 0:
                have[self.spot_boat[s]] += 1
        if geo.missing_boats(spec.needs, have, self._substitutions()):
            self.minus_one = False  # the build_minus_one power is spent on this Build (R31)
            data["minus_one"] = True
        if tile in self.row:
            self.row[self.row.index(tile)] = -1  # the slot stays empty until the end of the round (R12)
        else:
            self.reserved[seat] &= ~(1 << tile)
        self.built[seat] |= 1 << tile
        self.island_tile[island] = tile
        text = f"{self._who()} builds {spec.code} ({spec.kind}, {spec.pp} PP) on {board.island_ids[island]}"
        if spec.standard:
            self.island_building[island] = seat
            self.pieces[seat] -= 1
            pp, coins = self._standard_bonus(island)
            self.pp_tokens[seat] += pp
            self.coins[seat] += coins
            data["pp_tokens"], data["coins"] = pp, coins
            text += f": +{pp} PP token{'' if pp == 1 else 's'}, +{coins} coin{'' if coins == 1 else 's'}"
            if self.pieces[seat] == 0:
                self.end_a = True  # trigger A: the round is played out, then scoring (R23)
        else:
            self.island_building[island] = geo.TORII if spec.kind == "torii" else geo.PALACE
        self._enter_harbour()
        return [Event("build", text, data)]

    def _standard_bonus(self, island: int) -> tuple[int, int]:
        """PP tokens and coins for a Standard Building just built on `island` (8.3, R13-R15, R46)."""
        borders = self.game.components.board.island_borders
        pp = coins = 0
        near = geo.prestige_neighbours(self.island_building, borders, island)
        if near:
            pp += near
            if self._has("prestige_neighbour_bonus"):
                pp += self._spec_param("prestige_neighbour_bonus", "extra_pp_tokens")
        if self.mountain[island]:
            pp += 1
            if self._has("mountain_bonus"):
                pp += self._spec_param("mountain_bonus", "extra_pp_tokens")
        group = geo.group_size(self.island_building, borders, island, self.to_move)
        if group >= 2:
            coins += group
            if self._has("group_bonus"):
                coins += self._spec_param("group_bonus", "extra_coins")
        return pp, coins
