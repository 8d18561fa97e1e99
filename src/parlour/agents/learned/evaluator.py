"""A learned evaluator at work: numpy forward passes over a seat's observation tensor.

The network reads the seat's observation tensor and nothing else. That tensor is the game's
encoding of `view(seat)` (written straight from the position by the game's writer, which the
interop tests hold to the view-based encoder), so an evaluator can never know more than the seat.
In a search, the position judged is a determinization drawn from what the searching seat sees, so
the other seats' tensors there carry nothing real that the searching seat could not see.

Weights ship in a game's folder as `evaluator_<N>p.npz` (N players) and load on first use; a game
without such a file (a game of its own package, a player count never trained) has no learned
evaluator, and the bots fall back to the game's heuristic.
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from parlour.agents.learned.weights import Weights, load
from parlour.engine.actions import Action
from parlour.engine.game import Game, State
from parlour.interop.encoding import write_observation

SPARSE_FROM = 2000
"""Tensors at least this long go through the first layer by their non-zero entries only (Hatairo's
15,697 values are mostly zeros; a dense product would cost most of a search's time)."""


class Net:
    """The forward pass of a `Weights`: trunk (ReLU), value head (tanh), policy logits."""

    def __init__(self, weights: Weights) -> None:
        self.weights = weights
        self.trunk = weights.trunk
        self.value_w, self.value_b = weights.value
        self.policy = weights.policy
        self.sparse = weights.fit.tensor_size >= SPARSE_FROM and bool(self.trunk)

    def hidden(self, tensors: np.ndarray) -> np.ndarray:
        """The trunk's output for a batch of tensors (rows)."""
        layers = self.trunk
        if not layers:
            return tensors
        matrix, bias = layers[0]
        if self.sparse:
            out = np.empty((tensors.shape[0], bias.shape[0]), np.float32)
            for row in range(tensors.shape[0]):
                where = np.flatnonzero(tensors[row])
                out[row] = bias + tensors[row, where] @ matrix[where]
        else:
            out = tensors @ matrix + bias
        out = np.maximum(out, 0.0)
        for matrix, bias in layers[1:]:
            out = np.maximum(out @ matrix + bias, 0.0)
        return out

    def value(self, tensors: np.ndarray) -> np.ndarray:
        """Each row's value in [-1, 1]."""
        return np.tanh(self.hidden(tensors) @ self.value_w + self.value_b)[:, 0]

    def both(self, tensors: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Values and policy logits (None without a policy head) from one pass of the trunk."""
        hidden = self.hidden(tensors)
        values = np.tanh(hidden @ self.value_w + self.value_b)[:, 0]
        if self.policy is None:
            return values, None
        return values, hidden @ self.policy[0] + self.policy[1]


class LearnedEvaluator:
    """Judges positions of one game: a value per seat, and the mover's preference over its moves."""

    def __init__(self, game: Game, weights: Weights) -> None:
        self.game = game
        self.net = Net(weights)
        self.players = game.num_players
        self.has_policy = weights.policy is not None
        self._tensors = np.zeros((self.players, weights.fit.tensor_size), np.float32)

    def _encode(self, state: State) -> np.ndarray:
        tensors = self._tensors
        for seat in range(self.players):
            write_observation(state, seat, tensors[seat])
        return tensors

    def values(self, state: State) -> list[float]:
        """Each seat's expected return as the network sees it from that seat's tensor."""
        return [float(value) for value in self.net.value(self._encode(state))]

    def priors(self, state: State, legal: Sequence[Action]) -> dict[int, float]:
        """The mover's prior over `legal`, read from the mover's tensor alone (empty without a
        policy head)."""
        if not self.has_policy or not legal:
            return {}
        mover = state.current_player()
        tensor = self._tensors[mover : mover + 1]
        write_observation(state, mover, tensor[0])
        _, logits = self.net.both(tensor)
        assert logits is not None
        return _softmax(logits[0], legal)

    def judge(self, state: State, legal: Sequence[Action]) -> tuple[list[float], dict[int, float]]:
        """Values of every seat, and the mover's prior over `legal` (empty without a policy head)."""
        values, logits = self.net.both(self._encode(state))
        judged = [float(value) for value in values]
        if logits is None or not legal:
            return judged, {}
        return judged, _softmax(logits[state.current_player()], legal)


def _softmax(logits: np.ndarray, legal: Sequence[Action]) -> dict[int, float]:
    ids = [action.id for action in legal]
    chosen = logits[ids].astype(np.float64)
    chosen = np.exp(chosen - chosen.max())
    total = float(chosen.sum())
    return {action_id: float(weight) / total for action_id, weight in zip(ids, chosen, strict=True)}


def weights_name(players: int) -> str:
    return f"evaluator_{players}p.npz"


def shipped_path(game: Game) -> Path | None:
    """Where the game's folder keeps weights for its player count, or None if it has none."""
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        candidate = importlib.resources.files(package) / weights_name(game.num_players)
    except (ModuleNotFoundError, TypeError):
        return None
    path = Path(str(candidate))
    return path if path.is_file() else None


_LOADED: dict[tuple[str, int, str], LearnedEvaluator | None] = {}


def shipped(game: Game) -> LearnedEvaluator | None:
    """The game's shipped evaluator, loaded once per game and player count; None without weights.

    Options that change the tensor's layout (or size) make shipped weights refuse to load, and
    that is an error rather than a quiet fallback: the weights exist but do not fit.
    """
    path = shipped_path(game)
    key = (type(game).__module__, game.num_players, str(path))
    if key not in _LOADED:
        _LOADED[key] = LearnedEvaluator(game, load(path, game)) if path is not None else None
    evaluator = _LOADED[key]
    if evaluator is not None and evaluator.game is not game:
        return LearnedEvaluator(game, evaluator.net.weights)
    return evaluator


def from_file(path: str | Path, game: Game) -> LearnedEvaluator:
    return LearnedEvaluator(game, load(path, game))
