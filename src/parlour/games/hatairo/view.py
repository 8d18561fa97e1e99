"""What a seat may see (R27), as a JSON-able view.

Public: the Market, the Motif Supply, every board after the set-up reveal, the game box and all
attributes of every visible card. Hidden: the Flag Supply and motif pile order, and before the
reveal the other players' dealt cards, kept cards and topography tiles (R5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.games.hatairo.components import COLOURS, FLAGS, MOTIFS, PLAYER_COLOURS, TILES
from parlour.games.hatairo.constants import CELL, DISCARDING, DRAFTING, OVER, PHASE_NAMES, SPARE_SLOT
from parlour.games.hatairo.moves import space_name
from parlour.games.hatairo.scoring import ROWS, solo_rank

if TYPE_CHECKING:
    from parlour.games.hatairo.state import HatairoState


def flag_names(flags: list[int]) -> list[str]:
    return [FLAGS[f].name for f in flags]


def sees_board(state: HatairoState, owner: int, seat: int | None) -> bool:
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
    if not sees_board(state, owner, seat):
        entry["setup"] = "hidden until every player has chosen"
        return entry
    entry["topography"] = [TILES[t].topography if t >= 0 else None for t in board.tiles]
    entry["palette"] = {COLOURS[c]: board.palette[c] for c in range(len(COLOURS)) if board.palette[c]}
    entry["pigments"] = board.pigments()
    entry["palette_flags"] = flag_names(board.palette_flags)
    entry["atelier"] = flag_names(board.atelier)
    if owner == seat and not state.revealed:
        entry["hand"] = flag_names(board.hand)
        if state.game.drafting:
            entry["drafted"] = flag_names(board.picks)
            entry["passed"] = [_passed_view(state, cards) for cards in board.passed]
            if board.returned:
                entry["returned"] = flag_names(board.returned)
    return entry


def _passed_view(state: HatairoState, cards: list[int]) -> dict[str, Any]:
    """A hand she passed on, and where its cards are now: what she knows from the draft (R50).

    Each seat the hand reached since drafted one of them, its holder has the rest, and after the
    draft the rest went back to the Flag Supply. The counts come from where the cards really are,
    so a re-dealt copy that loses track of them shows a different view.
    """
    passed = set(cards)
    places: dict[str, int] = {}
    for owner, board in enumerate(state.boards):
        colour = PLAYER_COLOURS[owner]
        if state.phase == DRAFTING:  # after the draft a hand count would tell what she has kept
            places[f"{colour}'s hand"] = len(passed.intersection(board.hand))
        places[f"drafted by {colour}"] = len(passed.intersection(board.picks))
    places["Flag Supply"] = len(passed.intersection(state.flag_supply))
    return {"cards": flag_names(cards), "now": {place: n for place, n in places.items() if n}}


def view(state: HatairoState, seat: int | None) -> dict[str, Any]:
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
        "market": [flag_names(row) for row in state.market],
        "flag_supply": len(state.flag_supply),
        "motif_piles": [len(pile) for pile in state.piles],
        "motif_supply": [MOTIFS[m].design for m in state.motif_supply],
        "pigment_supply": state.pigment_supply,
        "box": {"flags": flag_names(state.box_flags), "motifs": [MOTIFS[m].design for m in state.box_motifs]},
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
    if state.revealed:
        # Once the set-ups are revealed, everything a score counts is on the table: the score as it
        # stands, for the players' panel.
        view["scores_now"] = [score.to_json() for score in state.scores()]
    if state.phase == OVER:
        view["scores"] = [score.to_json() for score in state.scores()]
        view["winners"] = state.winners()
        if game.solo:
            view["rank"] = solo_rank(int(state.scores()[0].total))
    return view
