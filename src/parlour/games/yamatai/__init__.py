"""Yamataï: draft fleets, chain boats through the archipelago, build the capital, recruit specialists."""

from parlour.games.yamatai.rules import Yamatai, YamataiState

GAME = Yamatai

__all__ = ["GAME", "Yamatai", "YamataiState"]
