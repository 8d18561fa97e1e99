"""Hatflings! (Meridiano 6, 2016): two captains and their halflings in the hat dance, on a 6×6 floor."""

from parlour.games.hatflings.game import Hatflings
from parlour.games.hatflings.state import HatflingsState

__all__ = ["Hatflings", "HatflingsState"]
