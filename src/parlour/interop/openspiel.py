"""OpenSpiel adapter: every parlour game as a pyspiel game.

    import pyspiel
    import parlour.interop.openspiel            # registers parlour_<game> for every game
    game = pyspiel.load_game("parlour_hatflings(players=2,seed=3)")

Importing this module registers each game as `parlour_<name>`, its options as game parameters
(a text option's commas written as `;`, since OpenSpiel's game strings separate parameters with
commas), plus `seed` and `chance_outcomes`.

**Chance is explicit.** The engine draws its randomness from the state's seeded generator inside
`apply`. Seen through OpenSpiel that would be a generator every clone inherits, so a search would
know every future barrel toss and draw. Instead the adapter makes chance nodes:

- the game starts with *the deal*: `deal_nodes` chance nodes in a row (11 at the default 64
  outcomes), whose outcomes together with the `seed` parameter are mixed into the engine game's
  seed. They span at least 2**64 outcome sequences, so every seed the engine can take (63 bits) is
  reachable and no two episodes share a deal by chance, where a single node would give only as
  many deals as it has outcomes;
- when a player's action would draw from the generator (found by seeing whether the generator
  moved when it was applied; see below), the action is held and a chance node follows: outcome k
  re-seeds the generator from the game's seed, the number of chance nodes so far and k, then the
  held action resolves with that generator.

Every chance node has `chance_outcomes` (default 64) equally likely outcomes. The outcome is a
seed, not a die face: the game's own rules turn it into tosses, shuffles and draws, so the game's
distributions hold up to that granularity (a larger `chance_outcomes` follows them more closely,
at the cost of wider chance nodes for algorithms that expand them). Cards dealt face down at the
start are part of the deal: a clone of a position holds them, as any OpenSpiel game's state holds
the hidden cards; search that must not see them uses `resample_from_infostate` (ISMCTS).

Finding whether an action draws costs no copy: the action is applied, and only when the generator
moved is the position before it rebuilt, from a checkpoint (taken every `CHECKPOINT_EVERY` engine
steps and shared by clones) and the few steps since.

States are copied by OpenSpiel's own `clone` (it keeps `history()` and `move_number()`), and
serialised by it (`pyspiel.serialize_game_and_state`, pickle). A game pickles (and deep-copies) as
its game string, loaded again on the other side, so worker processes get a whole game.
`undone()` gives the position before the last action by replaying the state's record.

**Information state.** A seat's string is its view, a digest chained step by step over everything
it was shown since the deal (so it depends on the history alone), and the action it chose that
awaits chance. Its tensor (`information_state_tensor`) is the observation tensor followed by two
blocks of one value per action id: how often the seat chose each action so far, and the one it
chose that awaits chance. Both blocks are read from the same record the digest covers, so equal
strings give equal tensors.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from parlour.engine.actions import Action
from parlour.engine.errors import IllegalAction, InvalidOption
from parlour.engine.game import TERMINAL, Game
from parlour.engine.game import State as EngineState
from parlour.engine.registry import game_class, game_classes
from parlour.engine.rng import Rng
from parlour.interop.encoding import (
    has_encoder,
    observation_size,
    observation_tensor,
    state_tensor,
    write_observation,
)

PREFIX = "parlour_"
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL_PLAYER = int(pyspiel.PlayerId.TERMINAL)
CHANCE_OUTCOMES = 64
"""Outcomes of every chance node unless the `chance_outcomes` parameter says otherwise."""
MAX_CHANCE_OUTCOMES = 1 << 16
DEAL_SPAN = 1 << 64
"""The deal's chance nodes together have at least this many outcome sequences."""
# Upper bounds on the number of decisions in one game, for OpenSpiel's GameInfo. Each game's own
# loop guard or end trigger bounds its length; these leave room for every sub-decision.
# OpenSpiel's game strings separate parameters with commas, so a text option's commas travel as this.
LIST_SEPARATOR = ";"


def _to_parameter(value: Any) -> Any:
    return value.replace(",", LIST_SEPARATOR) if isinstance(value, str) else value


def _from_parameter(value: Any) -> Any:
    return value.replace(LIST_SEPARATOR, ",") if isinstance(value, str) else value


def _parameter_specification(cls: type[Game]) -> dict[str, Any]:
    spec = {option.name: _to_parameter(option.default) for option in cls.options_spec}
    spec["seed"] = 0
    spec["chance_outcomes"] = CHANCE_OUTCOMES
    return spec


def deal_nodes(chance_outcomes: int) -> int:
    """How many chance nodes make the deal: the fewest whose outcome sequences reach `DEAL_SPAN`."""
    nodes, span = 1, chance_outcomes
    while span < DEAL_SPAN:
        nodes, span = nodes + 1, span * chance_outcomes
    return nodes


def _game_type(cls: type[Game]) -> pyspiel.GameType:
    counts = cls.player_counts()
    return pyspiel.GameType(
        short_name=PREFIX + cls.name,
        long_name=f"parlour {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(
            pyspiel.GameType.Information.PERFECT_INFORMATION
            if cls.perfect_information
            else pyspiel.GameType.Information.IMPERFECT_INFORMATION
        ),
        # Returns are +1 / -1, or 0 each on a draw: zero-sum with two players, general-sum beyond
        # (and a solo game's return is its own).
        utility=pyspiel.GameType.Utility.ZERO_SUM if max(counts) == 2 else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        # The information-state tensor extends the observation tensor, so it needs an encoder too.
        provides_information_state_tensor=has_encoder(cls),
        provides_observation_string=True,
        # A game published on its own may carry no encoder: then it offers strings only.
        provides_observation_tensor=has_encoder(cls),
        parameter_specification=_parameter_specification(cls),
    )


def _mix(*parts: int) -> int:
    """A 64-bit seed from several integers, the same on every platform."""
    rng = Rng(0)
    for part in parts:
        rng = Rng(rng.next64() ^ (part & ((1 << 64) - 1)))
    return rng.next64()


def _loaded(game_string: str) -> pyspiel.Game:
    """A game from its string, every parlour game registered first (for unpickling)."""
    register_all()
    return pyspiel.load_game(game_string)


class ParlourGame(pyspiel.Game):
    """A parlour game seen through OpenSpiel."""

    engine_class: type[Game]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.seed = int(params.pop("seed", 0))
        self.chance_outcomes = int(params.pop("chance_outcomes", CHANCE_OUTCOMES))
        if not 2 <= self.chance_outcomes <= MAX_CHANCE_OUTCOMES:
            raise pyspiel.SpielError(f"chance_outcomes must be 2..{MAX_CHANCE_OUTCOMES}, got {self.chance_outcomes}")
        # OpenSpiel fills in every parameter not given with its registered default; leaving those out
        # lets the game choose, so a data folder's defaults (Hanbok Runway's turn limit) apply.
        defaults = _parameter_specification(self.engine_class)
        given = {key: value for key, value in params.items() if key not in defaults or value != defaults[key]}
        try:
            self.engine = self.engine_class(**{key: _from_parameter(value) for key, value in given.items()})
        except InvalidOption as error:
            raise pyspiel.SpielError(str(error)) from None
        counts = self.engine_class.player_counts()
        max_length = self.engine.max_game_length
        self.deal_nodes = deal_nodes(self.chance_outcomes)
        self.max_chance_nodes = max_length + self.deal_nodes  # the deal, and at most one per decision
        info = pyspiel.GameInfo(
            num_distinct_actions=self.engine.num_actions,
            max_chance_outcomes=self.chance_outcomes,
            num_players=self.engine.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if max(counts) == 2 else None,
            max_game_length=max_length,
        )
        parameters = {**{key: _to_parameter(value) for key, value in params.items()}, "seed": self.seed}
        parameters["chance_outcomes"] = self.chance_outcomes
        super().__init__(_game_type(self.engine_class), info, parameters)
        self.tensor_size = observation_size(self.engine) if has_encoder(self.engine) else 0
        # the observation, then per action id: the seat's own choices so far, the one awaiting chance
        self.information_size = self.tensor_size + 2 * self.engine.num_actions if self.tensor_size else 0

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        # pyspiel's own pickling rebuilds only the C++ half, leaving a game without its Python
        # attributes (an AttributeError on the first move in a worker process): load it by name.
        return (_loaded, (str(self),))

    def new_initial_state(self) -> ParlourState:
        return ParlourState(self)

    def max_chance_nodes_in_history(self) -> int:
        return self.max_chance_nodes

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ParlourObserver:
        if iig_obs_type is None:
            return ParlourObserver(self, recall=False, private=pyspiel.PrivateInfoType.SINGLE_PLAYER)
        if iig_obs_type.perfect_recall and iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise pyspiel.SpielError("a perfect-recall observer is offered only for a single player's information")
        return ParlourObserver(self, recall=iig_obs_type.perfect_recall, private=iig_obs_type.private_info)


CHECKPOINT_EVERY = 16
"""Engine steps between two checkpoints: rebuilding the position before an action that drew
replays at most this many."""
RESEED = -1
"""Entries of `ParlourState.since` at or below this are re-seedings: RESEED - seed."""


class Checkpoint:
    """A copy of an engine position that is never changed again, so clones share it."""

    __slots__ = ("state",)

    def __init__(self, state: EngineState) -> None:
        self.state = state

    def __deepcopy__(self, memo: Any) -> Checkpoint:
        return self


class LegalIds:
    """The ids `legal_actions()` last listed for this position (OpenSpiel asks before applying),
    so applying one needs no second look at the engine's list. Copies start empty."""

    __slots__ = ("ids",)

    def __init__(self) -> None:
        self.ids: list[int] | None = None  # short lists: a look-up is cheaper than making a set

    def __deepcopy__(self, memo: Any) -> LegalIds:
        return LegalIds()

    def __reduce__(self) -> tuple[type[LegalIds], tuple[()]]:
        return (LegalIds, ())


class Trail:
    """What happened since the deal: every OpenSpiel action (chance outcomes too) for replaying,
    and per decision its mover, action and events, from which a seat's information is read."""

    __slots__ = ("actions", "steps", "replayable", "digests")

    def __init__(self) -> None:
        self.actions: list[int] = []
        self.steps: list[tuple[int, int, list[Any]]] = []
        self.replayable = True
        # Per seat, (steps digested, digest so far): extended as the information state is asked for.
        self.digests: dict[int, tuple[int, str]] = {}

    def copy(self) -> Trail:
        twin = Trail.__new__(Trail)
        twin.actions = self.actions.copy()
        twin.steps = self.steps.copy()  # the entries never change, so they are shared
        twin.replayable = self.replayable
        twin.digests = dict(self.digests)
        return twin

    def __deepcopy__(self, memo: Any) -> Trail:
        return self.copy()

    def digest(self, seat: int) -> str:
        """A digest of everything `seat` was shown since the deal: its own moves and the events it
        could see (the others' moves as their events show them).

        Chained step by step (each step's digest covers the one before and that step), so the
        digest kept for the steps already seen extends to the same value as one computed from the
        start: the string depends on the history alone, never on when it was asked for."""
        done, digest = self.digests.get(seat, (0, ""))
        if done == len(self.steps):
            return digest
        for mover, action, events in self.steps[done:]:
            seen = [event.to_json() for event in events if event.visible_to(seat)]
            step = json.dumps([mover, action if mover == seat else None, seen], default=str)
            digest = hashlib.sha256(f"{digest}\n{step}".encode()).hexdigest()
        self.digests[seat] = (len(self.steps), digest)
        return digest

    def own_actions(self, seat: int, out: np.ndarray) -> None:
        """Adds 1 to `out[action]` for each action `seat` chose since the deal."""
        for mover, action, _ in self.steps:
            if mover == seat:
                out[action] += 1.0


class ParlourState(pyspiel.State):
    """One position: the engine state (None before the deal), and a held action awaiting chance."""

    def __init__(self, game: ParlourGame) -> None:
        super().__init__(game)
        self.engine_state: EngineState | None = None
        self.deal: list[int] = []  # the deal's outcomes so far, until the engine game starts
        self.held: int | None = None
        self.chance_nodes = 0
        self.trail = Trail()
        # An earlier position and the engine steps since, to rebuild the position before an action
        # that turned out to draw (rarely needed, so cheaper than a clone before every action).
        self.checkpoint: Checkpoint | None = None
        self.since: list[int] = []
        self.legal = LegalIds()
        self.mover = CHANCE

    # --- whose turn, what is legal -----------------------------------------------------------

    def current_player(self) -> int:
        return self.mover

    # OpenSpiel's own `legal_actions` and `is_chance_node` go from Python into C++ and back into
    # this class (a list turned into a C++ vector and back for the legal actions), about as long
    # as a whole step of a compiled game. Python callers (OpenSpiel's Python algorithms, a
    # researcher's loop) get the same answers here directly; C++ callers still reach
    # `_legal_actions` and `current_player`.

    def legal_actions(self, player: int | None = None) -> list[int]:
        mover = self.mover  # the same answers as OpenSpiel's, case by case:
        if mover == CHANCE:  # the outcomes, whoever asks
            return [outcome for outcome, _ in self.chance_outcomes()]
        if mover == TERMINAL_PLAYER:
            return []
        if player is None or player == mover:
            return list(self._legal_actions(mover))  # a copy: the held list decides what is legal
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        return self.mover == CHANCE

    def _whose_turn(self) -> int:
        """Who decides now (OpenSpiel asks several times per step, so `mover` keeps the answer)."""
        if self.engine_state is None or self.held is not None:
            return CHANCE
        player = self.engine_state.current_player()
        return TERMINAL_PLAYER if player == TERMINAL else player

    def _legal_actions(self, player: int) -> list[int]:
        engine_state = self.engine_state
        assert engine_state is not None
        if player != self.mover:
            return []
        ids = [action.id for action in engine_state.legal_actions()]
        ids.sort()  # OpenSpiel lists legal actions in ascending order
        self.legal.ids = ids
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        count = self.get_game().chance_outcomes
        return [(outcome, 1.0 / count) for outcome in range(count)]

    def is_terminal(self) -> bool:
        return self.mover == TERMINAL_PLAYER

    def returns(self) -> list[float]:
        if self.engine_state is None:
            return [0.0] * self.get_game().num_players()
        return [float(value) for value in self.engine_state.returns()]

    # --- moving on -------------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        if self.held is None and self.engine_state is not None:
            self._decide(self.engine_state, action)  # the common case first: a player's decision
            self.trail.actions.append(action)
            self.mover = self._whose_turn()
            return
        game: ParlourGame = self.get_game()
        action = int(action)
        if self.engine_state is None:
            self._check_outcome(action, game)
            self.deal.append(action)
            if len(self.deal) == game.deal_nodes:
                self.engine_state = game.engine.new_state(seed=_mix(game.seed, *self.deal) >> 1)
                self._checkpoint()
        elif self.held is not None:
            self._check_outcome(action, game)
            self.legal.ids = None
            self.chance_nodes += 1
            seed = _mix(self.engine_state.seed, self.chance_nodes, action)
            self.since.append(RESEED - seed)
            self._reseed(self.engine_state, seed)
            held, self.held = self.held, None
            self._step(held)
        self.trail.actions.append(action)
        self.mover = self._whose_turn()

    def _decide(self, engine_state: EngineState, action: int) -> None:
        """A player's action: resolved at once, or held for a chance node if it draws."""
        known, self.legal.ids = self.legal.ids, None
        if known is not None and action in known:
            chosen = engine_state.game.actions[action]
        else:
            chosen = self._legal_choice(engine_state, int(action))
        rng = getattr(engine_state, "rng", None)
        drawn_from = rng.state if isinstance(rng, Rng) else None
        mover = self.mover
        events = engine_state.apply_legal(chosen)
        if drawn_from is not None:
            after = getattr(engine_state, "rng", None)
            if not isinstance(after, Rng) or after.state != drawn_from:
                # It drew: its outcome is chance's to decide. Rebuild the position before it.
                self.engine_state = self._rebuilt()
                self.held = chosen.id
                return
        self._record(mover, chosen.id, events)

    def _step(self, action: int) -> None:
        engine_state = self.engine_state
        assert engine_state is not None
        mover = engine_state.current_player()
        self._record(mover, action, engine_state.apply_legal(engine_state.game.actions[action]))

    def _record(self, mover: int, action: int, events: list[Any]) -> None:
        self.trail.steps.append((mover, action, events))
        self.since.append(action)
        if len(self.since) >= CHECKPOINT_EVERY:
            self._checkpoint()

    def _checkpoint(self) -> None:
        assert self.engine_state is not None
        self.checkpoint = Checkpoint(self.engine_state.clone())
        self.since = []

    def _rebuilt(self) -> EngineState:
        """The position after the steps since the checkpoint, replayed on a copy of it."""
        assert self.checkpoint is not None
        engine_state = self.checkpoint.state.clone()
        for step in self.since:
            if step <= RESEED:
                self._reseed(engine_state, RESEED - step)
            else:
                engine_state.apply_legal(engine_state.game.actions[step])
        return engine_state

    @staticmethod
    def _reseed(engine_state: EngineState, seed: int) -> None:
        engine_state.rng = Rng(seed)  # type: ignore[attr-defined]

    @staticmethod
    def _legal_choice(engine_state: EngineState, action: int) -> Action:
        """The engine's action `action`, if legal now; OpenSpiel's error, changing nothing, if not."""
        try:
            chosen = engine_state.game.action(action)
            if engine_state.is_terminal():
                raise IllegalAction(f"the game is over; {chosen.label!r} cannot be played")
            if not engine_state.is_legal(chosen):
                raise IllegalAction(engine_state.why_illegal(chosen))
        except IllegalAction as error:
            raise pyspiel.SpielError(f"illegal action {action}: {error}") from None
        return chosen

    @staticmethod
    def _check_outcome(outcome: int, game: ParlourGame) -> None:
        if not 0 <= outcome < game.chance_outcomes:
            raise pyspiel.SpielError(f"illegal chance outcome {outcome} (outcomes are 0..{game.chance_outcomes - 1})")

    # --- text ------------------------------------------------------------------------------------

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}" if self.engine_state is None else f"chance outcome {action}"
        return str(self.get_game().engine.actions[action].label)

    def __str__(self) -> str:
        if self.engine_state is None:
            return f"before the deal ({len(self.deal)} of its {self.get_game().deal_nodes} chance outcomes drawn)"
        text = self.engine_state.render(None)
        if self.held is not None:
            text += f"\n(awaiting chance for {self.get_game().engine.actions[self.held].label})"
        return text

    # --- search helpers --------------------------------------------------------------------------

    def undone(self) -> ParlourState:
        """The position before the last action, replayed from this state's record."""
        if not self.trail.actions:
            raise pyspiel.SpielError("nothing to undo: this is the initial state")
        if not self.trail.replayable:
            raise pyspiel.SpielError("a resampled state has no record of its own to replay")
        state = self.get_game().new_initial_state()
        for action in self.trail.actions[:-1]:
            state.apply_action(action)
        return state

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> ParlourState:
        """A position `player_id` cannot tell from this one, its hidden cards and the generator's
        future drawn afresh (the engine's `determinize`); for OpenSpiel's ISMCTS."""
        if self.engine_state is None:
            return self.clone()
        draw = probability_sampler() if callable(probability_sampler) else np.random.random()
        seed = int(float(draw) * (1 << 53)) ^ len(self.trail.actions)
        twin = self.clone()
        twin.engine_state = self.engine_state.determinize(int(player_id), Rng(seed))
        twin.mover = twin._whose_turn()
        twin._checkpoint()
        twin.trail = self.trail.copy()
        twin.trail.replayable = False
        return twin

    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        """The default observation of `player` (the player to move if not given) as a new float32
        array. pyspiel's own path would turn the tensor into a list of Python floats (15,697 of
        them in Hatairo) and, to learn its length, build an initial state on every call; this
        gives the same values (those of the default observer) without either."""
        game: ParlourGame = self.get_game()
        if game.tensor_size == 0:
            raise pyspiel.SpielError(f"{game.engine.name} carries no encoder, so it has no tensor; use the string")
        seat = self.mover if player is None else int(player)
        if not 0 <= seat < game.engine.num_players:
            raise pyspiel.SpielError(f"observation_tensor: player must be 0..{game.engine.num_players - 1}, got {seat}")
        if self.engine_state is None:
            return np.zeros(game.tensor_size, np.float32)
        return state_tensor(self.engine_state, seat)

    def information_state_tensor(self, player: int | None = None) -> np.ndarray:
        """The seat's information-state tensor (the player to move if not given) as a new float32
        array, the values pyspiel's own path reads from the perfect-recall observer."""
        game: ParlourGame = self.get_game()
        if game.information_size == 0:
            raise pyspiel.SpielError(f"{game.engine.name} carries no encoder, so it has no tensor; use the string")
        seat = self.mover if player is None else int(player)
        if not 0 <= seat < game.engine.num_players:
            raise pyspiel.SpielError(
                f"information_state_tensor: player must be 0..{game.engine.num_players - 1}, got {seat}"
            )
        tensor = np.zeros(game.information_size, np.float32)
        self.write_information(seat, tensor)
        return tensor

    def write_information(self, seat: int, out: np.ndarray) -> None:
        """The information-state tensor of `seat` written into `out` (zeros, of its length)."""
        engine_state = self.engine_state
        if engine_state is None:
            return  # before the deal nobody knows anything
        game: ParlourGame = self.get_game()
        size, actions = game.tensor_size, game.engine.num_actions
        write_observation(engine_state, seat, out[:size])
        self.trail.own_actions(seat, out[size : size + actions])
        held = self.held_by(seat)
        if held is not None:
            out[size + actions + held] = 1.0

    def held_by(self, seat: int) -> int | None:
        """The action `seat` chose that awaits chance, if any."""
        assert self.engine_state is not None
        return self.held if self.held is not None and self.engine_state.current_player() == seat else None

    def information(self, seat: int) -> str:
        """The seat's perfect-recall information: its view, a digest of all it was shown, and the
        action it chose that awaits chance."""
        assert self.engine_state is not None
        held = self.held_by(seat)
        view = json.dumps(self.engine_state.view(seat), sort_keys=True)
        return f"{view}\nseen {self.trail.digest(seat)}" + (f"\nchose {held}" if held is not None else "")


class ParlourObserver:
    """OpenSpiel's observer over the engine's views.

    - single player (the default observation): `view(seat)`;
    - public (`private_info=NONE`): the spectator's `view(None)`, laid out from `seat`'s side;
    - all players: every seat's view, from `seat` round the table;
    - perfect recall (the information state): see `ParlourState.information` for the string and
      `ParlourState.write_information` for the tensor.
    """

    def __init__(self, game: ParlourGame, recall: bool, private: Any) -> None:
        self.game = game
        self.recall = recall
        self.private = private
        seats = game.num_players() if private == pyspiel.PrivateInfoType.ALL_PLAYERS else 1
        size = game.information_size if recall else game.tensor_size * seats
        self.tensor: np.ndarray | None = np.zeros(size, np.float32) if game.tensor_size > 0 else None
        self.dict: dict[str, np.ndarray] = {}
        if self.tensor is not None and recall:
            observation, actions = game.tensor_size, game.engine.num_actions
            self.dict["observation"] = self.tensor[:observation]
            self.dict["own_actions"] = self.tensor[observation : observation + actions]
            self.dict["awaiting_chance"] = self.tensor[observation + actions :]
        elif self.tensor is not None:
            self.dict["observation"] = self.tensor

    def _views(self, engine_state: EngineState, player: int) -> list[tuple[dict[str, Any], int]]:
        if self.private == pyspiel.PrivateInfoType.NONE:
            return [(engine_state.view(None), player)]
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            count = engine_state.game.num_players
            seats = [(player + offset) % count for offset in range(count)]
            return [(engine_state.view(seat), seat) for seat in seats]
        return [(engine_state.view(player), player)]

    def set_from(self, state: ParlourState, player: int) -> None:
        if self.tensor is None:
            raise pyspiel.SpielError(f"{self.game.engine.name} carries no encoder, so it has no tensor; use the string")
        if self.recall:
            self.tensor[:] = 0.0
            state.write_information(player, self.tensor)
            return
        engine_state = state.engine_state
        if engine_state is None:
            self.tensor[:] = 0.0
            return
        size = self.game.tensor_size
        if self.private == pyspiel.PrivateInfoType.NONE:
            self.tensor[:] = observation_tensor(engine_state.game, engine_state.view(None), player)
            return
        # A seat's own observation (one seat, or every seat round the table): read from the
        # position by the game's writer, the same values as the tensor of the seat's view.
        count = engine_state.game.num_players if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS else 1
        for index in range(count):
            seat = (player + index) % engine_state.game.num_players
            write_observation(engine_state, seat, self.tensor[index * size : (index + 1) * size])

    def string_from(self, state: ParlourState, player: int) -> str:
        engine_state = state.engine_state
        if engine_state is None:
            return "before the deal"
        if self.recall:
            return state.information(player)
        views = [json.dumps(view, sort_keys=True) for view, _ in self._views(engine_state, player)]
        return views[0] if len(views) == 1 else "\n".join(views)


def register_all() -> list[str]:
    """Register every parlour game with pyspiel (idempotent); returns the short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for name, cls in game_classes().items():
        short = PREFIX + name
        if short not in registered:
            class_name = f"OpenSpiel{cls.__name__}"
            game_cls = type(class_name, (ParlourGame,), {"engine_class": cls, "__module__": __name__})
            globals()[class_name] = game_cls  # found by name when a game is unpickled
            pyspiel.register_game(_game_type(cls), game_cls)
        names.append(short)
    return names


def load(name: str, **options: Any) -> pyspiel.Game:
    """The parlour game `name` as a pyspiel game, with its options (and `seed`,
    `chance_outcomes`) as parameters."""
    register_all()
    cls = game_class(name)
    engine_options = {key: value for key, value in options.items() if key not in ("seed", "chance_outcomes")}
    cls(**engine_options)  # InvalidOption for bad options, before OpenSpiel sees them
    return pyspiel.load_game(PREFIX + cls.name, {key: _to_parameter(value) for key, value in options.items()})


REGISTERED = register_all()
"""The short names registered when this module was imported."""
