"""The arena: tournaments between agents, their statistics and reports, locally or on Ray."""

from parlour.arena.runner import Run, run
from parlour.arena.stats import Summary, summarize, wilson
from parlour.arena.tournament import ArenaError, Tournament, plan

__all__ = ["ArenaError", "Run", "Summary", "Tournament", "plan", "run", "summarize", "wilson"]
