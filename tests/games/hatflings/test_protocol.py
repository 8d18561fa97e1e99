"""Hatflings! through the engine protocol: actions, reasons, views, rendering, chance, evaluator, data."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

import parlour
from parlour.engine import DataError, IllegalAction, Rng
from parlour.games.hatflings import components
from parlour.games.hatflings.constants import PIG_MOVE

from .positions import at, kinds, position


def test_action_space_is_fixed_with_unique_readable_labels() -> None:
    game = parlour.load_game("hatflings")
    assert game.num_actions == 688
    lowered = [action.label.lower() for action in game.actions]
    assert len(set(lowered)) == len(lowered)
    for label in ("tree at c3", "pig at e3", "place normal at c4", "place firebug at b1", "greedy push at a3 east"):
        assert game.action(label).label == label
    for label in ("greedy push at a1 north", "jump d4 over d5 to d6", "puddle at e5", "pig to f3"):
        assert game.action(label).label == label
    assert game.action("jump d4 over d5 to d6").to_json()["over"] == "d5"
    with pytest.raises(IllegalAction, match="no action called 'greedy push at c3 east'"):
        game.action("greedy push at c3 east")


def test_actions_apply_by_id_label_or_json() -> None:
    game = parlour.load_game("hatflings")
    for ref in (game.action("place normal at a1").id, "Place  Normal at A1", {"label": "place normal at a1"}):
        state = game.new_state()
        state.apply(ref)
        assert at(state, "a1") == "Y"


def test_refusals_name_the_rule_and_change_nothing() -> None:
    state = position({"c3": "Y", "d4": "P"}, pig="d5", pool=0, special_pools=(0, 0))
    before = json.dumps(state.view(None))
    cases = {
        "place normal at c4": "the general pool is empty",
        "place joker at c4": "your joker halfling is no longer in your special pool",
        "greedy push at a3 east": "your greedy halfling is no longer in your special pool",
        "jump d4 over c3 to b2": "d4 holds no halfling wearing yellow",
        "jump c3 over c4 to c5": "c4 holds no rival halfling to jump over",
        "puddle at c4": "it is yellow's turn to place, push in or jump",
        "tree at a3": "it is yellow's turn",
    }
    for label, reason in cases.items():
        with pytest.raises(IllegalAction, match=reason):
            state.apply(label)
        assert json.dumps(state.view(None)) == before and state.history == []


def test_refusals_during_follow_up_decisions() -> None:
    state = position({"c3": "Y", "d4": "P"}, pig="d5")
    state.apply("place normal at c4")
    assert state.phase == PIG_MOVE
    with pytest.raises(IllegalAction, match="yellow must first move the pig to an empty square around d5"):
        state.apply("place normal at b2")
    with pytest.raises(IllegalAction, match="c4 is not an empty square around the pig at d5"):
        state.apply("pig to c4")
    state = position({"c3": "Y", "e6": "P"})
    state.apply("place clumsy at c4")
    with pytest.raises(IllegalAction, match="must first put the clumsy halfling's puddle"):
        state.apply("pig to c4")
    with pytest.raises(IllegalAction, match="e5 is not an empty square around the clumsy halfling at c4"):
        state.apply("puddle at e5")


def test_game_over_refuses_everything() -> None:
    state = position({"a1": "Y", "f6": "P"}, pig="d4", pool=0, special_pools=(0, 0))
    assert state.is_terminal() and state.current_player() == -1 and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply("place normal at b2")
    for action in state.game.actions:  # asked directly (as the server does), a finished game still answers
        assert state.why_illegal(action).startswith("the dance is over: yellow cannot introduce or move")


def test_moves_of_another_stage_are_refused_with_what_that_stage_is() -> None:
    state = position({"c3": "Y", "d4": "P"}, pig="f6")
    cases = {
        "tree at a3": "the scene is already set up",
        "pig at a3": "the scene is already set up",
        "puddle at c4": "a puddle is only spilled right after a clumsy halfling is introduced (7.4)",
        "pig to e5": "the pig only runs when a halfling lands next to it (R18)",
    }
    for label, reason in cases.items():
        with pytest.raises(IllegalAction, match=re.escape(f"{reason}; it is yellow's turn to place, push in or jump")):
            state.apply(label)
    setting = parlour.load_game("hatflings", scene="interactive").new_state()
    with pytest.raises(IllegalAction, match="the scene is being set up: seat 0 places an object"):
        setting.apply("place normal at a1")


def test_view_is_the_whole_floor_for_everyone() -> None:
    state = parlour.load_game("hatflings").new_state(seed=4)
    state.apply("place firebug at b1")
    views = [state.view(seat) for seat in (None, 0, 1)]
    assert views[0] == views[1] == views[2]
    assert views[0]["squares"]["b1"]["halfling"] == {"kind": "firebug", "seat": 0, "colour": "yellow"}
    assert views[0]["to_move"] == 1 and views[0]["special_pools"][0] == [
        "joker",
        "cheating",
        "clumsy",
        "greedy",
        "stilts",
    ]
    json.dumps(views[0])


def test_render_draws_the_floor_with_a_legend() -> None:
    state = position({"c3": "Y+box", "d4": "Pf", "e5": "puddle:1"}, pig="b2")
    text = state.render(0)
    rows = {line.split()[0]: line for line in text.splitlines() if line[:1].isdigit()}
    assert "YnB" in rows["3"] and "Pf" in rows["4"] and "~p" in rows["5"] and "@" in rows["2"]
    assert "dance: seat 0 (yellow) to decide" in text and "T tree" in text
    setting = parlour.load_game("hatflings", scene="interactive", num_objects=4).new_state()
    setting.apply("tree at c3")
    assert "objects still to place: 3; in supply: box 2, barrel 2, tree 1, column 2" in setting.render(1)
    over = position({"a1": "Y", "f6": "P"}, pig="d4", pool=0, special_pools=(0, 0))
    assert "the dance is over: yellow cannot introduce or move a halfling; a draw" in over.render(None)


def test_view_and_drawing_show_how_close_the_repetition_guard_is() -> None:
    state = position({"a3": "Y", "a4": "Pc", "f3": "P", "f4": "Yc"}, pig="c1")
    assert state.view(0)["position_seen"] == 1
    for label in ["jump a3 over a4 to a5", "jump f3 over f4 to f5", "jump a5 over a4 to a3", "jump f5 over f4 to f3"]:
        state.apply(label)
    assert state.view(None)["position_seen"] == 2
    assert "this position has come up 2 times; the dance ends when it comes up 3 times (R25)" in state.render(0)
    over = position({"a1": "Y", "f6": "P"}, pig="d4", pool=0, special_pools=(0, 0))
    assert over.is_terminal() and "position_seen" not in over.view(0)  # the dance ended before counting
    unguarded = position({"a3": "Y", "a4": "Pc"}, repetition_limit=0)
    assert "position_seen" not in unguarded.view(0)
    assert "position_seen" not in parlour.load_game("hatflings", scene="interactive").new_state().view(0)


def test_determinize_keeps_the_view_and_redraws_the_barrel() -> None:
    state = position({"c3": "Y", "c4": "barrel", "e6": "P"})
    outcomes = set()
    for seed in range(30):
        twin = state.determinize(0, Rng(seed))
        assert twin.view(0) == state.view(0)
        outcomes.add(kinds(twin.apply("place normal at c4"))[1])
    assert outcomes == {"barrel hold", "barrel break"}
    assert at(state, "c4") == "barrel"


def test_clone_shares_nothing_mutable() -> None:
    state = position({"c3": "Y", "d4": "P"})
    twin = state.clone()
    twin.apply("jump c3 over d4 to e5")
    assert at(state, "c3") == "Y" and at(twin, "c3") == "" and state.history == []


def test_heuristic_weighs_hats_safety_and_reserves() -> None:
    ahead = position({"c3": "Y", "c4": "Y", "d4": "P"})
    assert 0 < ahead.heuristic(0) < 1 and ahead.heuristic(1) == pytest.approx(-ahead.heuristic(0))
    safe = position({"c3": "Y+box", "d4": "P"})
    exposed = position({"c3": "Y", "d4": "P"})
    assert safe.heuristic(0) > exposed.heuristic(0) == pytest.approx(0.0)
    fewer = position({"c3": "Y", "d4": "P"}, special_pools=(0, 4))
    assert fewer.heuristic(0) < 0
    over = position({"a1": "Y", "b1": "Y", "f6": "P"}, pig="d4", pool=0, special_pools=(0, 0), to_move=1)
    assert over.is_terminal() and over.heuristic(0) == 1.0 and over.heuristic(1) == -1.0


def test_scores_break_down_the_count_and_the_tiebreak() -> None:
    state = position({"b6": "Y", "c3": "Y", "c1": "P"})
    score = state.scores()[0]
    assert score.total == 2.0 and score.breakdown == {"halflings": 2, "in rival start zone": 1}


def _broken_csv(rows: list[dict[str, str]]) -> Any:
    return lambda package, filename, required=(): (
        rows if filename == "components.csv" else _real_csv(package, filename, required)
    )


_real_csv = components.read_csv


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"component": "pig", "count": "2"}, "exactly one pig"),
        ({"component": "tree", "count": "many"}, "count must be a whole number"),
        ({"component": "dragon", "count": "1"}, "unknown component 'dragon'"),
        ({"component": "tree", "count": "3"}, "trees = 2 but components.csv says 3"),
    ],
)
def test_component_data_is_validated(monkeypatch: pytest.MonkeyPatch, change: dict[str, str], problem: str) -> None:
    rows = _real_csv(components.PACKAGE, "components.csv")
    edited = [dict(row) for row in rows]
    for row in edited:
        if row["component"] == change["component"]:
            row["count"] = change["count"]
            break
    else:
        edited.append({"component": change["component"], "count": change["count"], "per": "game", "status": "designed"})
    monkeypatch.setattr(components, "read_csv", _broken_csv(edited))
    with pytest.raises(DataError, match=problem):
        components.load_components()


def test_default_data_loads() -> None:
    loaded = components.load_components()
    assert loaded.general_pool_size == 24 and loaded.objects == {"tree": 2, "column": 2, "box": 2, "barrel": 2}
    assert loaded.default_scene == "tree:c3,box:d4,barrel:b4,pig:e3" and loaded.max_turns == 200
