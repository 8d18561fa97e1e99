"""What a seat may see (R27), as a JSON-able view and as text for a terminal.

Public: the Market, the Motif Supply, every board after the set-up reveal, the game box and all
attributes of every visible card. Hidden: the Flag Supply and motif pile order, and before the
reveal the other players' dealt cards, kept cards and topography tiles (R5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.games.hatairo.components import COLOURS, FLAGS, MOTIFS, PLAYER_COLOURS, TILES
from parlour.games.hatairo.moves import space_name
from parlour.games.hatairo.scoring import ROWS, solo_rank

if TYPE_CHECKING:
    from parlour.games.hatairo.rules import HatairoState

CELL_WIDTH = 21
LEFT_WIDTH = 26


def _names(flags: list[int]) -> list[str]:
    return [FLAGS[f].name for f in flags]


def _sees_board(state: HatairoState, owner: int, seat: int | None) -> bool:
    return state.revealed or owner == seat


def _board_view(state: HatairoState, owner: int, seat: int | None) -> dict[str, Any]:
    board = state.boards[owner]
    columns = state.game.columns
    entry: dict[str, Any] = {
        "seat": owner,
        "colour": PLAYER_COLOURS[owner],
        "turns": state.turns[owner],
        "flags_completed": board.placed,
        "gallery": [
            [FLAGS[f].name if f >= 0 else None for f in board.gallery[r * columns : (r + 1) * columns]]
            for r in range(ROWS)
        ],
        "motifs": {
            space_name(space, columns): MOTIFS[m].design if m >= 0 else None for space, m in enumerate(board.motifs)
        },
    }
    if not _sees_board(state, owner, seat):
        entry["setup"] = "hidden until every player has chosen"
        return entry
    entry["topography"] = [TILES[t].topography if t >= 0 else None for t in board.tiles]
    entry["palette"] = {COLOURS[c]: board.palette[c] for c in range(len(COLOURS)) if board.palette[c]}
    entry["pigments"] = board.pigments()
    entry["palette_flags"] = _names(board.palette_flags)
    entry["atelier"] = _names(board.atelier)
    if owner == seat and not state.revealed:
        entry["hand"] = _names(board.hand)
        if state.game.drafting:
            entry["drafted"] = _names(board.picks)
            entry["passed"] = [_passed_view(state, cards) for cards in board.passed]
            if board.returned:
                entry["returned"] = _names(board.returned)
    return entry


def _passed_view(state: HatairoState, cards: list[int]) -> dict[str, Any]:
    """A hand she passed on, and where its cards are now: what she knows from the draft (R50).

    Each seat the hand reached since drafted one of them, its holder has the rest, and after the
    draft the rest went back to the Flag Supply. The counts come from where the cards really are,
    so a re-dealt copy that loses track of them shows a different view.
    """
    from parlour.games.hatairo.rules import DRAFTING

    passed = set(cards)
    places: dict[str, int] = {}
    for owner, board in enumerate(state.boards):
        colour = PLAYER_COLOURS[owner]
        if state.phase == DRAFTING:  # after the draft a hand count would tell what she has kept
            places[f"{colour}'s hand"] = len(passed.intersection(board.hand))
        places[f"drafted by {colour}"] = len(passed.intersection(board.picks))
    places["Flag Supply"] = len(passed.intersection(state.flag_supply))
    return {"cards": _names(cards), "now": {place: n for place, n in places.items() if n}}


def state_view(state: HatairoState, seat: int | None) -> dict[str, Any]:
    from parlour.games.hatairo.rules import CELL, DISCARDING, OVER, PHASE_NAMES, SPARE_SLOT

    game = state.game
    view: dict[str, Any] = {
        "game": "hatairo",
        "phase": PHASE_NAMES[state.phase],
        "to_move": state.current_player(),
        "active": state.active,
        "starting_player": 0,
        "end_triggered_by": state.trigger,
        "beginner": game.options["beginner"],
        "variant": game.options["variant"],
        "market": [_names(row) for row in state.market],
        "flag_supply": len(state.flag_supply),
        "motif_piles": [len(pile) for pile in state.piles],
        "motif_supply": [MOTIFS[m].design for m in state.motif_supply],
        "pigment_supply": state.pigment_supply,
        "box": {"flags": _names(state.box_flags), "motifs": [MOTIFS[m].design for m in state.box_motifs]},
        "players": [_board_view(state, owner, seat) for owner in range(game.num_players)],
    }
    if state.sketch >= 0:
        view["completing"] = {
            "flag": FLAGS[state.sketch].name,
            "cell": None if state.phase == CELL else state.cell,
            "unpaid": {COLOURS[c]: n for c, n in enumerate(state.remaining) if n},
            "spare_from": COLOURS[state.spare_from] if state.phase == SPARE_SLOT else None,
        }
    if state.spending:
        unit, _, colour = state.spending
        view["spending"] = {"pigment": COLOURS[colour], "n": 1 if unit == DISCARDING else unit + 1}
    if state.bonuses:
        view["bonus_choice"] = {"bonuses": [COLOURS[c] for c in state.bonuses], "can_take": state.bonus_count}
    if state.phase == OVER:
        view["scores"] = [score.to_json() for score in state.scores()]
        view["winners"] = state.winners()
        if game.solo:
            view["rank"] = solo_rank(int(state.scores()[0].total))
    return view


def flag_line(flag_id: int) -> str:
    """One card with everything a player needs: requirement, VP, bonus, topography, continent, features."""
    flag = FLAGS[flag_id]
    needs = "+".join(COLOURS[c] for c in flag.required)
    features = ", ".join(sorted(flag.features)) or "no feature"
    return (
        f"{flag.name} — needs {needs}; {flag.vp} VP; bonus {COLOURS[flag.bonus]}; "
        f"{flag.topography}, {flag.continent}; {features}"
    )


def motif_text(motif_id: int) -> str:
    """A motif with what it is worth: the VP per matching flag of a type-I motif, or its conversion."""
    motif = MOTIFS[motif_id]
    if motif.kind == "pigment":
        return f"Pigment ({motif.vp_per_match} VP per pigment left)"
    if motif.type == "I":
        return f"{motif.design} ({motif.vp_per_match} VP per flag)"
    if motif.kind == "three_for_two":
        return "3-for-2 (three of a colour pay two of any)"
    return f"{motif.design} (type II)"


def tile_text(tile_id: int) -> str:
    """A topography tile with its VP for 0/1/2/3 matching flags in its column."""
    tile = TILES[tile_id]
    return f"{tile.topography} {'/'.join(str(v) for v in tile.vp)}"


def _cell(text: str, width: int = CELL_WIDTH) -> str:
    return text[: width - 1].ljust(width)


def _gallery_lines(state: HatairoState, owner: int, seat: int | None) -> list[str]:
    board = state.boards[owner]
    columns = state.game.columns
    visible = _sees_board(state, owner, seat)
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
            cells.append(_cell(f"{FLAGS[flag].name} {FLAGS[flag].vp}" if flag >= 0 else "·"))
        lines.append(left + "".join(cells))
    if visible:
        tiles = "".join(_cell(tile_text(t) if t >= 0 else "-") for t in board.tiles)
        lines.append(_cell("  topography:", LEFT_WIDTH) + tiles)
    return lines


def _board_lines(state: HatairoState, owner: int, seat: int | None) -> list[str]:
    board = state.boards[owner]
    you = " (you)" if owner == seat else ""
    lines = [f"{PLAYER_COLOURS[owner]}{you}: {board.placed} flags"]
    if not _sees_board(state, owner, seat):
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
        lines.append("    as flag cards: " + ", ".join(_names(board.palette_flags)))
    lines.append("  atelier:" + ("" if board.atelier else " empty"))
    lines += [f"    {flag_line(f)}" for f in board.atelier]
    if owner == seat and not state.revealed:
        if board.hand:
            lines.append("  your cards to choose from:")
            lines += [f"    {flag_line(f)}" for f in board.hand]
        if board.picks:
            lines.append("  drafted: " + ", ".join(_names(board.picks)))
        for number, cards in enumerate(board.passed, start=1):
            lines.append(f"  passed on after pick {number}: " + ", ".join(_names(cards)))
        if board.returned:
            lines.append("  left after the draft, back in the Flag Supply: " + ", ".join(_names(board.returned)))
    return lines


def render_text(state: HatairoState, seat: int | None) -> str:
    from parlour.games.hatairo.rules import DISCARDING, OVER, PHASE_NAMES

    game = state.game
    mover = state.current_player()
    status = "game over" if state.phase == OVER else f"{PLAYER_COLOURS[mover]} to move — {PHASE_NAMES[state.phase]}"
    lines = [f"Hatairo ({game.num_players} players, {'beginner' if game.columns == 3 else 'standard'}) · {status}"]
    if state.trigger >= 0 and state.phase != OVER:
        lines.append(f"Last round: {PLAYER_COLOURS[state.trigger]} has completed her gallery.")
    lines.append("Market (only the rightmost card of a row can be taken):")
    for index, row in enumerate(state.market):
        names = " · ".join(_names(row[:-1]))
        lines.append(
            f"  row {index + 1}: " + (f"{names} · " if names else "") + (f"[{flag_line(row[-1])}]" if row else "empty")
        )
    piles = " / ".join(str(len(p)) for p in state.piles)
    supply = ", ".join(motif_text(m) for m in state.motif_supply) or "empty"
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
