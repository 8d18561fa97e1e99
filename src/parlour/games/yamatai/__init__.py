"""Yamataï: draft fleets, chain boats through the archipelago, build the capital, recruit specialists."""

from parlour.games.yamatai.game import Yamatai
from parlour.games.yamatai.state import YamataiState

__all__ = ["Yamatai", "YamataiState"]
