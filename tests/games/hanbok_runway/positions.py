"""Building Hanbok Runway positions directly, for rules tests that need a particular situation."""

from __future__ import annotations

from parlour.engine import load_game
from parlour.games.hanbok_runway import HanbokRunway, HanbokRunwayState
from parlour.games.hanbok_runway.components import SYMBOLS
from parlour.games.hanbok_runway.constants import DRAW, SETS

GAME: HanbokRunway = load_game("hanbok_runway", start_player=0)  # type: ignore[assignment]
COMPONENTS = GAME.components
COLOURS = COMPONENTS.colours
T = COMPONENTS.tokens_per_colour


def colour(name: str) -> int:
    return COLOURS.index(name)


def kind(label: str) -> int:
    """A fabric kind from its label, in either colour order ("red/green" = "green/red")."""
    wanted = sorted(colour(c) for c in label.split("/"))
    return COMPONENTS.fabric_kinds.index(tuple(wanted))


def token(name: str, position: int) -> int:
    """The token id of a colour's queue position (1-based, as the rules count)."""
    return colour(name) * T + position - 1


def fresh(seed: int = 0, start: int = 0, **options: int) -> HanbokRunwayState:
    state: HanbokRunwayState = load_game("hanbok_runway", start_player=start, **options).new_state(seed)  # type: ignore[assignment]
    return state


def turn_position(seed: int = 0, start: int = 0, seat: int | None = None, phase: int = SETS) -> HanbokRunwayState:
    """A mid-game position past the opening draws: empty tableaux, `seat` (default start) to act."""
    state = fresh(seed, start)
    state.phase = phase
    state.to_move = start if seat is None else seat
    state._legal = None
    return state


def give(state: HanbokRunwayState, seat: int, *cards: str) -> None:
    """Put cards in front of a seat, taken out of their decks: symbols or fabric labels ("green/red")."""
    for card in cards:
        if card in SYMBOLS:
            symbol = SYMBOLS.index(card)
            state.style_deck.remove(symbol)
            state.tableau_style[seat][symbol] += 1
        else:
            fabric = kind(card)
            state.fabric_deck.remove(fabric)
            state.tableau_fabric[seat][fabric] += 1
    state._legal = None


def arrange(state: HanbokRunwayState, name: str, values: list[int]) -> None:
    """Set the values of a colour's remaining queue, from its next position on (a permutation of them)."""
    first = colour(name) * T + state.taken[colour(name)]
    slots = list(range(first, first + len(values)))
    assert sorted(state.value[t] for t in slots) == sorted(values), "values must be those left in the queue"
    for t, value in zip(slots, values, strict=True):
        state.value[t] = value


def put_first(state: HanbokRunwayState, name: str, value: int) -> int:
    """Make `value` the next token of a colour's queue by swapping it with the one there; returns its id."""
    c = colour(name)
    nxt = c * T + state.taken[c]
    remaining = range(nxt, c * T + T)
    other = next(t for t in remaining if state.value[t] == value)
    state.value[nxt], state.value[other] = state.value[other], state.value[nxt]
    return nxt


def place_set(state: HanbokRunwayState, seat: int, symbol: str, name: str, value: int, fabric: str = "") -> int:
    """Give `seat` a finished set holding the next token of colour `name`, valued `value`; returns its id."""
    t = put_first(state, name, value)
    c = colour(name)
    state.taken[c] += 1
    state.owner[t] = seat
    state.known[t] |= 1 << seat
    state.set_symbols[seat].append(SYMBOLS.index(symbol))
    other = next(o for o in COLOURS if o != name)
    state.set_kinds[seat].append(kind(fabric or f"{name}/{other}"))
    state.set_tokens[seat].append(t)
    state._legal = None
    return t


def empty_queue(state: HanbokRunwayState, name: str, seat: int = 1) -> None:
    """Take every remaining token of a colour into plain triangle sets of `seat`."""
    c = colour(name)
    while state.taken[c] < T:
        place_set(state, seat, "triangle", name, state.value[c * T + state.taken[c]])


def labels(state: HanbokRunwayState) -> list[str]:
    return [action.label for action in state.legal_actions()]


__all__ = ["DRAW", "SETS"]
