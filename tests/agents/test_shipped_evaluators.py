"""Every evaluator a game ships still fits its game: the observation tensor it was trained on (size,
layout digest, action count) is the one the game's encoder builds today, and it judges a known
position as it did when it was trained."""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path

import pytest

import parlour
from parlour.agents.learned.evaluator import shipped
from parlour.agents.learned.weights import fit_of, load
from parlour.engine.registry import installed_games
from parlour.engine.rng import Rng
from parlour.interop.encoding import state_tensor


def _shipped_files() -> list[tuple[str, int, Path]]:
    found = []
    for name, cls in installed_games().items():
        if not cls.__module__.startswith("parlour.games."):
            continue
        folder = Path(str(resources.files(f"parlour.games.{name}")))
        for players in cls.player_counts():
            path = folder / f"evaluator_{players}p.npz"
            if path.is_file():
                found.append((name, players, path))
    return found


SHIPPED = _shipped_files()


def test_hatflings_ships_an_evaluator() -> None:
    assert ("hatflings", 2) in {(name, players) for name, players, _ in SHIPPED}


@pytest.mark.parametrize(("name", "players", "path"), SHIPPED, ids=[f"{n}-{p}p" for n, p, _ in SHIPPED])
def test_every_shipped_evaluator_fits_its_game(name: str, players: int, path: Path) -> None:
    game = parlour.load_game(name, players=players)
    weights = load(path, game)  # refuses a file whose fit differs from the game's
    assert weights.fit == fit_of(game)
    card = path.with_suffix(".json")
    if card.is_file():
        fits = json.loads(card.read_text())["fits"]
        assert fits == fit_of(game).__dict__


def _position_after(game: parlour.Game, seed: int, moves: int) -> parlour.State:
    state = game.new_state(seed=seed)
    chooser = Rng(5)
    for _ in range(moves):
        state.apply(chooser.choice(state.legal_actions()))
    return state


def test_the_hatflings_evaluator_judges_as_trained() -> None:
    game = parlour.load_game("hatflings")
    state = _position_after(game, seed=3, moves=12)
    tensors = [hashlib.sha256(state_tensor(state, seat).tobytes()).hexdigest()[:16] for seat in (0, 1)]
    assert tensors == ["6751664ec929f9e3", "876035469a4fbe25"]  # the tensor's bytes, as trained
    assert fit_of(game).layout == "1d68c7403d100b03"
    evaluator = shipped(game)
    assert evaluator is not None
    assert evaluator.values(state) == pytest.approx([-0.34495, 0.37943], abs=1e-4)
