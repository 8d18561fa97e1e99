"""Fitting an evaluator with JAX and optax, on the CPU (the `train` extra).

The network is the one `parlour.agents.learned` runs with numpy: a trunk of dense ReLU layers, a
tanh value head trained on the seat's final return (squared error), and a policy head trained on
the move the seat made (cross-entropy, rows of seats that did not move left out). Training keeps
the parameters that did best on the validation rows, which come from games the training never saw.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np
import optax

from parlour.agents.learned.weights import Fit, Weights
from parlour.train.positions import NO_MOVE, Positions

Params = dict[str, Any]


@dataclass(frozen=True)
class Plan:
    """How to fit: layer widths, steps and time, batch size, learning rate, policy weight, seed."""

    hidden: tuple[int, ...] = (128, 64)
    steps: int = 20_000
    seconds: float = 600.0
    batch: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    policy_weight: float = 0.5
    check_every: int = 200
    seed: int = 0


@dataclass
class Outcome:
    weights: Weights
    steps: int
    seconds: float
    best_step: int
    validation: dict[str, float]  # at the kept parameters: value MSE, policy cross-entropy
    untrained: dict[str, float]  # the same measures before the first step
    history: list[dict[str, float]] = field(default_factory=list)


def library() -> str:
    """The learning library and its version, for the card."""
    return f"jax {jax.__version__}, optax {optax.__version__}"


def init(fit: Fit, hidden: tuple[int, ...], seed: int, policy: bool = True) -> Params:
    """He-initialised layers; the heads start at zero, so an untrained net says 0 and uniform."""
    key = jax.random.PRNGKey(seed)
    params: Params = {"trunk": []}
    width = fit.tensor_size
    for size in hidden:
        key, sub = jax.random.split(key)
        matrix = jax.random.normal(sub, (width, size), jnp.float32) * jnp.sqrt(2.0 / width)
        params["trunk"].append((matrix, jnp.zeros(size, jnp.float32)))
        width = size
    params["value"] = (jnp.zeros((width, 1), jnp.float32), jnp.zeros(1, jnp.float32))
    if policy:
        params["policy"] = (jnp.zeros((width, fit.num_actions), jnp.float32), jnp.zeros(fit.num_actions, jnp.float32))
    return params


def forward(params: Params, tensors: jax.Array) -> tuple[jax.Array, jax.Array | None]:
    """Values in [-1, 1] and policy logits (None without a policy head), as the numpy net computes."""
    hidden = tensors
    for matrix, bias in params["trunk"]:
        hidden = jax.nn.relu(hidden @ matrix + bias)
    values = jnp.tanh(hidden @ params["value"][0] + params["value"][1])[:, 0]
    if "policy" not in params:
        return values, None
    return values, hidden @ params["policy"][0] + params["policy"][1]


def losses(params: Params, tensors: jax.Array, returns: jax.Array, moves: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Value MSE, and the mean cross-entropy over the rows with a move (0 without a policy head)."""
    values, logits = forward(params, tensors)
    value_loss = jnp.mean((values - returns) ** 2)
    if logits is None:
        return value_loss, jnp.zeros(())
    moved = moves != NO_MOVE
    picked = jnp.take_along_axis(jax.nn.log_softmax(logits), jnp.maximum(moves, 0)[:, None], axis=1)[:, 0]
    policy_loss = -jnp.sum(jnp.where(moved, picked, 0.0)) / jnp.maximum(jnp.sum(moved), 1)
    return value_loss, policy_loss


def to_weights(params: Params, fit: Fit) -> Weights:
    def host(layer: tuple[jax.Array, jax.Array]) -> tuple[np.ndarray, np.ndarray]:
        return np.asarray(layer[0], np.float32), np.asarray(layer[1], np.float32)

    policy = host(params["policy"]) if "policy" in params else None
    return Weights(fit, [host(layer) for layer in params["trunk"]], host(params["value"]), policy)


def measure(params: Params, rows: Positions, chunk: int = 2048) -> dict[str, float]:
    """Value MSE and policy cross-entropy over all of `rows` (by chunks, to bound memory)."""
    value_sum = policy_sum = 0.0
    moved = 0
    for start in range(0, len(rows), chunk):
        tensors = jnp.asarray(rows.tensors[start : start + chunk], jnp.float32)
        returns = jnp.asarray(rows.returns[start : start + chunk])
        moves = jnp.asarray(rows.moves[start : start + chunk])
        value_loss, policy_loss = _losses(params, tensors, returns, moves)
        count = int(returns.shape[0])
        with_move = int(np.sum(rows.moves[start : start + chunk] != NO_MOVE))
        value_sum += float(value_loss) * count
        policy_sum += float(policy_loss) * with_move
        moved += with_move
    return {"value_mse": value_sum / max(1, len(rows)), "policy_xent": policy_sum / max(1, moved)}


_losses = jax.jit(losses)


def train(
    train_rows: Positions,
    validation: Positions,
    fit: Fit,
    plan: Plan,
    progress: Callable[[int, dict[str, float]], None] | None = None,
) -> Outcome:
    """Fit by Adam with weight decay on minibatches, within the plan's steps and seconds."""
    if len(train_rows) == 0 or len(validation) == 0:
        raise ValueError("no positions to train on: play more games (or keep more positions of each)")
    params = init(fit, plan.hidden, plan.seed)
    optimiser = optax.adamw(plan.learning_rate, weight_decay=plan.weight_decay)
    state = optimiser.init(params)

    def total(params: Params, tensors: jax.Array, returns: jax.Array, moves: jax.Array) -> jax.Array:
        value_loss, policy_loss = losses(params, tensors, returns, moves)
        return value_loss + plan.policy_weight * policy_loss

    @jax.jit
    def step(params: Params, state: Any, tensors: jax.Array, returns: jax.Array, moves: jax.Array) -> Any:
        grads = jax.grad(total)(params, tensors, returns, moves)
        updates, state = optimiser.update(grads, state, params)
        return optax.apply_updates(params, updates), state

    untrained = measure(params, validation)
    best, best_score, best_step = params, _score(untrained, plan), 0
    history = [{"step": 0.0, **untrained}]
    order = np.random.default_rng(plan.seed)
    started = time.perf_counter()
    done = 0
    while done < plan.steps and time.perf_counter() - started < plan.seconds:
        rows = order.integers(0, len(train_rows), plan.batch)
        params, state = step(
            params,
            state,
            jnp.asarray(train_rows.tensors[rows], jnp.float32),
            jnp.asarray(train_rows.returns[rows]),
            jnp.asarray(train_rows.moves[rows]),
        )
        done += 1
        if done % plan.check_every == 0 or done == plan.steps:
            measured = measure(params, validation)
            history.append({"step": float(done), **measured})
            if progress:
                progress(done, measured)
            if _score(measured, plan) < best_score:
                best, best_score, best_step = params, _score(measured, plan), done
    final = measure(best, validation)
    return Outcome(to_weights(best, fit), done, time.perf_counter() - started, best_step, final, untrained, history)


def _score(measured: dict[str, float], plan: Plan) -> float:
    """What the kept parameters are chosen by: the value's error, since the value judges every leaf
    of a search (the policy only orders its first visits). On games' positions, which are many
    but alike within a game, the value head overfits long before the policy stops improving."""
    return measured["value_mse"]
