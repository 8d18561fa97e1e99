"""Yamataï's fixed action space: every sub-decision of a turn as one prebuilt action.

A turn is split into small steps so that no legal list grows large: a boat placement is one
action per boat, a Collect is one action per token, a recruit is "which specialist" then "which
payment", and a fleet power is "use it" then its targets one at a time. Each family of actions
occupies a contiguous block of ids, so an id is found by arithmetic, never by search.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from parlour.engine.actions import Action
from parlour.games.yamatai.components import RESOURCES, Components

N_ISLANDS = 34
N_SPOTS = 90
N_TILES = 28
N_SPECIALISTS = 18
N_KINDS = 6

KIND_PAIRS = tuple(combinations(range(N_KINDS), 2))
KIND_TRIPLES = tuple(combinations(range(N_KINDS), 3))


class Ids:
    """Offsets of each action family in the action space."""

    FLEET: Final = 0
    BUY: Final = FLEET + 10
    SELL: Final = BUY + 5
    END_TRADE: Final = SELL + 5
    PLACE: Final = END_TRADE + 1  # + colour * N_SPOTS + spot
    STOP_PLACING: Final = PLACE + 5 * N_SPOTS
    COLLECT: Final = STOP_PLACING + 1
    STOP_COLLECTING: Final = COLLECT + N_ISLANDS
    BUILD: Final = STOP_COLLECTING + 1  # + tile * N_ISLANDS + island
    SKIP_IIIB: Final = BUILD + N_TILES * N_ISLANDS
    KEEP: Final = SKIP_IIIB + 1
    RECRUIT: Final = KEEP + 5
    NO_RECRUIT: Final = RECRUIT + N_SPECIALISTS
    PAY_SAME: Final = NO_RECRUIT + 1
    PAY_THREE: Final = PAY_SAME + N_KINDS
    PAY_TWO: Final = PAY_THREE + len(KIND_TRIPLES)
    END_TURN: Final = PAY_TWO + len(KIND_PAIRS)
    USE_POWER: Final = END_TURN + 1
    SWAP_TOKEN_FROM: Final = USE_POWER + 1
    SWAP_TOKEN_TO: Final = SWAP_TOKEN_FROM + N_ISLANDS
    SACRED: Final = SWAP_TOKEN_TO + N_ISLANDS
    MOVE_FROM: Final = SACRED + N_ISLANDS
    MOVE_TO: Final = MOVE_FROM + N_SPOTS
    RESERVE: Final = MOVE_TO + N_SPOTS
    SWAP_BOAT_FROM: Final = RESERVE + N_TILES
    SWAP_BOAT_TO: Final = SWAP_BOAT_FROM + N_SPOTS
    REMOVE: Final = SWAP_BOAT_TO + N_SPOTS
    PREVIEW_SWAP: Final = REMOVE + N_SPOTS  # + deck tile * N_TILES + row tile
    PREVIEW_KEEP: Final = PREVIEW_SWAP + N_TILES * N_TILES
    PREVIEW_RETURN: Final = PREVIEW_KEEP + 1
    TOTAL: Final = PREVIEW_RETURN + N_TILES


def build_actions(parts: Components) -> list[Action]:
    """Every action, each at the index of its id, with a readable unique label."""
    isl, spt = parts.board.island_ids, parts.board.spot_ids
    tiles = [t.code for t in parts.buildings]
    kinds = parts.culture_colours
    out: list[Action] = []

    def add(label: str, kind: str, **params: object) -> None:
        out.append(Action(len(out), label, kind, tuple(params.items())))

    for number in range(1, 11):
        add(f"take fleet tile {number}", "fleet", tile=number)
    for c, r in enumerate(RESOURCES):
        add(f"buy a {r} boat", "buy", resource=r, colour=c)
    for c, r in enumerate(RESOURCES):
        add(f"sell a {r} boat", "sell", resource=r, colour=c)
    add("end trading", "end_trade")
    for c, r in enumerate(RESOURCES):
        for name in spt:
            add(f"place {r} boat at {name}", "place", resource=r, colour=c, spot=name)
    add("stop placing boats", "stop_placing")
    for name in isl:
        add(f"collect the token on {name}", "collect", island=name)
    add("stop collecting", "stop_collecting")
    for code in tiles:
        for name in isl:
            add(f"build {code} on {name}", "build", tile=code, island=name)
    add("neither collect nor build", "skip_collect_build")
    for c, r in enumerate(RESOURCES):
        add(f"keep a {r} boat in the harbour", "keep", resource=r, colour=c)
    for specialist in parts.specialists:
        add(f"recruit the {specialist.name}", "recruit", specialist=specialist.name)
    add("recruit no specialist", "no_recruit")
    for colour in kinds:
        add(f"pay two {colour} tokens", "pay", tokens=[colour, colour])
    for a, b, c in KIND_TRIPLES:
        add(f"pay {kinds[a]}, {kinds[b]} and {kinds[c]} tokens", "pay", tokens=[kinds[a], kinds[b], kinds[c]])
    for a, b in KIND_PAIRS:
        add(f"pay {kinds[a]} and {kinds[b]} tokens", "pay", tokens=[kinds[a], kinds[b]])
    add("end the turn", "end_turn")
    add("use the fleet power", "use_power")
    for name in isl:
        add(f"swap the token on {name}", "swap_token_from", island=name)
    for name in isl:
        add(f"with the token on {name}", "swap_token_to", island=name)
    for name in isl:
        add(f"put sacred ground on {name}", "sacred_ground", island=name)
    for name in spt:
        add(f"move the boat on {name}", "move_from", spot=name)
    for name in spt:
        add(f"move it to {name}", "move_to", spot=name)
    for code in tiles:
        add(f"reserve {code}", "reserve", tile=code)
    for name in spt:
        add(f"swap the boat on {name}", "swap_boat_from", spot=name)
    for name in spt:
        add(f"with the boat on {name}", "swap_boat_to", spot=name)
    for name in spt:
        add(f"remove the boat on {name}", "remove_boat", spot=name)
    for deck_tile in tiles:
        for row_tile in tiles:
            add(f"put {deck_tile} in the row instead of {row_tile}", "preview_swap", tile=deck_tile, row_tile=row_tile)
    add("leave the building row as it is", "preview_keep")
    for code in tiles:
        add(f"put {code} back on top of the deck", "preview_return", tile=code)
    if len(out) != Ids.TOTAL:
        raise AssertionError(f"action table has {len(out)} entries, expected {Ids.TOTAL}")
    return out
