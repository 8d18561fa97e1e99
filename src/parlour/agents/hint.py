"""A hint for a person at the table: what the strongest bot would play, and why it thinks so.

The hint searches only what the person's seat can see (the search works on determinizations), so
asking for a hint never gives away a rival's hand or the next draw.
"""

from __future__ import annotations

from parlour.agents.mcts import MctsAgent, Search
from parlour.engine.actions import Action
from parlour.engine.errors import IllegalAction
from parlour.engine.game import State

RIVALS_SHOWN = 2
"""How many runner-up moves the explanation mentions."""


def hint(
    state: State, seconds: float = 1.0, seed: int = 0, iterations: int | None = None, max_seconds: float | None = None
) -> tuple[Action, str]:
    """The move MCTS prefers for the seat to move after `seconds` of search, and a short explanation.

    With `iterations` the search stops after that many simulations instead (a reproducible hint),
    or after `max_seconds` if that comes first (a server caps what one hint may cost).
    """
    if state.is_terminal():
        raise IllegalAction("the game is over; there is nothing left to hint")
    if seconds <= 0 or (iterations is not None and iterations < 1) or (max_seconds is not None and max_seconds <= 0):
        raise ValueError(f"a hint needs a positive budget, got {seconds} s and {iterations} iterations")
    budget = None if iterations is not None else seconds
    if max_seconds is not None:
        budget = max_seconds if budget is None else min(budget, max_seconds)
    agent = MctsAgent(seed=seed, iterations=iterations, seconds=budget, reuse=False)
    search = agent.search(state)
    return search.best.action, explain(search)


def explain(search: Search) -> str:
    """Words for a search result: the chosen move, how sure the search is, and the runners-up."""
    best = search.best
    if len(search.choices) == 1:
        return f"{best.action.label!r} is the only legal move."
    share = best.visits / max(1, sum(choice.visits for choice in search.choices))
    lines = [
        f"Hint: {best.action.label} — the search chose it in {share:.0%} of {search.iterations:,} simulations "
        f"({search.seconds:.1f} s); expected result {best.value:+.2f} (−1 a loss, +1 a win)."
    ]
    for choice in search.choices[1 : 1 + RIVALS_SHOWN]:
        if choice.visits:
            lines.append(f"  next best: {choice.action.label} (expected {choice.value:+.2f}, {choice.visits:,} visits)")
    return "\n".join(lines)
