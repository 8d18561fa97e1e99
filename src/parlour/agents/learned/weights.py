"""The file a learned evaluator lives in: one .npz of float32 arrays and a description of what it fits.

A weights file is a small multilayer perceptron: a trunk of dense layers with ReLU, a value head
(tanh, one number: the seat's expected return) and, optionally, a policy head (one logit per action
of the game's action space). Its `meta` entry says which game, player count and observation layout
it was trained on; `load` refuses a file whose description does not match the game it is asked
for, because a network fed a tensor of another layout still returns numbers, just meaningless ones.

Only numpy is needed here; training (`parlour.train`) writes these files.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from parlour.engine.errors import InvalidOption
from parlour.engine.game import Game

FORMAT = "parlour-evaluator/1"


class WeightsError(InvalidOption):
    """A weights file that is unreadable, malformed, or made for another game or layout."""


@dataclass(frozen=True)
class Fit:
    """What a weights file was made for: checked against the game before it is used."""

    game: str
    players: int
    tensor_size: int
    num_actions: int
    layout: str  # a digest of the observation tensor's named blocks

    def describe(self) -> str:
        return f"{self.game} with {self.players} players (tensor of {self.tensor_size}, layout {self.layout})"


def fit_of(game: Game) -> Fit:
    """What a weights file for this game must have been made for."""
    from parlour.interop.encoding import layout, observation_size

    blocks = [(block.name, block.offset, block.size) for block in layout(game)]
    digest = hashlib.sha256(json.dumps(blocks).encode()).hexdigest()[:16]
    return Fit(game.name, game.num_players, observation_size(game), game.num_actions, digest)


@dataclass
class Weights:
    """The arrays of one network and what it fits. `trunk` holds (W, b) per hidden layer."""

    fit: Fit
    trunk: list[tuple[np.ndarray, np.ndarray]]
    value: tuple[np.ndarray, np.ndarray]
    policy: tuple[np.ndarray, np.ndarray] | None

    @property
    def hidden(self) -> list[int]:
        return [int(bias.shape[0]) for _, bias in self.trunk]

    def arrays(self) -> dict[str, np.ndarray]:
        named: dict[str, np.ndarray] = {}
        for index, (matrix, bias) in enumerate(self.trunk):
            named[f"trunk{index}_w"], named[f"trunk{index}_b"] = matrix, bias
        named["value_w"], named["value_b"] = self.value
        if self.policy is not None:
            named["policy_w"], named["policy_b"] = self.policy
        return {name: np.asarray(array, np.float32) for name, array in named.items()}


def save(weights: Weights, path: str | Path) -> Path:
    """Write the weights (compressed) with their description; returns the path written."""
    path = Path(path)
    meta: dict[str, Any] = {"format": FORMAT, **weights.fit.__dict__, "hidden": weights.hidden}
    with path.open("wb") as handle:
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(meta)), **weights.arrays()}
        np.savez_compressed(handle, **arrays)
    return path


def load(path: str | Path, game: Game) -> Weights:
    """The weights in `path`, checked to fit `game`; a WeightsError says what does not."""
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as archive:
            arrays = {name: np.asarray(archive[name]) for name in archive.files}
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise WeightsError(f"{path} is not a readable weights file ({error})") from None
    if "meta" not in arrays:
        raise WeightsError(f"{path} is not a parlour evaluator (it has no description)")
    try:
        meta = json.loads(str(arrays.pop("meta")))
        if meta.get("format") != FORMAT:
            raise WeightsError(f"{path} is in format {meta.get('format')!r}; this parlour reads {FORMAT}")
        made_for = Fit(
            str(meta["game"]),
            int(meta["players"]),
            int(meta["tensor_size"]),
            int(meta["num_actions"]),
            str(meta["layout"]),
        )
    except (KeyError, TypeError, ValueError, json.JSONDecodeError) as error:
        if isinstance(error, WeightsError):
            raise
        raise WeightsError(f"{path} has a malformed description ({error})") from None
    wanted = fit_of(game)
    if made_for != wanted:
        raise WeightsError(
            f"{path} was trained for {made_for.describe()}, not for {wanted.describe()}; "
            "train one for this game with `parlour train`"
        )
    return _assemble(path, arrays, made_for)


def _assemble(path: Path, arrays: dict[str, np.ndarray], fit: Fit) -> Weights:
    """The arrays as layers, with every shape checked against the one before."""
    trunk: list[tuple[np.ndarray, np.ndarray]] = []
    width = fit.tensor_size
    while f"trunk{len(trunk)}_w" in arrays:
        layer = _layer(path, arrays, f"trunk{len(trunk)}", width, None)
        trunk.append(layer)
        width = layer[1].shape[0]
    value = _layer(path, arrays, "value", width, 1)
    policy = _layer(path, arrays, "policy", width, fit.num_actions) if "policy_w" in arrays else None
    return Weights(fit, trunk, value, policy)


def _layer(
    path: Path, arrays: dict[str, np.ndarray], name: str, inputs: int, outputs: int | None
) -> tuple[np.ndarray, np.ndarray]:
    matrix, bias = arrays.get(f"{name}_w"), arrays.get(f"{name}_b")
    if matrix is None or bias is None or matrix.ndim != 2 or bias.ndim != 1:
        raise WeightsError(f"{path}: layer {name} is missing or not a matrix and a bias")
    if (
        matrix.shape[0] != inputs
        or matrix.shape[1] != bias.shape[0]
        or (outputs is not None and bias.shape[0] != outputs)
    ):
        expected = f"{inputs} x {outputs if outputs is not None else 'n'}"
        raise WeightsError(f"{path}: layer {name} is {matrix.shape[0]} x {matrix.shape[1]}, expected {expected}")
    if not (np.all(np.isfinite(matrix)) and np.all(np.isfinite(bias))):
        raise WeightsError(f"{path}: layer {name} holds values that are not finite numbers")
    return matrix.astype(np.float32), bias.astype(np.float32)
