"""The position as text for a terminal, showing only what the seat may see (R27; view.py says what
that is)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.games.hatairo.components import COLOURS, FLAGS, MOTIFS, PLAYER_COLOURS, POINTS, TILES, Points
from parlour.games.hatairo.constants import DISCARDING, OVER, PHASE_NAMES
from parlour.games.hatairo.scoring import ROWS, solo_rank
from parlour.games.hatairo.view import flag_names, sees_board

if TYPE_CHECKING:
    from parlour.games.hatairo.state import HatairoState


CELL_WIDTH = 21
LEFT_WIDTH = 26


def flag_line(flag_id: int, points: Points = POINTS) -> str:
    """One card with everything a player needs: requirement, VP, bonus, topography, continent, features."""
    flag = FLAGS[flag_id]
    needs = "+".join(COLOURS[c] for c in flag.required)
    features = ", ".join(sorted(flag.features)) or "no feature"
    return (
        f"{flag.name} — needs {needs}; {points.flag_vp[flag_id]} VP; bonus {COLOURS[flag.bonus]}; "
        f"{flag.topography}, {flag.continent}; {features}"
    )


def motif_text(motif_id: int, points: Points = POINTS) -> str:
    """A motif with what it is worth: the VP per matching flag of a type-I motif, or its conversion."""
    motif = MOTIFS[motif_id]
    if motif.kind == "pigment":
        return f"Pigment ({points.motif_vp[motif_id]} VP per pigment left)"
    if motif.type == "I":
        return f"{motif.design} ({points.motif_vp[motif_id]} VP per flag)"
    if motif.kind == "three_for_two":
        return "3-for-2 (three of a colour pay two of any)"
    return f"{motif.design} (type II)"


def tile_text(tile_id: int, points: Points = POINTS) -> str:
    """A topography tile with its VP for 0/1/2/3 matching flags in its column."""
    tile = TILES[tile_id]
    return f"{tile.topography} {'/'.join(str(v) for v in points.tile_vp[tile_id])}"


def _cell(text: str, width: int = CELL_WIDTH) -> str:
    return text[: width - 1].ljust(width)


def _gallery_lines(state: HatairoState, owner: int, seat: int | None) -> list[str]:
    board = state.boards[owner]
    columns, points = state.game.columns, state.game.components
    visible = sees_board(state, owner, seat)
    header = " " * LEFT_WIDTH + "".join(_cell(f"col {c + 1}") for c in range(columns))
    tops = _cell("  motifs above:", LEFT_WIDTH) + "".join(
        _cell(f"[{MOTIFS[m].design}]" if m >= 0 else "[ ]") for m in board.motifs[:columns]
    )
    lines = [header, tops]
    for row in range(ROWS):
        motif = board.motifs[columns + row]
        left = _cell(f"  row {row + 1} [{MOTIFS[motif].design}]" if motif >= 0 else f"  row {row + 1} [ ]", LEFT_WIDTH)
        cells = []
        for column in range(columns):
            flag = board.gallery[row * columns + column]
            cells.append(_cell(f"{FLAGS[flag].name} {points.flag_vp[flag]}" if flag >= 0 else "·"))
        lines.append(left + "".join(cells))
    if visible:
        tiles = "".join(_cell(tile_text(t, points) if t >= 0 else "-") for t in board.tiles)
        lines.append(_cell("  topography:", LEFT_WIDTH) + tiles)
    return lines


def _board_lines(state: HatairoState, owner: int, seat: int | None) -> list[str]:
    board = state.boards[owner]
    you = " (you)" if owner == seat else ""
    lines = [f"{PLAYER_COLOURS[owner]}{you}: {board.placed} flags"]
    if not sees_board(state, owner, seat):
        # R5: her running score counts the pigments she kept, so it stays hidden with her choices.
        lines += _gallery_lines(state, owner, seat)
        lines.append("  palette, atelier and topography: hidden until every player has chosen")
        return lines
    score = state.scores()[owner]
    parts = ", ".join(f"{k} {int(v)}" for k, v in score.breakdown.items())
    lines[0] += f", {int(score.total)} VP now ({parts})"
    lines += _gallery_lines(state, owner, seat)
    pigments = ", ".join(f"{COLOURS[c]} {n}" for c, n in enumerate(board.palette) if n) or "empty"
    lines.append(f"  palette ({board.pigments()}/10): {pigments}")
    if board.palette_flags:
        lines.append("    as flag cards: " + ", ".join(flag_names(board.palette_flags)))
    lines.append("  atelier:" + ("" if board.atelier else " empty"))
    lines += [f"    {flag_line(f, state.game.components)}" for f in board.atelier]
    if owner == seat and not state.revealed:
        if board.hand:
            lines.append("  your cards to choose from:")
            lines += [f"    {flag_line(f, state.game.components)}" for f in board.hand]
        if board.picks:
            lines.append("  drafted: " + ", ".join(flag_names(board.picks)))
        for number, cards in enumerate(board.passed, start=1):
            lines.append(f"  passed on after pick {number}: " + ", ".join(flag_names(cards)))
        if board.returned:
            lines.append("  left after the draft, back in the Flag Supply: " + ", ".join(flag_names(board.returned)))
    return lines


def render_text(state: HatairoState, seat: int | None) -> str:
    game = state.game
    mover = state.current_player()
    status = "game over" if state.phase == OVER else f"{PLAYER_COLOURS[mover]} to move — {PHASE_NAMES[state.phase]}"
    lines = [f"Hatairo ({game.num_players} players, {'beginner' if game.columns == 3 else 'standard'}) · {status}"]
    if state.trigger >= 0 and state.phase != OVER:
        lines.append(f"Last round: {PLAYER_COLOURS[state.trigger]} has completed her gallery.")
    lines.append("Market (only the rightmost card of a row can be taken):")
    for index, row in enumerate(state.market):
        names = " · ".join(flag_names(row[:-1]))
        lines.append(
            f"  row {index + 1}: "
            + (f"{names} · " if names else "")
            + (f"[{flag_line(row[-1], state.game.components)}]" if row else "empty")
        )
    piles = " / ".join(str(len(p)) for p in state.piles)
    supply = ", ".join(motif_text(m, state.game.components) for m in state.motif_supply) or "empty"
    lines.append(f"Motif supply: {supply}   (motif pile{'s' if len(state.piles) > 1 else ''}: {piles})")
    lines.append(
        f"Flag supply: {len(state.flag_supply)} cards · Pigment supply: {state.pigment_supply} · "
        f"Box: {len(state.box_flags)} flags, {len(state.box_motifs)} motifs"
    )
    if state.sketch >= 0:
        unpaid = ", ".join(f"{COLOURS[c]} {n}" for c, n in enumerate(state.remaining) if n) or "nothing"
        lines.append(f"Completing {FLAGS[state.sketch].name}: still to pay {unpaid}")
    if state.spending:
        unit, _, colour = state.spending
        n = 1 if unit == DISCARDING else unit + 1
        lines.append(
            f"Spending {n} {COLOURS[colour]}: palette flag cards leave the game, pigment cards go back to the "
            "Pigment Supply"
        )
    if state.bonuses:
        lines.append(
            f"Bonus pigments on offer: {', '.join(COLOURS[c] for c in state.bonuses)} (take {state.bonus_count})"
        )
    for owner in range(game.num_players):
        lines.append("")
        lines += _board_lines(state, owner, seat)
    if state.phase == OVER:
        lines.append("")
        totals = [int(score.total) for score in state.scores()]
        lines.append("Final scores: " + ", ".join(f"{PLAYER_COLOURS[s]} {t}" for s, t in enumerate(totals)))
        if game.solo:
            lines.append(f"Rank: {solo_rank(totals[0])}")
        else:
            lines.append("Winner(s): " + ", ".join(PLAYER_COLOURS[s] for s in state.winners()))
    return "\n".join(line.rstrip() for line in lines)
