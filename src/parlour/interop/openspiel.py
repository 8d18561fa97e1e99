"""OpenSpiel adapter: every parlour game as a pyspiel game.

    from parlour.interop import openspiel
    game = openspiel.load("hatflings")            # or pyspiel.load_game("parlour_hatflings")

Games are registered under `parlour_<name>` with their options as game parameters (plus `seed`,
the seed of the first game; each further `new_initial_state()` takes the next seed). Chance is
*sampled stochastic*: it happens inside `apply_action` from the state's own seeded generator, as in
the engine, so there are no chance nodes. Observation strings are the seat's view as canonical
JSON; observation tensors are computed from that view; the information-state string is the
sequence of the seat's views since the start, so it has perfect recall and reveals nothing more.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from parlour.engine.errors import IllegalAction
from parlour.engine.game import TERMINAL, Game
from parlour.engine.game import State as EngineState
from parlour.engine.registry import game_class, game_classes
from parlour.interop.encoding import observation_size, observation_tensor

PREFIX = "parlour_"
# Upper bounds on the number of decisions in one game, for OpenSpiel's GameInfo. Each game's own
# loop guard or end trigger bounds its length; these leave room for every sub-decision.
MAX_GAME_LENGTH = {"hatflings": 2000, "hanbok_runway": 4000, "hatairo": 6000, "yamatai": 8000}


def _parameter_specification(cls: type[Game]) -> dict[str, Any]:
    spec = {option.name: option.default for option in cls.options_spec}
    spec["seed"] = 0
    return spec


def _game_type(cls: type[Game]) -> pyspiel.GameType:
    counts = cls.player_counts()
    perfect = cls.perfect_information
    two_player = max(counts) == 2
    return pyspiel.GameType(
        short_name=PREFIX + cls.name,
        long_name=f"parlour {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if perfect
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        # Returns are +1 / -1, or 0 each on a draw: zero-sum with two players, general-sum beyond.
        utility=pyspiel.GameType.Utility.ZERO_SUM if two_player else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_specification(cls),
    )


class ParlourGame(pyspiel.Game):
    """A parlour game seen through OpenSpiel."""

    engine_class: type[Game]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.first_seed = int(params.pop("seed", 0))
        self.engine = self.engine_class(**params)
        self.next_seed = self.first_seed
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_actions,
            max_chance_outcomes=0,
            num_players=self.engine.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if max(self.engine_class.player_counts()) == 2 else None,
            max_game_length=MAX_GAME_LENGTH.get(self.engine.name, 10_000),
        )
        super().__init__(_game_type(self.engine_class), info, {**params, "seed": self.first_seed})
        self.tensor_size = observation_size(self.engine)

    def new_initial_state(self) -> ParlourState:
        seed, self.next_seed = self.next_seed, self.next_seed + 1
        return ParlourState(self, self.engine.new_state(seed=seed))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ParlourObserver:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return ParlourObserver(self, perfect_recall)


class ParlourState(pyspiel.State):
    """Wraps one engine state; every call goes straight to the engine protocol."""

    def __init__(self, game: ParlourGame, engine_state: EngineState, recall: Recall | None = None) -> None:
        super().__init__(game)
        self.engine_state = engine_state
        self.recall = recall if recall is not None else Recall(engine_state)

    def current_player(self) -> int:
        player = self.engine_state.current_player()
        return pyspiel.PlayerId.TERMINAL if player == TERMINAL else player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.engine_state.current_player():
            return []
        return sorted(action.id for action in self.engine_state.legal_actions())

    def _apply_action(self, action: int) -> None:
        try:
            self.engine_state.apply(int(action))
        except IllegalAction as error:
            # OpenSpiel refuses an illegal move with an error, leaving the state as it was.
            raise pyspiel.SpielError(f"illegal action {action}: {error}") from None
        self.recall.observe(self.engine_state)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.engine_state.game.actions[action].label)

    def is_terminal(self) -> bool:
        return self.engine_state.is_terminal()

    def returns(self) -> list[float]:
        return [float(value) for value in self.engine_state.returns()]

    def __str__(self) -> str:
        return self.engine_state.render(None)

    def __deepcopy__(self, memo: Any) -> ParlourState:
        return self.clone()

    def clone(self) -> ParlourState:
        return ParlourState(self.get_game(), self.engine_state.clone(), self.recall.copy())


def _view_text(state: EngineState, seat: int) -> str:
    return json.dumps(state.view(seat), sort_keys=True)


class Recall:
    """Each seat's views since the start of the game: its perfect-recall information state."""

    def __init__(self, state: EngineState | None = None) -> None:
        self.views: list[list[str]] = []
        if state is not None:
            self.views = [[_view_text(state, seat)] for seat in range(state.game.num_players)]

    def observe(self, state: EngineState) -> None:
        for seat, views in enumerate(self.views):
            views.append(_view_text(state, seat))

    def copy(self) -> Recall:
        twin = Recall()
        twin.views = [views.copy() for views in self.views]
        return twin

    def __deepcopy__(self, memo: Any) -> Recall:
        # The strings never change, so copying the lists is enough (and far cheaper than deepcopy).
        return self.copy()


class ParlourObserver:
    """OpenSpiel's observer interface over `view(seat)`."""

    def __init__(self, game: ParlourGame, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.tensor_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ParlourState, player: int) -> None:
        engine_state = state.engine_state
        self.tensor[:] = observation_tensor(engine_state.game, engine_state.view(player), player)

    def string_from(self, state: ParlourState, player: int) -> str:
        if self.perfect_recall:
            return "\n".join(state.recall.views[player])
        return _view_text(state.engine_state, player)


def register_all() -> list[str]:
    """Register every parlour game with pyspiel (idempotent); returns the short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for name, cls in game_classes().items():
        short = PREFIX + name
        if short not in registered:
            game_cls = type(f"OpenSpiel{cls.__name__}", (ParlourGame,), {"engine_class": cls})
            pyspiel.register_game(_game_type(cls), game_cls)
        names.append(short)
    return names


def load(name: str, **options: Any) -> pyspiel.Game:
    """The parlour game `name` as a pyspiel game, with its options as parameters."""
    register_all()
    cls = game_class(name)
    cls(**{key: value for key, value in options.items() if key != "seed"})  # InvalidOption for bad options
    return pyspiel.load_game(PREFIX + cls.name, options)
