"""The plumbing every game shares lives in the engine: the legal-move cache, legality by action id,
pickling a game as its options, and the shuffles of `Rng`."""

from __future__ import annotations

import pickle

import pytest

import parlour
from parlour.engine import TERMINAL, Action, Event, Game, IllegalAction, Option, Rng, Score, State
from parlour.engine.registry import game_classes
from parlour.engine.rng import shuffle_draws

BUILT_IN = ("hatflings", "hanbok_runway", "hatairo", "yamatai")


class Countdown(Game):
    """Count down from 5 by 1 or 2; the state counts how often its legal moves were generated."""

    name = "countdown"
    title = "Countdown"
    summary = "count down by one or two"
    perfect_information = True
    options_spec = (Option("players", int, 1, "number of players", choices=(1,)),)

    def _build_actions(self) -> list[Action]:
        return [Action(0, "one", "step", (("by", 1),)), Action(1, "two", "step", (("by", 2),))]

    def new_state(self, seed: int = 0) -> CountdownState:
        return CountdownState(self, seed)


class CountdownState(State):
    __slots__ = ("left", "generated", "applied")

    def __init__(self, game: Countdown, seed: int) -> None:
        super().__init__(game, seed)
        self.left = 5
        self.generated = 0
        self.applied: list[Action] = []

    def _legal_now(self) -> list[Action]:
        self.generated += 1
        return list(self.game.actions[: min(2, self.left)])

    def _apply(self, action: Action) -> list[Event]:
        self.applied.append(action)
        self.left -= action.param("by")
        return []

    def why_illegal(self, action: Action) -> str:
        return f"only {self.left} left"

    def current_player(self) -> int:
        return TERMINAL if self.left == 0 else 0

    def is_terminal(self) -> bool:
        return self.left == 0

    def scores(self) -> list[Score]:
        return [Score(0.0)]

    def winners(self) -> list[int]:
        return [0]

    def view(self, seat: int | None) -> dict[str, object]:
        return {"left": self.left}

    def clone(self) -> CountdownState:
        twin = CountdownState(self.game, self.seed)  # type: ignore[arg-type]
        self._copy_base_into(twin)
        twin.left = self.left
        return twin

    def determinize(self, seat: int, rng: Rng) -> CountdownState:
        return self.clone()

    def render(self, seat: int | None = None) -> str:
        return str(self.left)

    def heuristic(self, seat: int) -> float:
        return 0.0


def test_the_engine_caches_the_legal_list_until_a_move_is_applied() -> None:
    state = Countdown().new_state()
    first = state.legal_actions()
    assert state.legal_actions() is first and state.generated == 1
    state.apply("two")
    assert [a.label for a in state.legal_actions()] == ["one", "two"] and state.generated == 2
    state.apply_legal(state.legal_actions()[0])  # the search path drops the cache too
    assert state.legal_actions() is not first and state.generated == 3


def test_legality_is_checked_by_id_and_the_games_own_action_is_applied() -> None:
    state = Countdown().new_state()
    state.apply(Action(1, "a copy of two", "step", (("by", 2),)))
    assert state.applied[0] is state.game.actions[1] and state.left == 3
    state.apply(1)
    assert state.is_legal(state.game.actions[0]) and not state.is_legal(state.game.actions[1])
    with pytest.raises(IllegalAction, match="only 1 left"):
        state.apply("two")
    assert state.left == 1 and state.history == [1, 1]


def _state_class(name: str) -> type[State]:
    return type(parlour.load_game(name).new_state(0))


@pytest.mark.parametrize("name", BUILT_IN)
def test_no_game_reimplements_the_legal_move_plumbing(name: str) -> None:
    state_class = _state_class(name)
    for cls in state_class.__mro__[: state_class.__mro__.index(State)]:
        redefined = {"legal_actions", "apply", "apply_legal", "is_legal"} & set(vars(cls))
        assert not redefined, f"{cls.__qualname__} redefines {sorted(redefined)}"
    for cls in game_classes()[name].__mro__[:-1]:
        if cls is Game:
            break
        assert "__reduce__" not in vars(cls), f"{cls.__qualname__} pickles itself"


@pytest.mark.parametrize("name", BUILT_IN)
def test_a_game_pickles_as_its_options_and_unpickled_states_share_it(name: str) -> None:
    game = parlour.load_game(name)
    assert len(pickle.dumps(game)) < 500  # the options, not the action space
    one, two = (pickle.loads(pickle.dumps(game.new_state(seed))) for seed in (1, 2))
    assert one.game is two.game and one.game.options == game.options
    assert [a.id for a in one.legal_actions()] == [a.id for a in game.new_state(1).legal_actions()]


def test_a_state_of_a_game_defined_outside_the_package_pickles_with_its_own_attributes() -> None:
    # A plugin's or a test's state subclasses the engine's State in plain Python: in the compiled
    # build its own attributes live beside the native ones and must travel too.
    from tests.engine.nim import Nim

    state = Nim().new_state(seed=3)
    state.apply(state.legal_actions()[-1])
    twin = pickle.loads(pickle.dumps(state))
    assert (twin.pile, twin.mover, twin.history, twin.seed) == (state.pile, state.mover, state.history, 3)
    assert twin.render(None) == state.render(None) and twin.view(0) == state.view(0)
    assert [a.id for a in twin.legal_actions()] == [a.id for a in state.legal_actions()]


def test_defer_draws_later_what_drawing_now_would_have_drawn() -> None:
    now, later = Rng(7), Rng(7)
    deck = list(range(10))
    now.shuffle(deck)
    after_now = now.next64()
    noted = later.defer(shuffle_draws(10))
    assert later.next64() == after_now  # the generator moved on as if the shuffle had been done
    deferred = list(range(10))
    noted.shuffle(deferred)
    assert deferred == deck


def test_redeal_depends_only_on_which_items_are_hidden() -> None:
    assert Rng(3).redeal([5, 1, 4, 2]) == Rng(3).redeal({2, 4, 1, 5})
    assert sorted(Rng(3).redeal([5, 1, 4, 2])) == [1, 2, 4, 5]


class CountingRng(Rng):
    __slots__ = ("draws",)

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.draws = 0

    def next64(self) -> int:
        self.draws += 1
        return super().next64()


def test_shuffle_sparingly_draws_less_than_once_per_item() -> None:
    rng = CountingRng(11)
    items = list(range(30))
    rng.shuffle_sparingly(items)
    assert sorted(items) == list(range(30)) and items != list(range(30))
    assert 0 < rng.draws < shuffle_draws(30) // 2  # about one draw per 32 bits used


def test_draws_that_take_one_value_go_through_next64() -> None:
    # A subclass overriding next64 sees each draw of randrange, choice, random and spawn, in the
    # compiled build (whose plain Rng computes them on machine integers) as well as interpreted.
    rng, plain = CountingRng(5), Rng(5)
    assert rng.randrange(10) == plain.randrange(10) and rng.choice("abcdef") == plain.choice("abcdef")
    assert rng.random() == plain.random() and rng.spawn().state == plain.spawn().state
    assert rng.draws == 4 and rng.state == plain.state
