"""Yamataï phases I and II: taking a fleet tile, then trading boats with the reserve at its prices."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine import Event
from parlour.games.yamatai.actions import Ids
from parlour.games.yamatai.components import (
    BAMBOO,
    GOLD,
    RESOURCES,
)
from parlour.games.yamatai.constants import TRADE

if TYPE_CHECKING:
    pass


from parlour.games.yamatai.placement import Placement


class Trade(Placement):
    __slots__ = ()

    def _prices(self, colour: int) -> tuple[int, int]:
        """Buy and sell price of a colour for the player to move; (0, 0) when it cannot be traded."""
        parts = self.game.components
        if colour == GOLD:
            if not self._has("trade_gold"):
                return 0, 0
            buy, sell = self._spec_param("trade_gold", "buy"), self._spec_param("trade_gold", "sell")
        else:
            buy, sell = parts.buy_price[colour], parts.sell_price[colour]
        if self._has("trade_discount"):  # Haggler; modifiers add up (R45c)
            buy = max(1, buy + self._spec_param("trade_discount", "buy_delta"))
            sell += self._spec_param("trade_discount", "sell_delta")
        return buy, sell

    def _trade_ids(self) -> list[int]:
        coins = self.coins[self.to_move]
        buy, sell = self.price_table
        reserve, hand, bought = self.reserve, self.hand, self.bought
        ids = [Ids.BUY + c for c in range(5) if buy[c] and reserve[c] and coins >= buy[c]]
        # a bought boat cannot be told from another of its colour: no resale of that colour (R45b)
        ids.extend(Ids.SELL + c for c in range(5) if sell[c] and hand[c] and not bought[c])
        return ids

    def _trade(self, a: int) -> list[Event]:
        seat = self.to_move
        self.trades_left -= 1
        if a < Ids.SELL:
            c = a - Ids.BUY
            price = self.price_table[0][c]
            self.coins[seat] -= price
            self.reserve[c] -= 1
            self.hand[c] += 1
            self.bought[c] += 1
            verb = "buys"
        else:
            c = a - Ids.SELL
            price = self.price_table[1][c]
            self.coins[seat] += price
            self.reserve[c] += 1  # a sold boat returns to the reserve (R45e)
            self.hand[c] -= 1
            verb = "sells"
        text = f"{self._who()} {verb} a {RESOURCES[c]} boat for {price} coin{'' if price == 1 else 's'}"
        return [Event("trade", text, {"seat": seat, "resource": RESOURCES[c], "price": price})]

    def _end_trade(self) -> list[Event]:
        """She may make fewer transactions than allowed (R45): ending early is a public choice."""
        self.trades_left = 0
        return [Event("end_trade", f"{self._who()} ends trading", {"seat": self.to_move})]

    def _take_fleet(self, number: int) -> list[Event]:
        seat = self.to_move
        self.fleet_track[self.fleet_track.index(number)] = 0
        self.turn_fleets.append(number)
        self.tile = number
        self.minus_one = self.game.power_keys[number - 1] == "build_minus_one"
        self.power_ready = not self.minus_one  # build_minus_one is part of the Build it relaxes (R41)
        hand = self.hand
        base = 5 * seat
        for c in range(5):
            hand[c] = self.harbour[base + c]
            self.harbour[base + c] = 0
        got = [0] * 5
        for c, wanted in enumerate(self.game.components.fleet[number - 1].boats):
            take = min(wanted, self.reserve[c])  # an exhausted colour gives nothing (R3)
            got[c] = take
        if self._has("bonus_boat"):
            got[BAMBOO] += 1 if self.reserve[BAMBOO] > got[BAMBOO] else 0  # Shipwright (R46)
        for c in range(5):
            hand[c] += got[c]
            self.reserve[c] -= got[c]
        self.trades_left = self._spec_param("extra_trades", "transactions") if self._has("extra_trades") else 1
        mask = self.specs[seat]
        table = self.game.price_cache.get(mask)
        if table is None:  # prices depend only on the specialists held
            prices = [self._prices(c) for c in range(5)]
            table = self.game.price_cache[mask] = (tuple(p[0] for p in prices), tuple(p[1] for p in prices))
        self.price_table = table
        self.phase = TRADE
        boats = ", ".join(f"{n} {RESOURCES[c]}" for c, n in enumerate(got) if n) or "no boats"
        return [Event("fleet", f"{self._who()} takes fleet tile {number} ({boats})", {"seat": seat, "tile": number})]
