"""The greedy agent: one ply of lookahead on the game's own `heuristic`.

For each legal action it applies the action to a few determinizations of the position (hidden
parts and the generator's future re-drawn from what its seat can see), so it never peeks at a
face-down card or at how a coin toss will fall, and averages the heuristic of the result for the
seat that moved. When the same seat still has to decide afterwards (a compound decision split into
sub-decisions, such as a pig's destination after a landing), it follows through greedily for up to
`follow` more sub-decisions before evaluating, so that the first part of a compound move is judged by
what it leads to rather than by an unfinished position. Equal values are broken by its seeded
generator.
"""

from __future__ import annotations

import time

from parlour.agents.base import Agent, Budget, Thought, check_params, number_param, register_agent, seed_param
from parlour.engine.actions import Action
from parlour.engine.compile_hints import mypyc_attr
from parlour.engine.game import State
from parlour.engine.rng import Rng

TIE = 1e-9
"""Values closer than this count as equal and are broken at random."""


@mypyc_attr(allow_interpreted_subclasses=True)
class GreedyAgent(Agent):
    def __init__(self, seed: int = 0, samples: int = 2, follow: int = 2) -> None:
        self.rng = Rng(seed)
        self.samples = samples
        self.follow = follow

    def act(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        sampling = Sampling(self, state, legal)
        sampling.sample(self.samples)
        return sampling.choose()

    def budget(self) -> Budget:
        return Budget(iterations=self.samples)

    def think(self, state: State) -> Thought:
        legal = state.legal_actions()
        return super().think(state) if len(legal) == 1 else Sampling(self, state, legal)

    def evaluate(self, state: State, legal: list[Action]) -> list[float]:
        """The mean heuristic value, for the seat to move, of each legal action."""
        sampling = Sampling(self, state, legal)
        sampling.sample(self.samples)
        return sampling.values()

    def _follow_through(self, state: State, seat: int) -> float:
        """The value after `seat` finishes its own pending sub-decisions greedily (at most `follow`)."""
        return outcome(follow_through(state, seat, self.follow)[0], seat)


class Sampling(Thought):
    """Greedy's judgement of every legal action, summed over determinizations one at a time, so
    that it can be worked out in slices (and cut short, deciding on the samples taken)."""

    def __init__(self, agent: GreedyAgent, state: State, legal: list[Action]) -> None:
        self.agent, self.state, self.legal = agent, state, legal
        self.seat = state.current_player()
        self.totals = [0.0] * len(legal)
        self.done = 0

    def sample(self, count: int) -> None:
        for _ in range(count):
            world = self.state.determinize(self.seat, self.agent.rng.spawn())
            for index, action in enumerate(self.legal):
                after = world.clone()
                after.apply_legal(action)
                self.totals[index] += self.agent._follow_through(after, self.seat)
            self.done += 1

    def values(self) -> list[float]:
        return [total / self.done for total in self.totals]

    def choose(self) -> Action:
        values = self.values()
        best = max(values)
        tied = [action for action, value in zip(self.legal, values, strict=True) if value >= best - TIE]
        return self.agent.rng.choice(tied)

    def advance(self, seconds: float) -> Action | None:
        stop = time.perf_counter() + seconds
        self.sample(1)
        while self.done < self.agent.samples and time.perf_counter() < stop:
            self.sample(1)
        return self.choose() if self.done >= self.agent.samples else None

    def conclude(self) -> Action:
        if self.done == 0:
            self.sample(1)
        return self.choose()


def follow_through(state: State, seat: int, follow: int) -> tuple[State, int]:
    """The position after `seat` takes up to `follow` of its own pending sub-decisions greedily,
    and the id of the first action taken (-1 if none).

    Each step keeps the first action whose result the heuristic rates best for `seat`; the state
    given is not changed (every candidate is tried on a clone).
    """
    first = -1
    for _ in range(follow):
        if state.current_player() != seat:
            break
        best_value, best_state, best_id = -2.0, state, -1
        for action in state.legal_actions():
            after = state.clone()
            after.apply_legal(action)
            value = outcome(after, seat)
            if value > best_value + TIE:
                best_value, best_state, best_id = value, after, action.id
        state = best_state
        if first < 0:
            first = best_id
    return state, first


def outcome(state: State, seat: int) -> float:
    """The seat's return if the game is over, else the game's heuristic estimate."""
    if state.is_terminal():
        return state.returns()[seat]
    return state.heuristic(seat)


@register_agent("greedy", "one ply of lookahead on the game's heuristic (samples=N determinizations, follow=N, seed=N)")
def _make_greedy(params: dict[str, str], seed: int) -> Agent:
    check_params("greedy", params, {"samples", "follow", "seed"})
    samples = number_param(params, "samples", 2, int, minimum=1)
    follow = number_param(params, "follow", 2, int, minimum=0)
    return GreedyAgent(seed_param(params, seed), samples, follow)
