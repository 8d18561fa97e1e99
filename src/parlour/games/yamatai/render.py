"""Terminal rendering of a Yamataï position: the archipelago as a map, then tracks and mats.

The map draws every island where the board graph puts it, with its name (I01), what lies on it and a
`^` for a mountain; water spots sit on the island corners, each with its number (the one the moves
name: 07 is S007) after a mark: `.` free, `>` a free entry spot, a letter for a boat (upper case
when placed this turn). Only what `seat` may see is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.games.yamatai import board as geo
from parlour.games.yamatai.components import BOAT_LETTERS, RESOURCES, SLOTS
from parlour.games.yamatai.constants import END_REASONS, OVER, PHASE_NAMES
from parlour.games.yamatai.view import known_near_top

if TYPE_CHECKING:
    from parlour.games.yamatai.state import YamataiState

STEP = 0.866  # horizontal distance between neighbouring spots, in hex units
LEGEND = (
    "islands: INN + content + ^ mountain | content: 2-letter culture token, [B]/[O]/[P]/[G] a player's building,"
    " <T> torii, <P> palace, <S> sacred ground\n"
    "spots: mark + number (07 = S007) | mark: . free, > free entry spot, b bamboo w wood s stone c clay g gold"
    " (CAPITAL = placed this turn)"
)


def _island_content(state: YamataiState, island: int) -> str:
    code = state.island_building[island]
    if code == geo.TORII:
        return "<T>"
    if code == geo.PALACE:
        return "<P>"
    if code == geo.SACRED_GROUND:
        return "<S>"
    if code >= 0:
        return f"[{state.game.colours[code][0].upper()}]"
    token = state.island_token[island]
    if token >= 0:
        return " " + state.game.components.culture_colours[token][:2]
    return "  ."


def board_map(state: YamataiState) -> list[str]:
    board = state.game.components.board
    xs = [x for x, _ in board.spot_xy]
    left = min(xs)

    def col(x: float) -> int:
        return 5 + round((x - left) / STEP) * 4

    def line(y: float) -> int:
        return round(y * 2) + 2

    rows = max(line(y) for _, y in board.spot_xy) + 1
    width = max(col(x) for x in xs) + 6
    grid = [[" "] * width for _ in range(rows)]
    placed = set(state.placed)
    entries = set(board.entry_spots)
    for s, (x, y) in enumerate(board.spot_xy):
        boat = state.spot_boat[s]
        if boat >= 0:
            mark = BOAT_LETTERS[boat].upper() if s in placed else BOAT_LETTERS[boat]
        else:
            mark = ">" if s in entries else "."
        start = col(x) - 1  # spots on one line lie 8 columns apart: room for a mark and two digits
        grid[line(y)][start : start + 3] = list(f"{mark}{s + 1:02d}")
    for i, (x, y) in enumerate(board.island_xy):
        label = f"I{i + 1:02d}{_island_content(state, i)}{'^' if state.mountain[i] else ' '}"
        start = col(x) - 3
        grid[line(y)][start : start + len(label)] = list(label)
    return ["".join(row).rstrip() for row in grid]


def render(state: YamataiState, seat: int | None = None) -> str:
    game = state.game
    parts = game.components
    out = [f"Yamataï - round {state.round_no}", *board_map(state), LEGEND, ""]
    out.append("reserve: " + ", ".join(f"{state.reserve[c]} {RESOURCES[c]}" for c in range(5)))
    out.append(f"sacred ground tokens left: {state.sacred_left}")
    fleet = []
    for p, number in enumerate(state.fleet_track):
        if not number:
            fleet.append(f"{p + 1}:--")
        elif p < SLOTS:
            tile = parts.fleet[number - 1]
            boats = "".join(BOAT_LETTERS[c] * k for c, k in enumerate(tile.boats))
            fleet.append(f"{p + 1}:[{number} {boats} {tile.power}]")
        else:
            fleet.append(f"{p + 1}:[??]")
    out.append("fleet track: " + " ".join(fleet))
    out.append("turn order: " + " > ".join(f"{game.colours[s]}" for s in state.order))
    row = []
    for t in state.row:
        if t < 0:
            row.append("(empty)")
        else:
            building = parts.buildings[t]
            need = "".join(BOAT_LETTERS[c] * k for c, k in enumerate(building.needs))
            row.append(f"{building.code} {building.kind} {need} {building.pp}PP")
    out.append(f"building row: {' | '.join(row)}   (deck: {len(state.deck)})")
    if seat is not None and state.known_top[seat]:
        top = [parts.buildings[t].code for t in reversed(state.deck[len(state.deck) - state.known_top[seat] :])]
        out.append(f"  you know the deck's top: {', '.join(top)}")
    near = known_near_top(state, seat)
    for depth in sorted({d for _, d in near}):
        tiles = [parts.buildings[t].code for t, d in near if d == depth]
        out.append(f"  known to lie in the deck's top {depth}: {', '.join(tiles)}")
    out.append(f"specialists (deck: {len(state.spec_deck)}):")
    for k, sp in enumerate(state.spec_track):
        if sp < 0:
            out.append("  (empty)")
        else:
            spec = parts.specialists[sp]
            out.append(f"  {spec.name} {spec.pp}PP, {state.spec_coins[k]} coins: {spec.text}")
    kinds = parts.culture_colours
    for s in range(game.num_players):
        culture = " ".join(f"{kinds[k]}x{state.culture[6 * s + k]}" for k in range(6) if state.culture[6 * s + k])
        harbour = " ".join(f"{RESOURCES[c]}x{state.harbour[5 * s + c]}" for c in range(5) if state.harbour[5 * s + c])
        built = [t.code for t in parts.buildings if state.built[s] >> t.index & 1]
        reserved = [t.code for t in parts.buildings if state.reserved[s] >> t.index & 1]
        specs = [sp.name for sp in parts.specialists if state.specs[s] >> sp.index & 1]
        you = " (you)" if s == seat else ""
        out.append(
            f"seat {s} {game.colours[s]}{you}: {state.coins[s]} coins, {state.pp_tokens[s]} PP tokens,"
            f" {state.pieces[s]} buildings left, {state.discarded[s]} boats discarded"
        )
        out.append(f"  culture: {culture or '-'} | harbour: {harbour or '-'}")
        out.append(f"  built: {' '.join(built) or '-'} | reserved: {' '.join(reserved) or '-'}")
        out.append(f"  specialists: {', '.join(specs) or '-'}")
    if state.phase == OVER:
        out.append("game over: " + END_REASONS[state.end_reason])
        for s, score in enumerate(state.scores()):
            parts_text = ", ".join(f"{k} {v:+g}" for k, v in score.breakdown.items())
            out.append(f"  {game.colours[s]}: {score.total:g} PP ({parts_text})")
        out.append("winner: " + ", ".join(game.colours[s] for s in state.winners()))
        return "\n".join(out)
    hand = " ".join(f"{RESOURCES[c]}x{state.hand[c]}" for c in range(5) if state.hand[c])
    power = parts.fleet[state.tile - 1].power if state.tile else "-"
    status = "ready" if state.power_ready or state.minus_one else "spent"
    out.append(
        f"to move: seat {state.to_move} ({game.colours[state.to_move]}) - {PHASE_NAMES[state.phase]};"
        f" fleet tile {state.tile or '-'} power {power} ({status if state.tile else '-'}); boats in hand: {hand or '-'}"
    )
    if state.preview and seat == state.to_move:
        out.append("  looking at: " + ", ".join(parts.buildings[t].code for t in state.preview))
    return "\n".join(out)
