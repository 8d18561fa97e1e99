"""Building Yamataï positions directly for rules tests: a bare board and a turn put where we want it."""

from __future__ import annotations

from parlour.engine import load_game
from parlour.games.yamatai import constants as r
from parlour.games.yamatai.components import RESOURCES, components
from parlour.games.yamatai.state import YamataiState

PARTS = components()
BOARD = PARTS.board
KINDS = PARTS.culture_colours


def island(name: str) -> int:
    return BOARD.island_ids.index(name)


def spot(name: str) -> int:
    return BOARD.spot_ids.index(name)


def tile(code: str) -> int:
    return next(t.index for t in PARTS.buildings if t.code == code)


def specialist(name: str) -> int:
    return next(s.index for s in PARTS.specialists if s.name == name)


def colour(resource: str) -> int:
    return RESOURCES.index(resource)


def fresh(players: int = 4, seed: int = 0, **options: int) -> YamataiState:
    state = load_game("yamatai", players=players, **options).new_state(seed)
    assert isinstance(state, YamataiState)
    return state


def bare(players: int = 4, seed: int = 0) -> YamataiState:
    """A set-up game with an empty archipelago: no tokens, no mountains, no boats."""
    state = fresh(players, seed)
    state.island_token = [-1] * 34
    state.mountain = (False,) * 34
    state.spot_boat = [-1] * 90
    state._legal = None
    return state


def put_tokens(state: YamataiState, **tokens: str) -> None:
    """put_tokens(state, I05="orange") puts a culture token of that colour on the island."""
    for name, kind in tokens.items():
        state.island_token[island(name)] = KINDS.index(kind)


def put_boats(state: YamataiState, **boats: str) -> None:
    """put_boats(state, S007="bamboo") puts a boat on the spot (taken from the reserve)."""
    for name, resource in boats.items():
        state.spot_boat[spot(name)] = colour(resource)
        state.reserve[colour(resource)] -= 1


def turn(
    state: YamataiState,
    seat: int = 0,
    fleet: int = 1,
    hand: dict[str, int] | None = None,
    phase: int = r.PLACE,
    specialists: tuple[str, ...] = (),
) -> YamataiState:
    """Make it `seat`'s turn, fleet tile `fleet` taken, these boats in hand, at `phase`."""
    seat_first(state, seat)
    state._start_turn(0)
    for name in specialists:
        state.specs[seat] |= 1 << specialist(name)
    if fleet in state.fleet_track:
        state.fleet_track[state.fleet_track.index(fleet)] = 0
    state.turn_fleets = [fleet]
    state.tile = fleet
    state.minus_one = PARTS.fleet[fleet - 1].power == "build_minus_one"
    state.power_ready = not state.minus_one
    for name, count in (hand or {}).items():
        state.hand[colour(name)] = count
    mask = state.specs[seat]
    state.trades_left = 2 if mask >> specialist("Merchant") & 1 else 1
    state.game.price_cache.clear()
    prices = [state._prices(c) for c in range(5)]
    state.price_table = (tuple(p[0] for p in prices), tuple(p[1] for p in prices))
    state.phase = phase
    if phase == r.HARBOUR:
        state._enter_harbour()
    state._legal = None
    state._advance()
    return state


def seat_first(state: YamataiState, seat: int) -> None:
    """Swap `seat`'s meeple to the front of the turn order."""
    i = state.order.index(seat)
    state.order[0], state.order[i] = state.order[i], state.order[0]
    state.final_order = state.order[:]


def labels(state: YamataiState) -> list[str]:
    return [a.label for a in state.legal_actions()]


def play(state: YamataiState, *moves: str) -> None:
    for move in moves:
        state.apply(move)
