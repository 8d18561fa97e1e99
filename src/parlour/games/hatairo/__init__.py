"""Hatairo: paint flags of the world into your gallery (1-4 players, beginner's game, motif and
drafting variants, solo mode)."""

from parlour.games.hatairo.game import Hatairo
from parlour.games.hatairo.state import HatairoState

__all__ = ["Hatairo", "HatairoState"]
