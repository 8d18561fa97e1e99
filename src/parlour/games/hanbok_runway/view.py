"""What one seat may see: the JSON observation of a position.

Public (R7, R21): both tableaux, every set's cards, which token each set earned (colour and queue
position), face-up token values, who knows each token (peeks and takes are seen being made), deck
sizes, discard piles and VP piles. Private: a face-down token's value, shown only to the seats in
its knowledge set; a spectator sees only face-up values. Deck order is never shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.games.hanbok_runway.components import SYMBOLS
from parlour.games.hanbok_runway.constants import PHASE_NAMES

if TYPE_CHECKING:
    from parlour.games.hanbok_runway.state import HanbokRunwayState


def token_view(state: HanbokRunwayState, seat: int | None, token: int) -> dict[str, Any]:
    comps = state.game.components
    colour, position = divmod(token, comps.tokens_per_colour)
    known = state.known[token]
    return {
        "colour": comps.colours[colour],
        "position": position + 1,
        "face_up": state.face_up[token],
        "known_by": [s for s in (0, 1) if known >> s & 1],
        "value": state.value[token] if state.knows(seat, token) else None,
    }


def _counts(names: tuple[str, ...] | list[str], counts: list[int]) -> dict[str, int]:
    return {name: n for name, n in zip(names, counts, strict=True) if n}


def _discarding(state: HanbokRunwayState, kinds: list[str]) -> dict[str, dict[str, int]]:
    """The cards named so far at a Pass step, on their way to the discard piles (R20)."""
    styles = len(SYMBOLS)
    style = [0] * styles
    fabric = [0] * len(kinds)
    for card in state.discarding:
        if card < styles:
            style[card] += 1
        else:
            fabric[card - styles] += 1
    return {"style": _counts(SYMBOLS, style), "fabric": _counts(kinds, fabric)}


def view(state: HanbokRunwayState, seat: int | None) -> dict[str, Any]:
    comps = state.game.components
    kinds = [comps.kind_label(k) for k in range(len(comps.fabric_kinds))]
    per_colour = comps.tokens_per_colour
    colours = []
    for colour, name in enumerate(comps.colours):
        first = colour * per_colour
        colours.append(
            {
                "colour": name,
                "vp_trophies": comps.vp_trophies[colour],
                "additional_vp": state.additional[colour],
                "queue": [token_view(state, seat, t) for t in range(first + state.taken[colour], first + per_colour)],
            }
        )
    players = []
    for player in (0, 1):
        players.append(
            {
                "seat": player,
                "tableau": {
                    "style": _counts(SYMBOLS, state.tableau_style[player]),
                    "fabric": _counts(kinds, state.tableau_fabric[player]),
                },
                "cards": state._hand_size(player),
                "sets": [
                    {"style": SYMBOLS[symbol], "fabric": kinds[kind], "token": token_view(state, seat, token)}
                    for symbol, kind, token in zip(
                        state.set_symbols[player], state.set_kinds[player], state.set_tokens[player], strict=True
                    )
                ],
            }
        )
    view: dict[str, Any] = {
        "game": state.game.name,
        "viewer": seat,
        "phase": PHASE_NAMES[state.phase],
        "to_move": state.current_player(),
        "start_player": state.start,
        "turns_played": state.turns_played,
        "sets_this_turn": state.sets_this_turn,
        "end_triggered": state.triggered,
        "oval_colour": comps.colours[state.oval_colour] if state.oval_colour >= 0 else None,
        "style_deck": len(state.style_deck),
        "fabric_deck": len(state.fabric_deck),
        "style_discard": _counts(SYMBOLS, state.style_discard),
        "fabric_discard": _counts(kinds, state.fabric_discard),
        "discarding": _discarding(state, kinds),
        "additional_vp_supply": state.supply,
        "colours": colours,
        "players": players,
    }
    if state.is_terminal():
        view["scores"] = [score.to_json() for score in state.scores()]
        view["winners"] = state.winners()
    return view
