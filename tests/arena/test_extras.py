"""The per-game features agree with the moves actually made in real games."""

from __future__ import annotations

from collections import Counter

from parlour.arena.extras import question
from parlour.arena.match import play
from parlour.arena.tournament import plan


def played(game: str, agents: str, index: int = 0) -> tuple[dict, Counter[str]]:
    """A game's record and how many moves of each kind its history holds."""
    tournament = plan(game, agents, 1, seed=3)
    record = play(tournament, index)
    state_actions = tournament.load().actions
    return record, Counter(state_actions[i].kind for i in record["actions"])


def total(record: dict, prefix: str) -> float:
    return sum(value for seat in record["arena"]["features"] for name, value in seat.items() if name.startswith(prefix))


def test_move_kinds_count_every_move_once() -> None:
    record, kinds = played("nim", "random,random")
    assert total(record, "move: ") == len(record["actions"]) == sum(kinds.values())
    assert question("nim") == "Which kinds of move go with winning?"


def test_hatflings_counts_each_special_brought_in() -> None:
    record, kinds = played("hatflings", "greedy,random")
    actions = plan("hatflings", "random,random", 1).load().actions
    specials = sum(
        1 for i in record["actions"] if actions[i].kind == "place" and actions[i].param("halfling") != "normal"
    )
    assert total(record, "special: ") == specials + 2 * kinds["greedy"]  # a push also counts "greedy by its push"
    assert total(record, "specials brought in") == specials + kinds["greedy"]
    assert "Special halflings" in question("hatflings")


def test_hatairo_counts_flags_motifs_and_topography() -> None:
    record, kinds = played("hatairo", "random,random")
    assert total(record, "flag: ") == kinds["complete"] > 0
    assert total(record, "motif: ") == kinds["motif"]
    assert total(record, "topography: ") == kinds["topography"]


def test_yamatai_counts_specialists_and_buildings_by_type() -> None:
    record, kinds = played("yamatai", "random,random,random,random")
    assert total(record, "specialist: ") == kinds["recruit"]
    assert total(record, "building tile: ") == kinds["build"] > 0
    names = {name for seat in record["arena"]["features"] for name in seat if name.startswith("building: ")}
    assert names <= {"building: standard", "building: torii", "building: palace"}
    assert total(record, "fleet tile: ") == kinds["fleet"] > 0


def test_hanbok_runway_counts_the_style_card_and_colour_of_every_set() -> None:
    record, kinds = played("hanbok_runway", "greedy,random")
    actions = plan("hanbok_runway", "random,random", 1).load().actions
    styles = Counter(actions[i].param("style") for i in record["actions"] if actions[i].kind == "set")
    counted = Counter()
    for seat in record["arena"]["features"]:
        counted.update(
            {name.removeprefix("style card: "): v for name, v in seat.items() if name.startswith("style card: ")}
        )
    assert counted == styles and sum(styles.values()) == kinds["set"] > 0
    assert total(record, "token colour: ") == kinds["set"]
    assert "Style cards" in question("hanbok_runway")
