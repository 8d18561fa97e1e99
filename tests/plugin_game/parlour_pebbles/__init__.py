"""Pebbles: take one to three pebbles from the heap; whoever takes the last one wins (or, in the
misère variant, loses). A game of its own distribution, with no board module of its own."""

from parlour_pebbles.game import Pebbles, PebblesState

__all__ = ["Pebbles", "PebblesState"]
