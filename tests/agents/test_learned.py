"""Learned evaluators: the weights file and its checks, the numpy forward pass against JAX's, a
tiny training run that must improve, and the search using an evaluator without peeking."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import parlour
from parlour.agents import AgentSpecError, make_agent
from parlour.agents.learned import evaluator as learned
from parlour.agents.learned.weights import Fit, Weights, WeightsError, fit_of, load, save
from parlour.agents.mcts import MctsAgent
from parlour.engine import Rng, State
from parlour.engine.game import Game
from parlour.interop.encoding import state_tensor

from .test_real_games import midgame


def random_weights(fit: Fit, hidden: tuple[int, ...] = (16, 8), seed: int = 0, policy: bool = True) -> Weights:
    """A network of random weights (heads included), enough to tell a forward pass apart."""
    rng = np.random.default_rng(seed)
    trunk, width = [], fit.tensor_size
    for size in hidden:
        trunk.append(
            (rng.normal(0, 0.3, (width, size)).astype(np.float32), rng.normal(0, 0.1, size).astype(np.float32))
        )
        width = size
    value = (rng.normal(0, 0.5, (width, 1)).astype(np.float32), rng.normal(0, 0.1, 1).astype(np.float32))
    heads = (rng.normal(0, 0.5, (width, fit.num_actions)).astype(np.float32), np.zeros(fit.num_actions, np.float32))
    return Weights(fit, trunk, value, heads if policy else None)


def weights_file(tmp_path: Path, game: Game, name: str = "w.npz", **kwargs: object) -> Path:
    return save(random_weights(fit_of(game), **kwargs), tmp_path / name)  # type: ignore[arg-type]


# --- the file and its checks -----------------------------------------------------------------------


def test_weights_round_trip(tmp_path: Path) -> None:
    game = parlour.load_game("hatflings")
    written = random_weights(fit_of(game))
    read = load(save(written, tmp_path / "w.npz"), game)
    assert read.fit == written.fit and read.hidden == [16, 8]
    for (a, b), (c, d) in zip(read.trunk, written.trunk, strict=True):
        assert np.array_equal(a, c) and np.array_equal(b, d)


def test_weights_for_another_game_are_refused(tmp_path: Path) -> None:
    path = weights_file(tmp_path, parlour.load_game("hatflings"))
    with pytest.raises(WeightsError, match=r"trained for hatflings with 2 players .* not for yamatai with 2 players"):
        load(path, parlour.load_game("yamatai", players=2))


def test_weights_for_another_player_count_are_refused(tmp_path: Path) -> None:
    path = weights_file(tmp_path, parlour.load_game("yamatai", players=3))
    with pytest.raises(WeightsError, match=r"yamatai with 3 players .* not for yamatai with 4 players"):
        load(path, parlour.load_game("yamatai", players=4))


def test_weights_for_another_layout_are_refused(tmp_path: Path) -> None:
    game = parlour.load_game("hatflings")
    fit = fit_of(game)
    moved = Fit(fit.game, fit.players, fit.tensor_size, fit.num_actions, "0123456789abcdef")
    path = save(random_weights(moved), tmp_path / "w.npz")
    with pytest.raises(WeightsError, match="layout 0123456789abcdef"):
        load(path, game)


def test_files_that_are_not_weights_are_refused(tmp_path: Path) -> None:
    game = parlour.load_game("hatflings")
    text = tmp_path / "notes.npz"
    text.write_text("not a zip")
    with pytest.raises(WeightsError, match="not a readable weights file"):
        load(text, game)
    bare = tmp_path / "bare.npz"
    np.savez(bare, x=np.zeros(3))
    with pytest.raises(WeightsError, match="no description"):
        load(bare, game)
    with pytest.raises(WeightsError, match="not a readable weights file"):
        load(tmp_path / "missing.npz", game)


def test_a_layer_of_the_wrong_shape_is_refused(tmp_path: Path) -> None:
    game = parlour.load_game("hatflings")
    weights = random_weights(fit_of(game))
    weights.trunk[1] = (np.zeros((15, 8), np.float32), np.zeros(8, np.float32))
    with pytest.raises(WeightsError, match="layer trunk1 is 15 x 8, expected 16 x n"):
        load(save(weights, tmp_path / "w.npz"), game)


# --- the forward pass ----------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "players"), [("hatflings", 2), ("hatairo", 3)])
@pytest.mark.parametrize("sparse", [True, False])
def test_the_numpy_forward_pass_equals_jaxs(name: str, players: int, sparse: bool) -> None:
    jnp = pytest.importorskip("jax.numpy")
    from parlour.train.fit import forward

    game = parlour.load_game(name, players=players)
    weights = random_weights(fit_of(game), hidden=(32, 16), seed=3)
    net = learned.Net(weights, sparse=sparse)
    state = midgame(name, players, 4, 15)
    evaluator = learned.LearnedEvaluator(game, weights)
    tensors = evaluator._encode(state).copy()
    params = {
        "trunk": [(jnp.asarray(w), jnp.asarray(b)) for w, b in weights.trunk],
        "value": tuple(map(jnp.asarray, weights.value)),
        "policy": tuple(map(jnp.asarray, weights.policy)),
    }  # type: ignore[arg-type]
    values, logits = forward(params, jnp.asarray(tensors))
    ours_values, ours_logits = net.both(tensors)
    assert np.abs(np.asarray(values) - ours_values).max() < 1e-5
    assert ours_logits is not None and np.abs(np.asarray(logits) - ours_logits).max() < 1e-5
    assert np.abs(ours_values).max() > 1e-3  # the comparison is of real numbers, not of zeros


@pytest.mark.parametrize(("name", "players"), [("hatflings", 2), ("hatairo", 3), ("yamatai", 4)])
def test_the_sparse_first_layer_equals_the_dense_one(name: str, players: int) -> None:
    game = parlour.load_game(name, players=players)
    weights = random_weights(fit_of(game), hidden=(32, 16), seed=4)
    sparse, dense = learned.Net(weights), learned.Net(weights, sparse=False)
    tensors = learned.LearnedEvaluator(game, weights)._encode(midgame(name, players, 2, 11)).copy()
    assert 0 < np.count_nonzero(tensors) < learned.SPARSE_SHARE * tensors.size  # the sparse path is taken
    tensors[-1] = 0.0  # a row without a non-zero entry is only its bias
    assert np.abs(sparse.hidden(tensors) - dense.hidden(tensors)).max() < 1e-5
    assert np.abs(sparse.value(tensors) - dense.value(tensors)).max() < 1e-5
    # A mostly non-zero batch goes through the dense product, with the same result.
    full = np.random.default_rng(0).uniform(0.1, 1.0, tensors.shape).astype(np.float32)
    assert np.abs(sparse.hidden(full) - dense.hidden(full)).max() < 1e-4


def test_the_batched_judgement_equals_each_seat_judged_alone() -> None:
    """`judge` runs every seat's tensor through the network together and the policy over the legal
    moves only; the same numbers come from each seat's tensor alone and the whole action space."""
    game = parlour.load_game("hatflings")
    weights = random_weights(fit_of(game), hidden=(32, 16), seed=5)
    evaluator = learned.LearnedEvaluator(game, weights)
    dense = learned.Net(weights, sparse=False)
    for seed, moves in ((1, 4), (2, 9), (3, 17)):
        state = midgame("hatflings", 2, seed, moves)
        legal = state.legal_actions()
        values, priors = evaluator.judge(state, legal)
        alone = [state_tensor(state, seat)[None, :] for seat in range(2)]
        assert values == pytest.approx([float(dense.value(tensor)[0]) for tensor in alone], abs=1e-5)
        _, logits = dense.both(alone[state.current_player()])
        assert logits is not None
        ids = [action.id for action in legal]
        chosen = np.exp(logits[0, ids].astype(np.float64) - logits[0, ids].max())
        expected = dict(zip(ids, (chosen / chosen.sum()).tolist(), strict=True))
        assert priors == pytest.approx(expected, abs=1e-5)
        assert evaluator.priors(state, legal) == pytest.approx(expected, abs=1e-5)
        assert evaluator.values(state) == pytest.approx(values, abs=1e-6)


def test_priors_cover_exactly_the_legal_moves() -> None:
    game = parlour.load_game("hatflings")
    evaluator = learned.LearnedEvaluator(game, random_weights(fit_of(game)))
    state = midgame("hatflings", 2, 5, 9)
    values, priors = evaluator.judge(state, state.legal_actions())
    assert len(values) == 2 and all(-1 <= value <= 1 for value in values)
    assert set(priors) == {action.id for action in state.legal_actions()}
    assert sum(priors.values()) == pytest.approx(1.0)


# --- training --------------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_tiny_training_run_improves_the_evaluator(tmp_path: Path) -> None:
    pytest.importorskip("jax")
    from parlour.train import fit as fitting
    from parlour.train.positions import play_games, positions_of

    game = parlour.load_game("hatflings")
    records = play_games("hatflings", dict(game.options), ("greedy", "random"), 24, 5, tmp_path / "g", 1, "local")
    assert len(records) == 24
    rows = positions_of(records, game, 0.5, 1, 100_000)
    training, validation = rows.split(0.2)
    assert len(training) and len(validation)
    assert not set(training.games.tolist()) & set(validation.games.tolist())
    plan = fitting.Plan(hidden=(32,), steps=200, seconds=120, check_every=50, seed=2)
    outcome = fitting.train(training, validation, fit_of(game), plan)
    # The untrained net says 0 for every position: its error is the mean squared return.
    assert outcome.untrained["value_mse"] == pytest.approx(float((validation.returns**2).mean()), abs=1e-4)
    assert outcome.validation["value_mse"] < 0.85 * outcome.untrained["value_mse"]
    # The kept parameters are chosen by the value; the policy learned too along the way.
    assert min(entry["policy_xent"] for entry in outcome.history) < outcome.untrained["policy_xent"]
    # What was written runs with numpy and judges like the fitted parameters did.
    path = save(outcome.weights, tmp_path / "evaluator_2p.npz")
    net = learned.from_file(path, game).net
    assert np.isfinite(net.value(validation.tensors[:8].astype(np.float32))).all()


# --- searching with it -----------------------------------------------------------------------------


def test_a_game_without_weights_falls_back_to_its_heuristic(tmp_path: Path) -> None:
    game = parlour.load_game("yamatai", players=4)
    if learned.shipped_path(game) is not None:
        pytest.skip("yamatai ships 4-player weights")
    assert learned.shipped(game) is None
    state = midgame("yamatai", 4, 2, 12)
    plain = MctsAgent(seed=3, iterations=60, reuse=False).search(state)
    learned_spec = make_agent("mcts:iterations=60,eval=learned,reuse=no", 3)
    assert isinstance(learned_spec, MctsAgent)
    assert learned_spec.search(state).choices == plain.choices


def test_the_plugin_shaped_game_without_an_encoder_falls_back() -> None:
    # Nim (a test game) has no observation encoder and no weights: the search runs on its heuristic.
    from ..engine.nim import Nim

    game = Nim()
    assert learned.shipped(game) is None
    state = game.new_state(seed=1)
    agent = make_agent("mcts:iterations=50,eval=learned", 1)
    assert state.legal_actions().count(agent.act(state)) == 1


@pytest.mark.parametrize("puct", ["0", "1.5"])
def test_a_search_on_learned_values_cannot_tell_twins_apart(tmp_path: Path, puct: str) -> None:
    game = parlour.load_game("hanbok_runway")
    path = weights_file(tmp_path, game)
    state = midgame("hanbok_runway", 2, 2, 20)
    seat = state.current_player()
    twin = state.determinize(seat, Rng(7))
    assert twin.view(seat) == state.view(seat) and twin.value != state.value  # type: ignore[attr-defined]
    spec = f"mcts:iterations=120,reuse=no,puct={puct},weights={path}"
    searches = [make_agent(spec, 4).search(position) for position in (state, twin)]  # type: ignore[attr-defined]
    assert searches[0].choices == searches[1].choices


def favouring_one_move(tmp_path: Path) -> tuple[Path, State, int]:
    """A Hatflings! position and a weights file whose policy strongly favours one of its moves and
    whose value is 0 everywhere."""
    weights = random_weights(fit_of(parlour.load_game("hatflings")), hidden=(8,), seed=1)
    state = midgame("hatflings", 2, 1, 6)
    favoured = state.legal_actions()[-1].id
    policy_w, policy_b = weights.policy  # type: ignore[misc]
    policy_w[:] = 0.0
    policy_b[favoured] = 8.0
    weights.value[0][:] = 0.0
    weights.value[1][:] = 0.0
    return save(weights, tmp_path / "w.npz"), state, favoured


def test_priors_steer_the_search(tmp_path: Path) -> None:
    """With PUCT the visits follow the policy: a net that favours one move makes it the most visited."""
    path, state, favoured = favouring_one_move(tmp_path)
    agent = make_agent(f"mcts:iterations=100,puct=2,reuse=no,weights={path}", 1)
    assert agent.act(state).id == favoured


def test_weights_in_a_spec_are_checked(tmp_path: Path) -> None:
    with pytest.raises(AgentSpecError, match="no file"):
        make_agent(f"mcts:weights={tmp_path / 'none.npz'}")
    path = weights_file(tmp_path, parlour.load_game("hatflings"))
    with pytest.raises(AgentSpecError, match="needs eval=learned"):
        make_agent(f"mcts:eval=heuristic,weights={path}")
    with pytest.raises(AgentSpecError, match="eval must be one of heuristic, learned"):
        make_agent("mcts:eval=neural")
    state: State = midgame("yamatai", 2, 1, 3)
    with pytest.raises(WeightsError, match="trained for hatflings"):
        make_agent(f"mcts:iterations=10,weights={path}").act(state)


def test_shipped_weights_fit_their_games_and_are_package_data() -> None:
    import tomllib

    from parlour.engine.registry import game_classes

    patterns = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "*.npz" in patterns["package-data"]["*"]  # wheels and the compiled build carry them
    shipped = 0
    for cls in game_classes().values():
        for players in cls.player_counts():
            game = cls(players=players)
            path = learned.shipped_path(game)
            if path is None:
                continue
            shipped += 1
            evaluator = learned.shipped(game)
            assert evaluator is not None and evaluator.game is game
            assert path.with_suffix(".json").is_file()  # its card
            assert path.stat().st_size < 4 * 2**20
    assert shipped >= 1
    assert learned.shipped(parlour.load_game("hatflings")) is not None


def test_lambda_returns_mix_the_heuristic_of_what_follows_with_the_return() -> None:
    from parlour.train.positions import lambda_returns

    judged = [[0.0, 0.0], [0.5, -0.5], [0.2, -0.2]]  # the heuristic at positions 0, 1, 2 (3 is the end)
    final = [1.0, -1.0]
    targets = lambda_returns(judged, final, 0.5)
    assert targets[3] == final
    assert targets[2] == pytest.approx([0.5 * 1 + 0.5 * 1, -1.0])  # the end's "heuristic" is its return
    assert targets[1] == pytest.approx([0.5 * 0.2 + 0.5 * 1.0, -(0.5 * 0.2 + 0.5 * 1.0)])
    assert targets[0][0] == pytest.approx(0.5 * 0.5 + 0.5 * targets[1][0])
    assert lambda_returns(judged, final, 1.0)[:3] == [final] * 3


def test_an_even_share_of_the_priors_levels_them(tmp_path: Path) -> None:
    """`even=1` spreads every prior evenly: a policy favouring one move no longer steers the visits."""
    path, state, favoured = favouring_one_move(tmp_path)
    steered = make_agent(f"mcts:iterations=100,puct=2,reuse=no,weights={path}", 1)
    assert isinstance(steered, MctsAgent) and steered.search(state).best.action.id == favoured
    levelled = make_agent(f"mcts:iterations=100,puct=2,even=1,reuse=no,weights={path}", 1)
    assert isinstance(levelled, MctsAgent)
    visits = [choice.visits for choice in levelled.search(state).choices]
    assert max(visits) - min(visits) <= 1  # every value is 0 and every prior the same: turn by turn


@pytest.mark.parametrize("share", ["1.5", "-0.1", "most"])
def test_an_even_share_outside_0_to_1_is_refused(share: str) -> None:
    with pytest.raises(AgentSpecError, match="agent parameter even must"):
        make_agent(f"mcts:eval=learned,puct=1,even={share}")


def test_hatflings_searches_with_its_learned_evaluator_by_default() -> None:
    state = midgame("hatflings", 2, 3, 8)
    default = MctsAgent(seed=2, iterations=80, reuse=False).search(state).choices
    spelled = make_agent("mcts:iterations=80,reuse=no,eval=learned,puct=1,even=0.25", 2)
    heuristic = make_agent("mcts:iterations=80,reuse=no,eval=heuristic", 2)
    assert isinstance(spelled, MctsAgent) and isinstance(heuristic, MctsAgent)
    assert spelled.search(state).choices == default
    assert heuristic.search(state).choices != default


def test_unfit_shipped_weights_fall_back_only_where_the_game_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A data set that changes the tensor's layout leaves a game's default learned search on the
    heuristic; a spec that asks for eval=learned is told the weights do not fit."""

    def unfit(game: Game) -> None:
        raise WeightsError("evaluator_2p.npz was trained for hatflings with 2 players (...), not for ...")

    monkeypatch.setattr(learned, "shipped", unfit)
    state = midgame("hatflings", 2, 3, 8)
    default = MctsAgent(seed=2, iterations=60, reuse=False).search(state).choices
    heuristic = make_agent("mcts:iterations=60,reuse=no,eval=heuristic", 2)
    assert isinstance(heuristic, MctsAgent) and heuristic.search(state).choices == default
    with pytest.raises(WeightsError, match="was trained for hatflings"):
        make_agent("mcts:iterations=60,reuse=no,eval=learned", 2).act(state)
