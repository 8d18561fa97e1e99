"""The position as terminal text, drawn from `view(seat)` so it can never show more than that seat knows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from parlour.games.hanbok_runway.state import HanbokRunwayState


def _token(token: dict[str, Any], viewer: int | None) -> str:
    """`+3` face-up, `(+3)` face-down but known to the viewer, `??` face-down and unknown to the viewer;
    a face-down token somebody else has seen is marked `*`."""
    if token["face_up"]:
        return f"{token['value']:+d}"
    text = "??" if token["value"] is None else f"({token['value']:+d})"
    return text + "*" if any(seat != viewer for seat in token["known_by"]) else text


def _cards(counts: dict[str, int]) -> str:
    return ", ".join(name if n == 1 else f"{name} x{n}" for name, n in counts.items()) or "-"


def _header(view: dict[str, Any]) -> list[str]:
    seat = view["viewer"]
    who = "spectator" if seat is None else f"you are seat {seat}"
    if view["phase"] == "over":
        return [f"Hanbok Runway - game over ({who})"]
    step = view["phase"]
    if step == "sets":
        step = f"sets ({view['sets_this_turn']} made this turn)"
    elif step == "oval":
        step = f"oval on {view['oval_colour']}: peek at a queue token or flip an opponent's"
    lines = [f"Hanbok Runway - turn {view['turns_played'] + 1}, seat {view['to_move']} to move: {step} ({who})"]
    if view["end_triggered"]:
        lines.append("The end is triggered: the round is finishing.")
    return lines


def _queues(view: dict[str, Any], per_colour: int) -> list[str]:
    lines = [
        "Queues (tokens leave from position 1; ?? face-down, (n) face-down but known to you, * seen by somebody else):"
    ]
    for colour in view["colours"]:
        by_position = {token["position"]: token for token in colour["queue"]}
        cells = [
            f"{p}:{_token(by_position[p], view['viewer'])}" if p in by_position else f"{p}:--"
            for p in range(1, per_colour + 1)
        ]
        extra = f" + {colour['additional_vp']} additional" if colour["additional_vp"] else ""
        lines.append(f"  {colour['colour']:<7} {'  '.join(f'{c:<6}' for c in cells)} VP {colour['vp_trophies']}{extra}")
    return lines


def _supply(view: dict[str, Any]) -> list[str]:
    style = sum(view["style_discard"].values())
    fabric = sum(view["fabric_discard"].values())
    lines = [
        f"Decks: style {view['style_deck']}, fabric {view['fabric_deck']}; "
        f"discards: style {style} ({_cards(view['style_discard'])}), "
        f"fabric {fabric} ({_cards(view['fabric_discard'])}); "
        f"additional VP supply {view['additional_vp_supply']}"
    ]
    discarding = view["discarding"]
    if discarding["style"] or discarding["fabric"]:
        # R20: the cards named at this Pass go onto their piles together once the hand is down to the limit
        lines.append(f"Being discarded: {_cards(discarding['style'])} | {_cards(discarding['fabric'])}")
    return lines


def _player(view: dict[str, Any], player: dict[str, Any]) -> list[str]:
    seat = player["seat"]
    marks = [mark for mark, on in (("you", seat == view["viewer"]), ("start", seat == view["start_player"])) if on]
    name = f"Seat {seat}" + (f" ({', '.join(marks)})" if marks else "")
    tableau = player["tableau"]
    held = "1 card" if player["cards"] == 1 else f"{player['cards']} cards"
    lines = [f"{name}: {held}: {_cards(tableau['style'])} | {_cards(tableau['fabric'])}"]
    lines.append(f"  sets ({len(player['sets'])}):")
    for made in player["sets"]:
        token = made["token"]
        shown = _token(token, view["viewer"])
        lines.append(f"    {made['style']:<9} + {made['fabric']:<12} -> {token['colour']} {token['position']} {shown}")
    return lines


def _scores(view: dict[str, Any]) -> list[str]:
    first, second = (score["breakdown"] for score in view["scores"])
    duels = [
        f"{c['colour']} {first[c['colour'] + ' influence']:g}:{second[c['colour'] + ' influence']:g}"
        for c in view["colours"]
    ]
    lines = ["Influence (seat 0 : seat 1): " + ", ".join(duels), "Scores:"]
    for seat, score in enumerate(view["scores"]):
        won = [f"{name} {n:g}" for name, n in score["breakdown"].items() if " " not in name and n]
        lines.append(f"  seat {seat}: {score['total']:g} trophies ({', '.join(won) or 'no colour'})")
    winners = view["winners"]
    lines.append("Winner: " + (f"seat {winners[0]}" if len(winners) == 1 else "shared between both seats"))
    return lines


def render(state: HanbokRunwayState, seat: int | None) -> str:
    view = state.view(seat)
    lines = _header(view) + _queues(view, state.game.components.tokens_per_colour) + _supply(view)
    for player in view["players"]:
        lines += _player(view, player)
    if "scores" in view:
        lines += _scores(view)
    return "\n".join(lines)
