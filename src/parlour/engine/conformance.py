"""Protocol conformance checks that every game must pass.

Used by each game's test suite (with random games from hypothesis-chosen seeds) and useful to
anyone adding a game: a game that passes these keeps the promises of the engine protocol.
"""

from __future__ import annotations

import hashlib
import json
import pickle
import re
from collections.abc import Callable, Sequence
from typing import Any

from parlour.engine.actions import Event
from parlour.engine.errors import IllegalAction
from parlour.engine.game import TERMINAL, Game, State, generic_reason
from parlour.engine.records import replay
from parlour.engine.rng import Rng


class ConformanceError(AssertionError):
    pass


def _all_views(state: State) -> str:
    seats: list[int | None] = [None, *range(state.game.num_players)]
    return json.dumps([state.view(seat) for seat in seats], sort_keys=True)


def check_move_is_told(events: Sequence[Event], mover: int, num_players: int, label: str) -> None:
    """Every move shows every other seat and a spectator at least one event: a public choice in
    the game's words, or a secret move's redacted half. A move that tells someone nothing reads
    to them as something hidden (or lost) even when it was a public choice."""
    viewers: list[int | None] = [*(seat for seat in range(num_players) if seat != mover), None]
    for viewer in viewers:
        if not any(event.visible_to(viewer) for event in events):
            who = "a spectator" if viewer is None else f"seat {viewer}"
            raise ConformanceError(f"seat {mover}'s move {label!r} shows {who} no event")


def play_random_game(game: Game, seed: int, max_steps: int = 100_000) -> tuple[State, list[str]]:
    """Play one game with random moves, checking the step invariants (every move told to every
    other seat, `check_move_is_told`); returns it and its views."""
    state = game.new_state(seed=seed)
    rng = Rng(seed ^ 0x5EED)
    views = [_all_views(state)]
    for _ in range(max_steps):
        if state.is_terminal():
            if state.current_player() != TERMINAL:
                raise ConformanceError("a terminal state must report current_player() == TERMINAL")
            return state, views
        legal = state.legal_actions()
        if not legal:
            raise ConformanceError(f"non-terminal state with no legal action after {state.history}")
        if len(set(a.id for a in legal)) != len(legal):
            raise ConformanceError("legal_actions() lists an action twice")
        if not 0 <= state.current_player() < game.num_players:
            raise ConformanceError(f"current_player() {state.current_player()} is not a seat")
        mover, action = state.current_player(), rng.choice(legal)
        check_move_is_told(state.apply(action), mover, game.num_players, action.label)
        views.append(_all_views(state))
    raise ConformanceError(f"game did not end within {max_steps} steps")


def check_illegal_changes_nothing(state: State, rng: Rng) -> None:
    """Every action outside the legal list raises IllegalAction and leaves the state untouched."""
    legal_ids = {action.id for action in state.legal_actions()}
    illegal = [a for a in state.game.actions if a.id not in legal_ids]
    if not illegal:
        return
    before = pickle.dumps(state)
    for action in [rng.choice(illegal) for _ in range(3)]:
        try:
            state.apply(action)
        except IllegalAction as error:
            if not str(error):
                raise ConformanceError(f"IllegalAction for {action.label!r} gives no reason") from None
            if str(error) == generic_reason(action):
                # Legality is written twice, as the generator and as words; the fallback hides drift.
                raise ConformanceError(
                    f"refusing {action.label!r} falls back to the generic reason {str(error)!r}: the game's "
                    f"why_illegal names no rule for it (history {state.history})"
                ) from None
        else:
            raise ConformanceError(f"{action.label!r} was accepted though it is not in legal_actions()")
        if pickle.dumps(state) != before:
            raise ConformanceError(f"refusing {action.label!r} changed the state")


def check_game(game: Game, seed: int) -> State:
    """One random game checked against every protocol invariant. Returns the finished state."""
    final, views = play_random_game(game, seed)
    json.dumps([final.scores()[seat].to_json() for seat in range(game.num_players)])
    returns = final.returns()
    if len(returns) != game.num_players or not final.winners():
        raise ConformanceError("a finished game must name its winners and give one return per seat")

    rebuilt = replay(json.loads(json.dumps(final.record())))
    if _all_views(rebuilt) != views[-1] or rebuilt.history != final.history:
        raise ConformanceError("replaying the record does not reproduce the game")

    # Walk the game again, checking the per-state invariants at every step.
    rng = Rng(seed)
    state = game.new_state(seed=seed)
    for step, action_id in enumerate(final.history):
        if _all_views(state) != views[step]:
            raise ConformanceError(f"step {step}: the same seed and actions gave a different view")
        check_illegal_changes_nothing(state, rng)
        check_clone_copies_every_field(state, f"step {step}: ")
        twin = state.clone()
        twin_before = _all_views(twin)
        copy_step = state.clone()
        copy_step.apply(rng.choice(copy_step.legal_actions()))
        if _all_views(state) != views[step] or _all_views(twin) != twin_before:
            raise ConformanceError(f"step {step}: a clone is not independent of its original")
        seat = state.current_player()
        det = state.determinize(seat, Rng(seed + step))
        if json.dumps(det.view(seat), sort_keys=True) != json.dumps(state.view(seat), sort_keys=True):
            raise ConformanceError(f"step {step}: determinize({seat}) changed what seat {seat} sees")
        if _all_views(state) != views[step]:
            raise ConformanceError(f"step {step}: determinize changed the original state")
        state.apply(action_id)
    return final


_KEPT_WHOLE = (bool, int, float, str, bytes, frozenset, type(None), Game)
"""Values a clone may share: they never change in place (a game never changes after construction)."""


def state_fields(value: object) -> list[str]:
    """Every attribute an object of a game keeps: the `__slots__` of its classes, the attributes
    the compiled build lists for a native class, and its `__dict__`, set or not."""
    names: dict[str, None] = {}
    for cls in type(value).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            names[name] = None
        for name in cls.__dict__.get("__mypyc_attrs__", ()):
            names[name] = None
    names.update(dict.fromkeys(getattr(value, "__dict__", {})))
    return [name for name in names if name not in ("__dict__", "__weakref__")]


def _snapshot(value: Any) -> Any:
    """A comparable picture of a field's value, through lists, dicts and the game's own objects."""
    if isinstance(value, _KEPT_WHOLE):
        return value
    if isinstance(value, Rng):
        return ("Rng", value.state)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_snapshot(item) for item in value])
    if isinstance(value, dict):
        return ("dict", [(_snapshot(key), _snapshot(item)) for key, item in value.items()])
    if isinstance(value, set):
        return ("set", sorted(repr(_snapshot(item)) for item in value))
    return (type(value).__name__, {name: _snapshot(getattr(value, name, None)) for name in state_fields(value)})


def _shared_part(mine: Any, theirs: Any, path: str) -> str | None:
    """Where a clone still shares something that changes in place with its original, or None."""
    if isinstance(mine, _KEPT_WHOLE):
        return None
    if mine is theirs and not isinstance(mine, tuple):
        return path
    if isinstance(mine, (list, tuple)):
        pairs = [(f"{path}[{i}]", a, b) for i, (a, b) in enumerate(zip(mine, theirs, strict=False))]
    elif isinstance(mine, dict):
        pairs = [(f"{path}[{key!r}]", item, theirs.get(key)) for key, item in mine.items()]
    elif isinstance(mine, (set, Rng)):
        pairs = []
    else:
        pairs = [
            (f"{path}.{name}", getattr(mine, name, None), getattr(theirs, name, None)) for name in state_fields(mine)
        ]
    for where, a, b in pairs:
        found = _shared_part(a, b, where)
        if found is not None:
            return found
    return None


def check_clone_copies_every_field(state: State, where: str = "") -> None:
    """`clone` copies every field of the position: each holds the same value in the copy, and the
    copy shares nothing that changes in place with the original (a list, a board, the generator),
    except the fields the game's state class names in `clone_shares` (caches replaced, never
    changed in place). A field the game adds and its `clone` forgets fails here."""
    twin = state.clone()
    if type(twin) is not type(state):
        raise ConformanceError(f"{where}clone() gives a {type(twin).__name__}, not a {type(state).__name__}")
    shares = type(state).clone_shares
    for name in state_fields(state):
        if not hasattr(state, name):
            continue
        if not hasattr(twin, name):
            raise ConformanceError(f"{where}clone() leaves the field {name!r} unset")
        mine, theirs = getattr(state, name), getattr(twin, name)
        if _snapshot(mine) != _snapshot(theirs):
            raise ConformanceError(f"{where}clone() copies the field {name!r} with another value")
        shared = None if name in shares else _shared_part(mine, theirs, name)
        if shared is not None:
            raise ConformanceError(f"{where}clone() shares {shared} with the original: changing one changes both")


def finish_randomly(state: State, seed: int) -> Any:
    """Play a (determinized) state to its end with random moves; returns its returns."""
    rng = Rng(seed)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    return state.returns()


# --- hidden information -----------------------------------------------------------------------
#
# A seat must not be able to tell apart two positions that differ only in what it cannot see, and
# a determinization must be one of those positions. The checks below build such "sibling" positions
# in two independent ways: by `determinize`, and by replaying the real game from its seed with the
# other seats' moves replaced by others that show the seat exactly the same thing (a different
# kept card, a different hidden pick). Then:
#   (a) the seat's observation is the same in every sibling: view, render, the legal moves and the
#       reasons given for illegal ones when it is to move, every adapter observation passed in;
#   (b) `determinize(seat, rng)` of every sibling is the same world as that of the real position:
#       all seats' views, renders and legal moves, now and along the same random continuation
#       (so the order of hidden cards and the generator's future cannot depend on the real ones);
#       and the advice a person may ask for (the server's hint) is the same move;
#   (c) a determinization agrees with everything the seat knows: the real and the drawn positions
#       play the same moves, and the seat's observation must stay the same until a step that
#       shows it something it could not have known: a name it never saw, a face-down (null) value
#       turned up, a draw from the game's generator (`state.rng`), or an event of a kind the game
#       lists in `revealing_events` (a draw from a deck shuffled at the start). After an event of
#       a kind in `passing_events` (a hand passed on by someone who took a card from it) the drawn
#       world may show other cards, but not one the seat never saw where the real one shows none.

Observer = Callable[[State, int], Any]
"""What one seat observes through some interface (an adapter's tensor, a text): equal values for
positions the seat cannot tell apart. Return something comparable with ==, such as bytes or str."""

Advice = Callable[[State], Any]
"""A recommendation for the seat to move (for example the hint's move id)."""

HIDDEN_DRAWS = 2
"""Determinizations drawn per seat and position by `check_hidden_at`."""
HIDDEN_FUTURE = 32
"""How many steps of a continuation (b) and of playing on (c) are compared."""
FUTURE_SAMPLE = 4
"""(b) compares every seat's view every this many steps of a continuation."""
SWAP_TRIES = 4
"""Alternative moves tried per step when replaying the game with other hidden choices."""
ILLEGAL_REASONS = 6
"""How many refused moves' reasons are part of the observation of the seat to move."""


def _view_json(state: State, seat: int | None) -> str:
    return json.dumps(state.view(seat), sort_keys=True)


def _events_json(events: list[Event], seat: int) -> str:
    return json.dumps([event.to_json() for event in events if event.visible_to(seat)], sort_keys=True, default=str)


def observation(state: State, seat: int, observers: Sequence[Observer] = ()) -> dict[str, Any]:
    """Everything `seat` is shown of `state`, field by field."""
    seen: dict[str, Any] = {
        "view": _view_json(state, seat),
        "render": state.render(seat),
        "to move": state.current_player(),
        # A spectator sees less than any seat, so it cannot tell these positions apart either.
        "spectator view": _view_json(state, None),
        "spectator render": state.render(None),
    }
    if state.current_player() == seat:
        legal = state.legal_actions()
        seen["legal"] = [action.label for action in legal]
        legal_ids = {action.id for action in legal}
        refused = [action for action in state.game.actions if action.id not in legal_ids][:ILLEGAL_REASONS]
        seen["refusals"] = [state.why_illegal(action) for action in refused]
    for index, observer in enumerate(observers):
        seen[f"observer {index}"] = observer(state, seat)
    return seen


def _difference(mine: dict[str, Any], theirs: dict[str, Any]) -> str:
    for name in mine.keys() | theirs.keys():
        a, b = mine.get(name), theirs.get(name)
        if a == b:
            continue
        if isinstance(a, str) and isinstance(b, str):
            for line_a, line_b in zip([*a.splitlines(), ""], [*b.splitlines(), ""], strict=False):
                if line_a != line_b:
                    return f"{name} differs: {line_a[:160]!r} / {line_b[:160]!r}"
        return f"{name} differs"
    return "nothing differs"


def _generator(state: State) -> int | None:
    rng = getattr(state, "rng", None)
    return rng.state if isinstance(rng, Rng) else None


def _leaves(value: Any, path: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(_leaves(item, f"{path}/{key}"))
        return out
    if isinstance(value, list):
        out = {}
        for index, item in enumerate(value):
            out.update(_leaves(item, f"{path}/{index}"))
        return out
    return {path: value}


_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def _strings(view: dict[str, Any]) -> set[str]:
    """The names in a view (and its keys, which are names too): every JSON string in it."""
    return {json.loads(f'"{text}"') if "\\" in text else text for text in _QUOTED.findall(json.dumps(view))}


def _shows_news(view: dict[str, Any], before: dict[str, Any], seen: set[str], drawn: dict[str, Any]) -> bool:
    """Whether `view` shows its seat a value it could not have known, where the drawn world's view
    `drawn` shows something else: a name it never saw (a new phase name in both is no secret), or
    a value where the previous view showed a face-down (null) one."""
    old = _leaves(before)
    theirs = _leaves(drawn)
    names = {value for value in theirs.values() if isinstance(value, str)}
    for path, value in _leaves(view).items():
        if isinstance(value, str):
            if value not in seen and value not in names:
                return True
        elif value is not None and old.get(path, 0) is None and theirs.get(path) != value:
            return True
    return False


def seen_strings(state: State, seat: int) -> set[str]:
    """Every name `seat` has been shown in the views of the game so far (replayed from the seed)."""
    replayed = state.game.new_state(seed=state.seed)
    seen = _strings(replayed.view(seat))
    for action_id in state.history:
        replayed.apply(action_id)
        seen |= _strings(replayed.view(seat))
    return seen


def swapped_sibling(state: State, seat: int, rng: Rng, tries: int = SWAP_TRIES) -> State | None:
    """The game replayed from its seed with other seats' moves replaced, where possible, by moves
    that show `seat` the same thing (view and events): a position the seat cannot tell from `state`
    found without `determinize`. None when the replay could not keep the seat's view."""
    game = state.game
    real = game.new_state(seed=state.seed)
    twin = game.new_state(seed=state.seed)
    for action_id in state.history:
        mover = real.current_player()
        if mover == seat:
            if [a.id for a in twin.legal_actions()] != [a.id for a in real.legal_actions()]:
                raise ConformanceError(
                    f"seat {seat} is offered different moves in positions it cannot tell apart "
                    f"(after {len(real.history)} moves)"
                )
            shown = (_events_json(twin.apply(action_id), seat), _view_json(twin, seat))
            if shown != (_events_json(real.apply(action_id), seat), _view_json(real, seat)):
                return None  # her own move showed her another seat's earlier choice, as it may
            continue
        target = (_events_json(real.apply(action_id), seat), _view_json(real, seat))
        legal = [a.id for a in twin.legal_actions()]
        candidates = [rng.choice(legal) for _ in range(tries)] + [action_id]
        for candidate in candidates:
            if candidate not in legal:
                continue
            trial = twin.clone()
            if (_events_json(trial.apply(candidate), seat), _view_json(trial, seat)) == target:
                twin = trial
                break
        else:
            return None
    return twin


def _future(world: State, rng: Rng, steps: int) -> list[str]:
    """Digests of everything every seat is shown along a random continuation of `world`."""
    seats: list[int | None] = [None, *range(world.game.num_players)]
    world = world.clone()
    digests = []
    for step in range(steps + 1):
        # Every seat's text at the start, then the views every few steps: what a hidden order or
        # the generator decides stays on the table once drawn, so a sample of steps finds it.
        if step % FUTURE_SAMPLE == 0 or world.is_terminal():
            shown: list[Any] = [[world.view(seat), world.render(seat) if step == 0 else ""] for seat in seats]
            shown.append([world.current_player(), [a.id for a in world.legal_actions()] if step == 0 else []])
            digests.append(hashlib.sha256(json.dumps(shown, sort_keys=True).encode()).hexdigest())
        if world.is_terminal():
            break
        world.apply(rng.choice(world.legal_actions()))
    return digests


def determinized_futures_agree(state: State, other: State, seat: int, rng: Rng, steps: int = HIDDEN_FUTURE) -> bool:
    """(b) for two positions `seat` cannot tell apart: `determinize(seat, ·)` with the same generator
    gives the same world, seen by every seat along the same random continuation."""
    key = rng.next64()
    mine = _future(state.determinize(seat, Rng(key)), Rng(key + 1), steps)
    return mine == _future(other.determinize(seat, Rng(key)), Rng(key + 1), steps)


def _play_on(real: State, drawn: State, seat: int, rng: Rng, seen: set[str], steps: int) -> None:
    """(c): play the same moves in the real and the drawn position; until a step shows the seat
    something new, it must see the same in both (its view, the events, who moves)."""
    real, drawn = real.clone(), drawn.clone()
    revealing = real.game.revealing_events
    passing = real.game.passing_events
    before = real.view(seat)
    for step in range(steps):
        if real.is_terminal() or drawn.is_terminal():
            return
        drawn_ids = {a.id for a in drawn.legal_actions()}
        common = [a for a in real.legal_actions() if a.id in drawn_ids]
        if not common:
            return  # another seat's hidden cards differ, as they may
        action = rng.choice(common)
        generators = (_generator(real), _generator(drawn))
        happened = real.apply(action)
        events = (_events_json(happened, seat), _events_json(drawn.apply(action), seat))
        chance = generators != (_generator(real), _generator(drawn))
        shown, other = real.view(seat), drawn.view(seat)
        mine, theirs = json.dumps(shown, sort_keys=True), json.dumps(other, sort_keys=True)
        if mine != theirs and _shows_news(shown, before, seen, other):
            return  # the real game showed her something she could not know: the worlds may part
        kinds = {event.kind for event in happened if event.visible_to(seat)}
        if kinds & passing:
            # What a passed hand says of who took what: the drawn world may show her other cards
            # here, but never one she has not seen where the real one shows only cards she knows.
            names = {value for value in _leaves(other).values() if isinstance(value, str)}
            unseen = names - seen - _strings(shown) if mine != theirs else set()
            if unseen:
                raise ConformanceError(
                    f"a determinization for seat {seat} forgets what it knows: {step + 1} moves on "
                    f"({action.label!r}) it shows her {sorted(unseen)[:3]}, where she can only see cards she knows"
                )
            return
        if chance or kinds & revealing:
            return  # a draw: from here the worlds may part
        if events[0] != events[1] or mine != theirs or real.current_player() != drawn.current_player():
            what = "the events shown" if events[0] != events[1] else _difference({"view": mine}, {"view": theirs})
            raise ConformanceError(
                f"a determinization for seat {seat} forgets what it knows: {step + 1} moves on "
                f"({action.label!r}), nothing new was shown, yet {what}"
            )
        seen |= _strings(shown)
        before = shown


def check_hidden_at(
    state: State,
    seat: int,
    rng: Rng,
    observers: Sequence[Observer] = (),
    advice: Advice | None = None,
    seen: set[str] | None = None,
    future: int = HIDDEN_FUTURE,
) -> None:
    """(a), (b) and (c) above for one position and one seat. `seen`: the names the seat has been
    shown so far (computed by replaying the game when not given); `future`: how many steps (b)
    and (c) follow."""
    if seen is None:
        seen = seen_strings(state, seat)
    mine = observation(state, seat, observers)
    drawn = [state.determinize(seat, Rng(rng.next64())) for _ in range(HIDDEN_DRAWS)]
    swapped = swapped_sibling(state, seat, rng)
    siblings = [(f"determinize({seat}) draw {k}", world) for k, world in enumerate(drawn)]
    if swapped is not None:
        siblings.append(("the game replayed with other hidden choices", swapped))
    for name, world in siblings:
        theirs = observation(world, seat, observers)
        if theirs != mine:
            raise ConformanceError(
                f"seat {seat} can tell {name} from the real position after {len(state.history)} moves: "
                + _difference(mine, theirs)
            )
    key = rng.next64()
    reference = _future(state.determinize(seat, Rng(key)), Rng(key + 1), future)
    for name, world in siblings:
        digests = _future(world.determinize(seat, Rng(key)), Rng(key + 1), future)
        if digests != reference:
            step = next(i for i, (a, b) in enumerate(zip([*digests, ""], [*reference, ""], strict=False)) if a != b)
            raise ConformanceError(
                f"determinize({seat}) depends on what seat {seat} cannot see: from {name} it gives a "
                f"different world (after {len(state.history)} moves; {step} moves into the continuation)"
            )
    if advice is not None and state.current_player() == seat:
        expected = advice(state)
        for name, world in siblings:
            if advice(world) != expected:
                raise ConformanceError(f"the advice for seat {seat} changes with what it cannot see ({name})")
    for world in drawn:
        _play_on(state, world, seat, Rng(rng.next64()), set(seen), future)


def check_hidden_information(
    game: Game,
    seed: int,
    positions: int = 3,
    observers: Sequence[Observer] = (),
    advice: Advice | None = None,
    early: Sequence[int] = (2, 5),
) -> None:
    """Hidden-information checks (a), (b) and (c) at some positions of one random game: the steps
    in `early` (set-ups hide most) and `positions` more spread over the game, for every seat."""
    final = game.new_state(seed=seed)
    rng = Rng(seed ^ 0xC0DE)
    while not final.is_terminal():
        final.apply(rng.choice(final.legal_actions()))
    length = len(final.history)
    spread = [length * (2 * k + 1) // (2 * positions) for k in range(positions)]
    steps = sorted({step for step in [*early, *spread] if step < length})
    state = game.new_state(seed=seed)
    seats = range(game.num_players)
    seen = [_strings(state.view(seat)) for seat in seats]
    for step, action_id in enumerate(final.history):
        if step in steps:
            for seat in seats:
                check_hidden_at(state, seat, Rng(seed + 7919 * step + seat), observers, advice, seen[seat])
        state.apply(action_id)
        for seat in seats:
            seen[seat] |= _strings(state.view(seat))
