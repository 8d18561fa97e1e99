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
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from parlour.agents.learned.weights import Weights, load
from parlour.engine.actions import Action
from parlour.engine.game import Game, State
from parlour.interop.encoding import writable, write_observation, writer_for

SPARSE_SHARE = 0.25
"""The first layer goes by a tensor's non-zero entries when at most this share of its values are
non-zero (the games' tensors are mostly zeros: a Hatflings! position sets about 36 of 929 values);
otherwise by a dense product."""


class Net:
    """The forward pass of a `Weights`: trunk (ReLU), value head (tanh), policy logits.

    The first layer is the costly one (tensor length x width), and a tensor is mostly zeros: with
    `sparse` (the default) it sums the weight rows of the non-zero entries, scaled by their values,
    instead of multiplying the whole tensor, which is the same sum without the zero terms.
    """

    def __init__(self, weights: Weights, sparse: bool = True) -> None:
        self.weights = weights
        self.trunk = weights.trunk
        self.value_w, self.value_b = weights.value
        self.policy = weights.policy
        self.sparse = sparse and bool(self.trunk)
        # The value head as one vector and its bias as a number, and the policy's columns as
        # contiguous rows with its biases as numbers: the search reads one value per seat and the
        # logits of a few moves, and a product of that size costs less than numpy's calls around it.
        self.value_vector = np.ascontiguousarray(self.value_w[:, 0])
        self.value_bias = float(self.value_b[0])
        self.policy_rows = np.ascontiguousarray(self.policy[0].T) if self.policy is not None else None
        self.policy_bias: list[float] = self.policy[1].tolist() if self.policy is not None else []

    def hidden(self, tensors: np.ndarray) -> np.ndarray:
        """The trunk's output for a batch of tensors (rows)."""
        layers = self.trunk
        if not layers:
            return tensors
        out = self._first_layer(tensors)
        np.maximum(out, 0.0, out=out)
        for matrix, bias in layers[1:]:
            out = out @ matrix
            out += bias
            np.maximum(out, 0.0, out=out)
        return out

    def _first_layer(self, tensors: np.ndarray) -> np.ndarray:
        matrix, bias = self.trunk[0]
        rows, size = tensors.shape
        flat = tensors.reshape(-1)
        where = (flat != 0).nonzero()[0] if self.sparse else None
        if where is None or where.size > SPARSE_SHARE * flat.size:
            dense: np.ndarray = tensors @ matrix + bias
            return dense
        # One small product for every row at once: a (rows x non-zeros) matrix holding each
        # non-zero value in its own row, times the weight rows of those entries.
        owner = where // size
        picked = np.zeros((rows, where.size), np.float32)
        picked[owner, np.arange(where.size)] = flat[where]
        out: np.ndarray = picked @ matrix.take(where - owner * size, 0)
        out += bias
        return out

    def value(self, tensors: np.ndarray) -> np.ndarray:
        """Each row's value in [-1, 1]."""
        return np.tanh(self.hidden(tensors) @ self.value_w + self.value_b)[:, 0]

    def values_of(self, hidden: np.ndarray) -> list[float]:
        """Each row's value from the trunk's output."""
        bias = self.value_bias
        return [math.tanh(total + bias) for total in (hidden @ self.value_vector).tolist()]

    def both(self, tensors: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        """Values and policy logits over the whole action space (None without a policy head)
        from one pass of the trunk."""
        hidden = self.hidden(tensors)
        values = np.tanh(hidden @ self.value_w + self.value_b)[:, 0]
        if self.policy is None:
            return values, None
        return values, hidden @ self.policy[0] + self.policy[1]

    def move_priors(self, hidden_row: np.ndarray, ids: list[int]) -> list[float]:
        """The policy over the actions `ids` alone (the softmax of their logits), from one row of
        the trunk's output. It is worked out in Python floats: there are as many as legal moves,
        which the search walks through one by one anyway."""
        assert self.policy_rows is not None
        bias = self.policy_bias
        products = (self.policy_rows.take(ids, 0) @ hidden_row).tolist()
        logits = [product + bias[i] for product, i in zip(products, ids, strict=True)]
        top = max(logits)
        weights = [math.exp(logit - top) for logit in logits]
        total = math.fsum(weights)
        return [weight / total for weight in weights]


class LearnedEvaluator:
    """Judges positions of one game: a value per seat, and the mover's preference over its moves.

    A search calls it once per new leaf, so its fixed costs matter more than its arithmetic: the
    seats' tensors are written into one preallocated matrix and go through the network together,
    and the policy is worked out for the mover's legal moves only.
    """

    def __init__(self, game: Game, weights: Weights) -> None:
        self.game = game
        self.net = Net(weights)
        self.players = game.num_players
        self.has_policy = weights.policy is not None
        self._tensors = np.zeros((self.players, weights.fit.tensor_size), np.float32)
        self._write = writer_for(game)
        # Each seat's row as the writable memory the game's writer sets by index.
        self._rows = [writable(self._tensors[seat]) for seat in range(self.players)]

    def _encode(self, state: State) -> np.ndarray:
        """Every seat's tensor, one row each."""
        tensors = self._tensors
        if self._write is None:
            for seat in range(self.players):
                write_observation(state, seat, tensors[seat])
            return tensors
        tensors.fill(0.0)
        for seat, row in enumerate(self._rows):
            self._write(state, seat, row)
        return tensors

    def values(self, state: State) -> list[float]:
        """Each seat's expected return as the network sees it from that seat's tensor."""
        return self.net.values_of(self.net.hidden(self._encode(state)))

    def priors(self, state: State, legal: Sequence[Action]) -> dict[int, float]:
        """The mover's prior over `legal`, read from the mover's tensor alone (empty without a
        policy head)."""
        if not self.has_policy or not legal:
            return {}
        mover = state.current_player()
        tensor = self._tensors[mover : mover + 1]
        write_observation(state, mover, tensor[0])
        return self._priors(self.net.hidden(tensor)[0], legal)

    def judge(self, state: State, legal: Sequence[Action]) -> tuple[list[float], dict[int, float]]:
        """Values of every seat, and the mover's prior over `legal` (empty without a policy head)."""
        hidden = self.net.hidden(self._encode(state))
        judged = self.net.values_of(hidden)
        if not self.has_policy or not legal:
            return judged, {}
        return judged, self._priors(hidden[state.current_player()], legal)

    def _priors(self, hidden_row: np.ndarray, legal: Sequence[Action]) -> dict[int, float]:
        ids = [action.id for action in legal]
        return dict(zip(ids, self.net.move_priors(hidden_row, ids), strict=True))


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
