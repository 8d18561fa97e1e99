"""Monte Carlo tree search: UCT for open games, single-observer information-set MCTS for hidden ones.

Every iteration starts from a fresh `determinize(seat, rng)` of the position: hidden parts (the
rivals' hands, the deck order) and the generator's future are re-drawn from what the searching seat
can see, so the search never peeks, not even at how the next coin toss will fall. The tree is
*open-loop*: a node is the sequence of actions that leads to it, not a position, so the same node
gathers the statistics of every determinization and every chance outcome that can follow that
sequence. In a perfect-information game without chance this is plain UCT; with hidden information
it is single-observer ISMCTS (Cowling, Powley & Whitehouse 2012), where a child's exploration term
counts the iterations in which its action was *available* rather than its parent's visits.

Values are vectors, one return per seat. Each node sums the vectors of the iterations through it,
and the seat choosing among its children reads its own component, so three- and four-player games
are searched from every mover's point of view (the max^n idea) rather than as "me against the rest".

A simulation ends at the end of the game (`returns()`), or, with `rollout=heuristic`, after
`cutoff` random moves, where the game's `heuristic(seat)` of every seat stands in for the returns.

Compound moves (a seat deciding several times in a row: a flag, then its space, then each payment
unit) can mislead a plain search, whose first visit judges an unfinished move and whose node is
worth the mean of every continuation tried, good and bad. Settings that are off by default address
this. `finish=N` takes a leaf in the middle of such a move through up to N more of the seat's own
sub-decisions greedily before judging it, and later expands that greedy continuation first.
`fpu=yes` (first-play urgency) stops a node below the root from trying every child before it may
return to the best: an untried child counts as one visit at the node's own mean, so a child doing
better than that is followed instead of trying another. `prior=N` starts each root action with N
visits at greedy's value of it.

`reveal=yes` judges each determinization as if it were open (perfect-information Monte Carlo):
after the hidden values are re-drawn the world's `reveal()` lets every seat know them, so the
heuristic reads those drawn values, and the search averages its judgements over many drawn worlds
instead of judging once by the expected value of what is unseen. Nothing real is revealed: the
world was drawn from what the searching seat sees.

Between moves the subtree under the actions played since is kept when that is sound: only in
perfect-information games (every action is public), and only if replaying those actions from
re-drawn futures of the old position always reproduces the current one (no chance outcome was
decided in between, which would make the old statistics belong to other futures).
"""

from __future__ import annotations

import math
import os
import time
from dataclasses import dataclass
from typing import Any

from parlour.agents.base import (
    Agent,
    AgentSpecError,
    Budget,
    Thought,
    check_params,
    choice_param,
    number_param,
    register_agent,
    seed_param,
)
from parlour.agents.greedy import GreedyAgent, follow_through
from parlour.engine.actions import Action
from parlour.engine.compile_hints import mypyc_attr
from parlour.engine.errors import IllegalAction
from parlour.engine.game import Game, State
from parlour.engine.rng import Rng

DEFAULTS: dict[str, Any] = {
    "c": 0.4,
    "rollout": "heuristic",
    "cutoff": 0,
    "prior": 0,
    "finish": 0,
    "fpu": False,
    "reveal": False,
    "eval": "heuristic",
    "puct": 0.0,
    "even": 0.0,
}
"""The settings a search uses when neither its spec nor the game (`Game.search_defaults`) names them."""

ITERATIONS = 1000
"""A search's budget when its spec names neither iterations nor seconds, unless a learned evaluator
judges it and its game names a count for that (`search_defaults["learned_iterations"]`)."""

REUSE_CHECKS = 3
"""Re-drawn futures a kept subtree must agree with (a coin toss that could fall either way slips
through all of them only once in 2**3 moves)."""


class Node:
    """One action sequence from the root: visit and availability counts and summed return vectors.

    `rarity` (1/sqrt(visits)) is refreshed when an iteration passes, so that choosing among many
    children needs no square root or logarithm per child. `lead`, with `finish`, is the action the
    greedy finish took from the node when it was first judged (-1: none).
    """

    __slots__ = ("avail", "children", "lead", "priors", "rarity", "totals", "visits")

    def __init__(self, players: int) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 1
        self.totals = [0.0] * players
        self.rarity = 1.0
        self.lead = -1
        self.priors: dict[int, float] | None = None


@dataclass(frozen=True)
class Choice:
    """What the search thinks of one root action: how often it was tried and its mean return."""

    action: Action
    visits: int
    value: float


@dataclass(frozen=True)
class Search:
    """The outcome of one search, for hints and reports."""

    seat: int
    iterations: int
    seconds: float
    reused: int
    choices: tuple[Choice, ...]

    @property
    def best(self) -> Choice:
        return self.choices[0]


@mypyc_attr(allow_interpreted_subclasses=True)
class MctsAgent(Agent):
    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = 1000,
        seconds: float | None = None,
        c: float | None = None,
        rollout: str | None = None,
        cutoff: int | None = None,
        reuse: bool = True,
        prior: int | None = None,
        finish: int | None = None,
        fpu: bool | None = None,
        reveal: bool | None = None,
        evaluation: str | None = None,
        puct: float | None = None,
        weights: str | None = None,
        even: float | None = None,
    ) -> None:
        self.rng = Rng(seed)
        # Neither budget given: the game's own iteration count (`_settle`), until then the general one.
        self._game_budget = iterations is None and seconds is None
        self.iterations = ITERATIONS if self._game_budget else iterations
        self.seconds = seconds
        # None: the game's own `search_defaults`, else the general ones (see `_settle`).
        self._asked = {
            "c": c,
            "rollout": rollout,
            "cutoff": cutoff,
            "prior": prior,
            "finish": finish,
            "fpu": fpu,
            "reveal": reveal,
            "eval": evaluation if weights is None else "learned",
            "puct": puct,
            "even": even,
        }
        self.weights = weights
        self._settle({})
        # The learned evaluator of the game searched (None: the game's heuristic judges leaves).
        self._evaluator: Any = None
        self.reuse = reuse
        self.last_search: Search | None = None
        self._by_availability = True
        # The kept tree: its root, a determinization of the position it was grown from, its seat.
        self._root: Node | None = None
        self._root_world: State | None = None
        self._root_seat = -1

    # --- the agent interface -----------------------------------------------------------------

    def act(self, state: State) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.search(state).best.action

    def budget(self) -> Budget:
        return Budget(self.seconds, self.iterations)

    def think(self, state: State) -> Thought:
        if len(state.legal_actions()) == 1:
            return super().think(state)  # as `act`: no search, and the kept tree stays
        return Searching(self, state)

    def search(self, state: State) -> Search:
        """Grow the tree for the seat to move within the budget and rank its legal actions."""
        searching = Searching(self, state)
        searching.grow(math.inf)
        return searching.finish()

    def _settle(self, game_defaults: dict[str, Any]) -> None:
        """The spec's settings first, then the game's, then the general defaults."""
        settled: dict[str, Any] = {
            name: asked if asked is not None else game_defaults.get(name, DEFAULTS[name])
            for name, asked in self._asked.items()
        }
        self.c: float = settled["c"]
        self.rollout: str = settled["rollout"]
        self.cutoff: int = settled["cutoff"]
        self.prior: int = settled["prior"]
        self.finish: int = settled["finish"]
        self.fpu: bool = settled["fpu"]
        self.reveal: bool = settled["reveal"]
        self.evaluation: str = settled["eval"]
        self.puct: float = settled["puct"]
        self.even: float = settled["even"]

    def _settle_budget(self, game_defaults: dict[str, Any]) -> None:
        """A spec that names no budget: a search its learned evaluator judges runs the game's
        `learned_iterations` (an iteration judged by a network costs several of the heuristic's, so
        the move costs about what the heuristic default's does), any other the general count."""
        if self._game_budget:
            learned = self._evaluator is not None
            self.iterations = int(game_defaults.get("learned_iterations", ITERATIONS)) if learned else ITERATIONS

    def _leaf_evaluator(self, game: Game) -> Any:
        """With `eval=learned`, the evaluator to judge leaves by: the `weights` file's, else the
        game's shipped one; None (the heuristic) for a game without weights or without numpy."""
        if self.evaluation != "learned":
            return None
        if self._evaluator is not None and self._evaluator.game is game:
            return self._evaluator
        try:
            from parlour.agents.learned import evaluator
        except ImportError:  # numpy is not installed: inference needs it
            return None
        if self.weights is not None:
            return evaluator.from_file(self.weights, game)
        if self._asked["eval"] is not None:
            return evaluator.shipped(game)  # asked for by the spec: weights that do not fit are an error
        # Asked for by the game's own defaults: a data set or option that changes the tensor's
        # layout leaves the shipped weights unfit, and the search judges by the heuristic instead.
        from parlour.agents.learned.weights import WeightsError

        try:
            return evaluator.shipped(game)
        except WeightsError:
            return None

    def _seed_root(self, root: Node, state: State, seat: int, players: int) -> None:
        """`prior=N`: each root action starts as N visits worth what greedy's one ply makes of it.

        Greedy judges the first part of a compound move by finishing it greedily, which the first
        few iterations of a search cannot do; the prior keeps the search from throwing away a good
        first part on the strength of a few poor continuations, until real visits outweigh it.
        Only the mover's component is filled in: the root's children are chosen by the mover alone.
        """
        legal = state.legal_actions()
        values = GreedyAgent(seed=self.rng.next64()).evaluate(state, legal)
        for action, value in zip(legal, values, strict=True):
            child = root.children[action.id] = Node(players)
            child.visits = self.prior
            child.totals[seat] = value * self.prior
            child.rarity = self.prior**-0.5

    # --- one iteration -----------------------------------------------------------------------

    def _world(self, state: State, seat: int) -> State:
        """The position one iteration searches: what `seat` sees, with the rest re-drawn.

        With `reveal`, the re-drawn values are then open to every seat, so leaves are judged in
        that world as it was drawn rather than by the expectation of what the seat cannot see.
        """
        world = state.determinize(seat, self.rng.spawn())
        if self.reveal:
            world.reveal()
        return world

    def _iterate(self, root: Node, world: State, players: int) -> None:
        c = self.c
        by_availability = self._by_availability
        fpu = self.fpu
        node = root
        path = [root]
        while not world.is_terminal():
            mover = world.current_player()
            children = node.children
            unexpanded: list[Action] | None = None
            best: Node | None = None
            best_action: Action | None = None
            best_score = -math.inf
            # UCT explores by the parent's visits; ISMCTS by how often each child was available.
            explore = c * math.sqrt(math.log(node.visits)) if node.visits else 0.0
            for action in world.legal_actions():
                child = children.get(action.id)
                if child is None:
                    if unexpanded is None:
                        unexpanded = [action]
                    else:
                        unexpanded.append(action)
                    continue
                if by_availability:
                    child.avail += 1
                    explore = c * math.sqrt(math.log(child.avail))
                if unexpanded is None or fpu:
                    rarity = child.rarity
                    score = child.totals[mover] * rarity * rarity + explore * rarity
                    if score > best_score:
                        best_score, best, best_action = score, child, action
            # With `fpu`, a node below the root tries a new child only when no child tried beats one
            # visit at the node's own mean (the root tries every action once, so that each is ranked).
            if unexpanded is not None and (
                not fpu or node is root or best is None or best_score <= self._urgency(node, mover)
            ):
                action = self._to_expand(node, unexpanded)
                child = Node(players)
                children[action.id] = child
                world.apply_legal(action)
                path.append(child)
                break
            assert best is not None and best_action is not None
            world.apply_legal(best_action)
            node = best
            path.append(best)
        if self.finish and world.current_player() == mover:
            world, path[-1].lead = follow_through(world, mover, self.finish)
        values = self._simulate(world, players)
        for visited in path:
            visits = visited.visits = visited.visits + 1
            totals = visited.totals
            for seat in range(players):
                totals[seat] += values[seat]
            visited.rarity = visits**-0.5

    def _iterate_puct(self, root: Node, world: State, players: int) -> None:
        """One iteration guided by the learned policy (PUCT, as in AlphaZero) and judged by the
        learned value: a child scores its mean plus `puct` times its prior times
        sqrt(parent visits + 1) / (1 + its visits); an untried child counts at the parent's mean.
        A node's priors are the mover's policy over the moves legal in the world that first
        reached it; a move legal only in later worlds gets an even share. With `even`, that share
        of every prior is spread evenly over the legal moves, so that a move the policy all but
        rules out is still tried (a forced win the policy does not see, for one)."""
        evaluator = self._evaluator
        puct = self.puct
        kept = 1.0 - self.even
        node = root
        path = [root]
        values: list[float] | None = None
        while not world.is_terminal():
            mover = world.current_player()
            legal = world.legal_actions()
            priors = node.priors
            if priors is None:
                priors = node.priors = evaluator.priors(world, legal)
            visits = node.visits
            scale = puct * math.sqrt(visits + 1)
            parent_mean = node.totals[mover] / visits if visits else 0.0
            even = 1.0 / len(legal)
            spread = self.even * even
            best: Node | None = None
            best_action = legal[0]
            best_score = -math.inf
            for action in legal:
                child = node.children.get(action.id)
                prior = kept * priors.get(action.id, even) + spread
                if child is None or not child.visits:
                    score = parent_mean + scale * prior
                else:
                    score = child.totals[mover] / child.visits + scale * prior / (1 + child.visits)
                if score > best_score:
                    best_score, best, best_action = score, child, action
            world.apply_legal(best_action)
            if best is None:
                best = node.children[best_action.id] = Node(players)
                path.append(best)
                if not world.is_terminal():
                    values = self._judge_leaf(best, world, mover)
                break
            node = best
            path.append(best)
        if values is None:
            values = world.returns()
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for seat in range(players):
                totals[seat] += values[seat]

    def _judge_leaf(self, leaf: Node, world: State, mover: int) -> list[float]:
        """A new leaf's values, with its priors from the same pass; with `finish`, when `mover`
        (who reached the leaf) is in the middle of a compound move, the move is first finished
        greedily and the values are read where it ends."""
        values, leaf.priors = self._evaluator.judge(world, world.legal_actions())
        if self.finish and world.current_player() == mover:
            world, _ = follow_through(world, mover, self.finish)
            if world.is_terminal():
                return world.returns()
            judged: list[float] = self._evaluator.values(world)
            return judged
        result: list[float] = values
        return result

    def _urgency(self, node: Node, mover: int) -> float:
        """With `fpu`, the score of an untried child: one visit at the node's own mean."""
        return node.totals[mover] / node.visits + self.c * math.sqrt(math.log(node.visits))

    def _to_expand(self, node: Node, unexpanded: list[Action]) -> Action:
        """The greedy finish's first step if it is untried, else an untried action at random."""
        if node.lead >= 0:
            for action in unexpanded:
                if action.id == node.lead:
                    return action
        return unexpanded[self.rng.next64() % len(unexpanded)]

    def _simulate(self, world: State, players: int) -> list[float]:
        """Random moves to the end, or `cutoff` of them and then the heuristic of every seat."""
        rng = self.rng
        limit = self.cutoff if self.rollout == "heuristic" else math.inf
        steps = 0
        while steps < limit and not world.is_terminal():
            legal = world.legal_actions()
            world.apply_legal(legal[rng.next64() % len(legal)])
            steps += 1
        if world.is_terminal():
            return world.returns()
        if self._evaluator is not None:
            judged: list[float] = self._evaluator.values(world)
            return judged
        return [world.heuristic(seat) for seat in range(players)]

    # --- choosing and explaining ---------------------------------------------------------------

    def _rank(self, root: Node, legal: list[Action], seat: int) -> tuple[Choice, ...]:
        """Legal root actions, most visited first (ties: higher value, then the seeded generator)."""
        choices = []
        for action in legal:
            child = root.children.get(action.id)
            visits = child.visits if child else 0
            value = child.totals[seat] / child.visits if child and child.visits else 0.0
            choices.append((visits, value, self.rng.random(), Choice(action, visits, value)))
        choices.sort(key=lambda entry: entry[:3], reverse=True)
        return tuple(entry[3] for entry in choices)

    # --- keeping the subtree between moves -------------------------------------------------------

    def _remember(self, root: Node, state: State, seat: int) -> None:
        if self.reuse and state.game.perfect_information:
            self._root, self._root_seat = root, seat
            self._root_world = state.determinize(seat, self.rng.spawn())

    def _kept_root(self, state: State, seat: int) -> tuple[Node | None, int]:
        """The kept node for the current position and its visits, or (None, 0) when unsound."""
        old_root, old_world = self._root, self._root_world
        self._root, self._root_world = None, None
        if old_root is None or old_world is None or seat != self._root_seat or old_world.game is not state.game:
            return None, 0
        played = len(old_world.history)
        if state.history[:played] != old_world.history:
            return None, 0
        since = state.history[played:]
        node: Node | None = old_root
        for action_id in since:
            node = node.children.get(action_id) if node else None
        if node is None or not node.visits:
            return None, 0
        target = state.view(seat)
        for _ in range(REUSE_CHECKS):
            replayed = old_world.determinize(seat, self.rng.spawn())
            try:
                for action_id in since:
                    replayed.apply(action_id)
            except IllegalAction:
                return None, 0
            if replayed.view(seat) != target:
                return None, 0
        return node, node.visits


class Searching(Thought):
    """One search in progress, grown a slice at a time; it decides once its budget is spent.

    Growing it in one slice or in many gives the same tree: the iterations are the same, drawn from
    the agent's generator in the same order; only the time budget is shared out between slices.
    """

    def __init__(self, agent: MctsAgent, state: State) -> None:
        self.agent, self.state = agent, state
        self.seat = state.current_player()
        self.players = state.game.num_players
        self.legal = state.legal_actions()
        agent._settle(state.game.search_defaults)
        agent._by_availability = not state.game.perfect_information
        agent._evaluator = agent._leaf_evaluator(state.game)
        agent._settle_budget(state.game.search_defaults)
        guided = agent._evaluator is not None and agent.puct > 0 and agent._evaluator.has_policy
        self.iterate = agent._iterate_puct if guided else agent._iterate
        root, self.reused = agent._kept_root(state, self.seat)
        if root is None:
            root = Node(self.players)
            if agent.prior:
                agent._seed_root(root, state, self.seat, self.players)
        self.root = root
        self.limit = agent.iterations if agent.iterations is not None else math.inf
        self.allowed = agent.seconds if agent.seconds is not None else math.inf
        self.done = 0
        self.elapsed = 0.0
        self.result: Search | None = None

    @property
    def spent(self) -> bool:
        return self.done >= self.limit or (self.done > 0 and self.elapsed >= self.allowed)

    def grow(self, seconds: float) -> None:
        """Iterate for about `seconds` (at least once), or until the budget is spent."""
        start = time.perf_counter()
        stop = start + min(seconds, self.allowed - self.elapsed)
        first = True
        while self.done < self.limit and (first or time.perf_counter() < stop):
            self.iterate(self.root, self.agent._world(self.state, self.seat), self.players)
            self.done += 1
            first = False
        self.elapsed += time.perf_counter() - start

    def finish(self) -> Search:
        """Rank the root's actions with the iterations so far, and keep the tree for the next move."""
        if self.result is None:
            if self.done == 0:
                self.grow(0.0)
            agent = self.agent
            agent._remember(self.root, self.state, self.seat)
            ranked = agent._rank(self.root, self.legal, self.seat)
            self.result = agent.last_search = Search(self.seat, self.done, self.elapsed, self.reused, ranked)
        return self.result

    def advance(self, seconds: float) -> Action | None:
        self.grow(seconds)
        return self.finish().best.action if self.spent else None

    def conclude(self) -> Action:
        return self.finish().best.action


@register_agent(
    "mcts",
    "Monte Carlo tree search (iterations=N or seconds=S, c=exploration, rollout=random|heuristic, cutoff=N, "
    "reuse=yes|no, prior=N, finish=N, fpu=yes|no, reveal=yes|no, eval=heuristic|learned, puct=X, even=X, "
    "weights=FILE, "
    "seed=N)",
)
def _make_mcts(params: dict[str, str], seed: int) -> Agent:
    check_params("mcts", params, {"iterations", "seconds", "reuse", "seed", "weights", *DEFAULTS})
    seconds = number_param(params, "seconds", 0.0, float) if "seconds" in params else None
    if seconds is not None and seconds <= 0:
        raise AgentSpecError(f"agent parameter seconds must be more than 0, got {params['seconds']!r}")
    # A time budget alone means no iteration limit; both given means whichever runs out first;
    # neither means ITERATIONS, or the game's own count for a search its learned evaluator judges.
    iterations = number_param(params, "iterations", None, int, minimum=1)
    weights = params.get("weights")
    if weights is not None:
        if params.get("eval", "learned") != "learned":
            raise AgentSpecError("agent parameter weights=FILE is a learned evaluator's: it needs eval=learned")
        if not os.path.isfile(weights):
            raise AgentSpecError(f"agent parameter weights: no file {weights!r}")
    return MctsAgent(
        seed=seed_param(params, seed),
        iterations=iterations,
        seconds=seconds,
        c=number_param(params, "c", None, float),
        rollout=choice_param(params, "rollout", "heuristic", ("random", "heuristic")) if "rollout" in params else None,
        cutoff=number_param(params, "cutoff", None, int),
        reuse=choice_param(params, "reuse", "yes", ("yes", "no")) == "yes",
        prior=number_param(params, "prior", None, int),
        finish=number_param(params, "finish", None, int),
        fpu=_switch(params, "fpu"),
        reveal=_switch(params, "reveal"),
        evaluation=choice_param(params, "eval", "heuristic", ("heuristic", "learned")) if "eval" in params else None,
        puct=number_param(params, "puct", None, float),
        weights=weights,
        even=_share(params, "even"),
    )


def _switch(params: dict[str, str], name: str) -> bool | None:
    """A yes/no setting; None when the spec leaves it to the game."""
    return choice_param(params, name, "no", ("yes", "no")) == "yes" if name in params else None


def _share(params: dict[str, str], name: str) -> float | None:
    """A share from 0 to 1; None when the spec leaves it to the game."""
    share: float | None = number_param(params, name, None, float)
    if share is not None and share > 1:
        raise AgentSpecError(f"agent parameter {name} must be at most 1, got {share}")
    return share
