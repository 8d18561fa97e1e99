"""The ten fleet powers: whether one can be used now, its targets step by step, and its effect.

A power is started with "use the fleet power" between two steps of its owner's turn (R1, R41);
targets are then chosen one at a time in sub-steps of their own, after which the turn resumes
where it was. `build_minus_one` has no action of its own: it is part of the Build it relaxes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine import Event, secret
from parlour.games.yamatai import board as geo
from parlour.games.yamatai.actions import N_ISLANDS, N_SPOTS, N_TILES, Ids
from parlour.games.yamatai.constants import (
    CHOOSE,
    MOVE_FROM,
    MOVE_TO,
    NO_TOKEN,
    PLACE,
    PREVIEW,
    PREVIEW_ORDER,
    REMOVE,
    RESERVE,
    SACRED,
    SWAP_BOAT_FROM,
    SWAP_BOAT_TO,
    SWAP_TOKEN_FROM,
    SWAP_TOKEN_TO,
    TRADE,
)
from parlour.games.yamatai.deck import after_exchange, after_look

if TYPE_CHECKING:
    from parlour.games.yamatai.state import YamataiState


# The powers that can give a step with nothing to do something to do: coins or a boat back in the
# reserve for a purchase, a free spot for the chain, a placed boat next to a token or a tile in the row.
OPENS = {
    TRADE: frozenset({"gain_coins", "remove_boat"}),
    PLACE: frozenset({"move_boat", "swap_boats", "remove_boat"}),
    CHOOSE: frozenset({"preview_buildings", "move_boat", "swap_boats"}),
}


def power_key(state: YamataiState) -> str:
    return state.game.power_keys[state.tile - 1]


def could_open(state: YamataiState) -> bool:
    """Whether this turn's power could make the current, empty step possible."""
    return power_key(state) in OPENS.get(state.phase, frozenset())


def usable(state: YamataiState) -> bool:
    """Whether the fleet power has a legal target now (R41)."""
    power = power_key(state)
    if power in ("gain_coins", "gain_prestige_token"):
        return True
    if power == "swap_culture_tokens":
        return sum(1 for k in state.island_token if k != NO_TOKEN) >= 2
    if power == "preview_buildings":
        return bool(state.deck)
    if power == "place_sacred_ground":
        return state.sacred_left > 0 and bool(empty_islands(state))
    if power == "reserve_building":
        return max(state.row) >= 0
    if power == "move_boat":
        return _any_movable(state)
    if power == "swap_boats":
        colours = set(state.spot_boat)
        colours.discard(-1)
        return len(colours) >= 2
    if power == "remove_boat":
        return max(state.spot_boat) >= 0
    return False


def empty_islands(state: YamataiState) -> list[int]:
    return [
        i for i in range(N_ISLANDS) if state.island_token[i] == NO_TOKEN and state.island_building[i] == geo.NO_BUILDING
    ]


def movable_boats(state: YamataiState) -> list[int]:
    boats = state.spot_boat
    neighbours = state.game.components.board.spot_neighbours
    return [s for s in range(N_SPOTS) if boats[s] >= 0 and any(boats[t] < 0 for t in neighbours[s])]


def _any_movable(state: YamataiState) -> bool:
    boats = state.spot_boat
    neighbours = state.game.components.board.spot_neighbours
    for s, b in enumerate(boats):
        if b >= 0:
            for t in neighbours[s]:
                if boats[t] < 0:
                    return True
    return False


def start(state: YamataiState) -> list[Event]:
    power = power_key(state)
    tile = state.game.components.fleet[state.tile - 1]
    seat = state.to_move
    if power == "gain_coins":
        amount = int(tile.params["amount"])
        state.coins[seat] += amount
        state.power_ready = False
        text = f"{state._who()} takes {amount} coin{'' if amount == 1 else 's'} (fleet tile {state.tile})"
        return [Event("power", text, {"seat": seat})]
    if power == "gain_prestige_token":
        amount = int(tile.params["amount"])
        state.pp_tokens[seat] += amount
        state.power_ready = False
        return [Event("power", f"{state._who()} takes {amount} PP token (fleet tile {state.tile})", {"seat": seat})]
    state.resume = state.phase
    state.phase = {
        "swap_culture_tokens": SWAP_TOKEN_FROM,
        "preview_buildings": PREVIEW,
        "place_sacred_ground": SACRED,
        "move_boat": MOVE_FROM,
        "reserve_building": RESERVE,
        "swap_boats": SWAP_BOAT_FROM,
        "remove_boat": REMOVE,
    }[power]
    if power == "preview_buildings":
        look = min(int(tile.params["look"]), len(state.deck))
        deck = state.deck
        exact_tops = [deck[len(deck) - known :] if known else [] for known in state.known_top]
        state.preview = [deck.pop() for _ in range(look)]
        state.pending = look
        state.known_top = [0] * len(state.known_top)  # the order on top is about to change
        state.deck_within = after_look(state.deck_within, seat, state.preview, exact_tops)
        codes = [state.game.components.buildings[t].code for t in state.preview]
        return secret(
            seat,
            Event("preview", f"{state._who()} looks at {', '.join(codes)}", {"seat": seat, "tiles": codes}),
            Event("preview", f"{state._who()} looks at the top {look} building tiles", {"seat": seat, "count": look}),
        )
    return [Event("power", f"{state._who()} uses fleet tile {state.tile}: {power}", {"seat": seat, "power": power})]


def target_ids(state: YamataiState) -> list[int]:
    phase = state.phase
    boats = state.spot_boat
    if phase == SWAP_TOKEN_FROM:
        return [Ids.SWAP_TOKEN_FROM + i for i in range(N_ISLANDS) if state.island_token[i] != NO_TOKEN]
    if phase == SWAP_TOKEN_TO:
        first = state.pending
        tokens = state.island_token
        return [Ids.SWAP_TOKEN_TO + i for i in range(N_ISLANDS) if tokens[i] != NO_TOKEN and i != first]
    if phase == SACRED:
        return [Ids.SACRED + i for i in empty_islands(state)]
    if phase == MOVE_FROM:
        return [Ids.MOVE_FROM + s for s in movable_boats(state)]
    if phase == MOVE_TO:
        return [Ids.MOVE_TO + t for t in state.game.components.board.spot_neighbours[state.pending] if boats[t] < 0]
    if phase == RESERVE:
        return sorted(Ids.RESERVE + t for t in state.row if t >= 0)
    if phase == SWAP_BOAT_FROM:
        return [Ids.SWAP_BOAT_FROM + s for s in range(N_SPOTS) if boats[s] >= 0]
    if phase == SWAP_BOAT_TO:
        colour = boats[state.pending]
        return [Ids.SWAP_BOAT_TO + s for s in range(N_SPOTS) if boats[s] >= 0 and boats[s] != colour]
    if phase == REMOVE:
        return [Ids.REMOVE + s for s in range(N_SPOTS) if boats[s] >= 0]
    if phase == PREVIEW:
        ids = [Ids.PREVIEW_SWAP + d * N_TILES + r for d in state.preview for r in state.row if r >= 0]
        ids.append(Ids.PREVIEW_KEEP)
        return ids
    if phase == PREVIEW_ORDER:
        return sorted(Ids.PREVIEW_RETURN + t for t in state.preview)
    return []


def choose(state: YamataiState, a: int) -> list[Event]:
    """Apply one target action of the power being used."""
    for end, base, handler in _TARGETS:
        if a < end:
            return handler(state, a - base)
    raise ValueError(f"action {a} is not a power target")


def _first_token(state: YamataiState, island: int) -> list[Event]:
    state.pending = island
    state.phase = SWAP_TOKEN_TO
    name = state.game.components.board.island_ids[island]
    text = f"{state._who()} picks the token on {name} to swap"
    return [Event("swap_token_from", text, {"seat": state.to_move, "island": name})]


def _swap_tokens(state: YamataiState, second: int) -> list[Event]:
    first = state.pending
    tokens = state.island_token
    tokens[first], tokens[second] = tokens[second], tokens[first]  # mountains stay with their islands (R29)
    names = state.game.components.board.island_ids
    text = f"{state._who()} swaps the tokens on {names[first]} and {names[second]}"
    return _done(state, Event("swap_tokens", text, {"seat": state.to_move}))


def _sacred_ground(state: YamataiState, island: int) -> list[Event]:
    state.island_building[island] = geo.SACRED_GROUND
    state.sacred_left -= 1
    name = state.game.components.board.island_ids[island]
    text = f"{state._who()} puts sacred ground on {name}"
    return _done(state, Event("sacred_ground", text, {"seat": state.to_move, "island": name}))


def _boat_to_move(state: YamataiState, spot: int) -> list[Event]:
    state.pending = spot
    state.phase = MOVE_TO
    name = state.game.components.board.spot_ids[spot]
    text = f"{state._who()} picks the boat on {name} to move"
    return [Event("move_from", text, {"seat": state.to_move, "spot": name})]


def _move_boat(state: YamataiState, target: int) -> list[Event]:
    origin = state.pending
    state.spot_boat[target] = state.spot_boat[origin]
    state.spot_boat[origin] = -1
    _relocate(state, origin, target)
    names = state.game.components.board.spot_ids
    text = f"{state._who()} moves the boat on {names[origin]} to {names[target]}"
    return _done(state, Event("move_boat", text, {"seat": state.to_move}))


def _reserve(state: YamataiState, tile: int) -> list[Event]:
    state.row[state.row.index(tile)] = -1
    state.reserved[state.to_move] |= 1 << tile
    code = state.game.components.buildings[tile].code
    return _done(state, Event("reserve", f"{state._who()} reserves {code}", {"seat": state.to_move, "tile": code}))


def _first_boat(state: YamataiState, spot: int) -> list[Event]:
    state.pending = spot
    state.phase = SWAP_BOAT_TO
    name = state.game.components.board.spot_ids[spot]
    text = f"{state._who()} picks the boat on {name} to swap"
    return [Event("swap_boat_from", text, {"seat": state.to_move, "spot": name})]


def _swap_boats(state: YamataiState, second: int) -> list[Event]:
    first = state.pending
    boats = state.spot_boat
    boats[first], boats[second] = boats[second], boats[first]
    _exchange(state, first, second)
    names = state.game.components.board.spot_ids
    text = f"{state._who()} swaps the boats on {names[first]} and {names[second]}"
    return _done(state, Event("swap_boats", text, {"seat": state.to_move}))


def _remove_boat(state: YamataiState, spot: int) -> list[Event]:
    state.reserve[state.spot_boat[spot]] += 1  # a removed boat returns to the reserve (R28)
    state.spot_boat[spot] = -1
    if spot in state.placed:
        state.placed.remove(spot)  # it no longer counts as placed this turn (R42)
        if spot == state.head:
            state.chain_closed = True  # no boat to go on from: placing is over (R42)
            state.head = -1
    text = f"{state._who()} removes the boat on {state.game.components.board.spot_ids[spot]}"
    return _done(state, Event("remove_boat", text, {"seat": state.to_move}))


def _preview_swap(state: YamataiState, pair: int) -> list[Event]:
    """A looked-at tile takes a row tile's slot; the row tile joins the looked-at tiles (R43)."""
    deck_tile, row_tile = divmod(pair, N_TILES)
    state.row[state.row.index(row_tile)] = deck_tile
    state.preview[state.preview.index(deck_tile)] = row_tile
    state.deck_within = after_exchange(state.deck_within, deck_tile, row_tile, state.pending)
    state.phase = PREVIEW_ORDER
    codes = [t.code for t in state.game.components.buildings]
    text = f"{state._who()} puts {codes[deck_tile]} in the row instead of {codes[row_tile]}"
    return [Event("preview_swap", text, {"seat": state.to_move}), *_auto_return(state)]


def _preview_keep(state: YamataiState, _: int) -> list[Event]:
    state.phase = PREVIEW_ORDER
    text = f"{state._who()} leaves the building row as it is"
    return [Event("preview_keep", text, {"seat": state.to_move}), *_auto_return(state)]


def _preview_return(state: YamataiState, tile: int) -> list[Event]:
    state.preview.remove(tile)
    return [*_put_back(state, tile), *_auto_return(state)]


_TARGETS = (
    (Ids.SWAP_TOKEN_TO, Ids.SWAP_TOKEN_FROM, _first_token),
    (Ids.SACRED, Ids.SWAP_TOKEN_TO, _swap_tokens),
    (Ids.MOVE_FROM, Ids.SACRED, _sacred_ground),
    (Ids.MOVE_TO, Ids.MOVE_FROM, _boat_to_move),
    (Ids.RESERVE, Ids.MOVE_TO, _move_boat),
    (Ids.SWAP_BOAT_FROM, Ids.RESERVE, _reserve),
    (Ids.SWAP_BOAT_TO, Ids.SWAP_BOAT_FROM, _first_boat),
    (Ids.REMOVE, Ids.SWAP_BOAT_TO, _swap_boats),
    (Ids.PREVIEW_SWAP, Ids.REMOVE, _remove_boat),
    (Ids.PREVIEW_KEEP, Ids.PREVIEW_SWAP, _preview_swap),
    (Ids.PREVIEW_RETURN, Ids.PREVIEW_KEEP, _preview_keep),
    (Ids.TOTAL, Ids.PREVIEW_RETURN, _preview_return),
)


def _put_back(state: YamataiState, tile: int) -> list[Event]:
    """One looked-at tile goes on top of the deck: its name for the previewer, only the fact for the rest."""
    state.deck.append(tile)  # each tile goes on top: the last one put back is the new top
    state.known_top[state.to_move] += 1
    seat = state.to_move
    code = state.game.components.buildings[tile].code
    return secret(
        seat,
        Event("preview_return", f"{state._who()} puts {code} back on top of the deck", {"seat": seat, "tile": code}),
        Event("preview_return", f"{state._who()} puts a looked-at tile back on top of the deck", {"seat": seat}),
    )


def _auto_return(state: YamataiState) -> list[Event]:
    """Put the last looked-at tile back by itself; the previewer knows the deck's top from then on (R43)."""
    events = _put_back(state, state.preview.pop()) if len(state.preview) == 1 else []
    if not state.preview:
        state.pending = -1
        state.power_ready = False
        state.phase = state.resume
    return events


def _done(state: YamataiState, event: Event) -> list[Event]:
    state.power_ready = False
    state.pending = -1
    state.phase = state.resume
    return [event]


def _relocate(state: YamataiState, origin: int, target: int) -> None:
    """A moved boat keeps its identity: placed this turn stays placed this turn (R28, R42)."""
    if origin in state.placed:
        state.placed[state.placed.index(origin)] = target
        if state.head == origin:
            state.head = target


def _exchange(state: YamataiState, first: int, second: int) -> None:
    placed = state.placed
    a = placed.index(first) if first in placed else -1
    b = placed.index(second) if second in placed else -1
    if a >= 0:
        placed[a] = second
    if b >= 0:
        placed[b] = first
    if state.head == first:
        state.head = second
    elif state.head == second:
        state.head = first
