"""Hanbok Runway: two designers pair style and fabric cards into hanbok sets to win six colours."""

from parlour.games.hanbok_runway.game import HanbokRunway
from parlour.games.hanbok_runway.state import HanbokRunwayState

__all__ = ["HanbokRunway", "HanbokRunwayState"]
