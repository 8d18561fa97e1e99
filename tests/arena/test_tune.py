"""parlour tune: the space file, the objectives, a study that moves a value the right way, and resume."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from parlour.arena.objectives import ObjectiveError, parse_objective, parse_objectives
from parlour.arena.space import SpaceError, load_space
from parlour.arena.store import REPORT
from parlour.arena.tune import Budget, Running, tune
from parlour.arena.tune_command import Request, setup_of, tune_command
from parlour.engine.data import built_in
from parlour.engine.registry import game_class, load_game

HATFLINGS = dict(built_in("parlour.games.hatflings.data").files)
POOL = """
[[parameter]]
file = "scene_default.toml"
name = "supply.general_pool_size"
low = 8
high = 30
also = [{ file = "components.csv", row = "normal_halfling_double_sided", column = "count" }]
"""


def space_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "space.toml"
    path.write_text(text, encoding="utf-8")
    return path


def nim_request(tmp_path: Path, out: str = "study", games: int = 40) -> Request:
    space = space_file(tmp_path, '[[parameter]]\noption = "stones"\nlow = 1\nhigh = 99\n')
    return Request("nim", space, ["length=40..45"], tmp_path / out, agents="random,random", games=games, seed=3)


def test_a_short_study_moves_a_value_the_right_way(tmp_path: Path) -> None:
    # Random Nim players take two stones a turn on average: games 40 to 45 moves long need 80-90 stones.
    request = nim_request(tmp_path)
    assert tune_command(request, Budget(trials=14), Running(workers=1), resume=False) == 0
    note = json.loads((request.out / "tune.json").read_text(encoding="utf-8"))
    assert note["objectives"] == ["length=40..45"]
    setup = setup_of(request)
    outcome = tune(setup, request.out, Budget(trials=14), Running(workers=1), resume=True)  # nothing left to run
    assert outcome.games_played == 0 and len(outcome.trials) == 14
    assert outcome.best is not None and outcome.best.value is not None
    assert 70 <= outcome.best.values["option stones"] <= 99
    assert 36 <= outcome.best.measures["mean length"] <= 49
    first = min(t.value for t in outcome.trials[:3] if t.value is not None)
    assert outcome.best.value < first
    page = (request.out / REPORT).read_text(encoding="utf-8")
    sections = re.findall(r'<section id="([a-z-]+)">', page)
    assert sections[:3] == ["history", "importances", "best"] and "overview" in sections
    assert (request.out / "comparison" / "best" / "records.jsonl").exists()
    assert not (request.out / "best-data").exists()  # Nim has no data files: its best is an option


def test_a_study_resumes_where_it_stopped_and_refuses_another(tmp_path: Path) -> None:
    request = nim_request(tmp_path, games=12)
    setup = setup_of(request)
    first = tune(setup, request.out, Budget(trials=4), Running(workers=1), resume=False)
    assert len(first.trials) == 4
    with pytest.raises(Exception, match="already holds this study; add --resume"):
        tune(setup, request.out, Budget(trials=6), Running(workers=1), resume=False)
    again = tune(setup, request.out, Budget(trials=6), Running(workers=1), resume=True)
    assert [t.number for t in again.trials] == list(range(6))
    assert [t.values for t in again.trials[:4]] == [t.values for t in first.trials]
    assert again.games_played <= 2 * 12
    other = setup_of(
        Request("nim", request.space, ["length=10..20"], request.out, agents="random,random", games=12, seed=3)
    )
    with pytest.raises(Exception, match=r"holds another tuning study .*objectives"):
        tune(other, request.out, Budget(trials=8), Running(workers=1), resume=True)
    with pytest.raises(Exception, match="holds no tuning study to resume"):
        tune(setup, tmp_path / "empty", Budget(trials=2), Running(workers=1), resume=True)


def test_a_data_study_writes_the_best_data_folder_the_game_loads(tmp_path: Path) -> None:
    import optuna

    space = space_file(tmp_path, POOL)
    request = Request("hatflings", space, ["length=20..30"], tmp_path / "study", agents="random,random", games=6)
    request.steps = 2
    assert tune_command(request, Budget(trials=4), Running(workers=1), resume=False) == 0
    study = optuna.load_study(study_name="parlour-tune", storage=f"sqlite:///{tmp_path / 'study' / 'study.sqlite'}")
    chosen = study.best_params["scene_default.toml supply.general_pool_size"]
    best = tmp_path / "study" / "best-data"
    assert sorted(p.name for p in best.iterdir()) == sorted(HATFLINGS)
    assert load_game("hatflings", data=str(best)).options["general_pool_size"] == chosen
    note = json.loads((tmp_path / "study" / "tune.json").read_text(encoding="utf-8"))
    assert note["space"][0]["base"] == 24 and note["options"] == {}
    assert study.trials[0].params == {"scene_default.toml supply.general_pool_size": 24}  # the base comes first
    assert not (tmp_path / "study" / "trials").exists()  # the trials' own folders are gone


def test_each_trial_plays_its_own_data_not_the_base_values_the_game_filled_in(tmp_path: Path) -> None:
    # Hatflings! fills its pool-size option in from the data: a trial must not carry the base's 24 along.
    space = space_file(tmp_path, POOL)
    setup = setup_of(Request("hatflings", space, ["fair"], tmp_path / "s", agents="random,random", games=8))
    outcome = tune(setup, tmp_path / "s", Budget(trials=5), Running(workers=1, pruner="none"), resume=False)
    lengths = {
        t.values["scene_default.toml supply.general_pool_size"]: t.measures["mean length"] for t in outcome.trials
    }
    assert len(lengths) >= 3 and len(set(lengths.values())) == len(lengths)


def test_a_trial_whose_data_the_game_refuses_fails_alone(tmp_path: Path) -> None:
    # The pool alone, without its count in components.csv: every trial's data is refused, and said why.
    space = space_file(tmp_path, POOL.replace("also = [", "# also = [").replace("high = 30", "high = 20"))
    request = Request("hatflings", space, ["fair"], tmp_path / "study", agents="random,random", games=4)
    setup = setup_of(request)
    outcome = tune(setup, request.out, Budget(trials=2), Running(workers=1), resume=False)
    assert [t.state for t in outcome.trials] == ["fail", "fail"] and outcome.best is None
    assert all("but components.csv says 24" in t.error for t in outcome.trials)


def test_applying_a_space_rewrites_only_the_cells_named() -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = space_file(Path(folder), POOL)
        space = load_space(path, game_class("hatflings"), HATFLINGS)
        changed = space.apply(HATFLINGS, {space.parameters[0].label: 12})
    assert space.parameters[0].base == 24
    assert [name for name in HATFLINGS if changed[name] != HATFLINGS[name]] == ["components.csv", "scene_default.toml"]
    toml_lines = [
        (a, b)
        for a, b in zip(
            HATFLINGS["scene_default.toml"].splitlines(), changed["scene_default.toml"].splitlines(), strict=True
        )
        if a != b
    ]
    assert toml_lines == [
        ("general_pool_size = 24          # designed (R2)", "general_pool_size = 12          # designed (R2)")
    ]
    assert "normal_halfling_double_sided,12,game" in changed["components.csv"]


BAD_SPACES = [
    ("", "no \\[\\[parameter\\]\\] table"),
    ("[[parameter]\n", "not valid TOML"),
    ("[other]\n", "unknown table or key 'other'"),
    (
        '[[parameter]]\nfile = "nope.csv"\nrow = "a"\ncolumn = "b"\nlow = 1\nhigh = 2\n',
        "parameter 1, file: 'nope.csv' is not one of hatflings's data files",
    ),
    (
        '[[parameter]]\nfile = "components.csv"\nrow = "tree"\ncolumn = "colour"\nlow = 1\nhigh = 2\n',
        "parameter 1, column: components.csv has no column 'colour'",
    ),
    (
        '[[parameter]]\nfile = "components.csv"\nrow = "dragon"\ncolumn = "count"\nlow = 1\nhigh = 2\n',
        "parameter 1, row: components.csv has no row whose component is 'dragon'",
    ),
    (
        '[[parameter]]\nfile = "components.csv"\nrow = "tree"\ncolumn = "per"\nlow = 1\nhigh = 2\n',
        "parameter 1, column: components.csv tree holds 'game', not a number",
    ),
    ('[[parameter]]\nfile = "components.csv"\nrow = "tree"\nlow = 1\nhigh = 2\n', "parameter 1, column: missing"),
    (
        '[[parameter]]\nfile = "components.csv"\nrow = "tree"\ncolumn = "count"\nlow = 3\nhigh = 2\n',
        "parameter 1, high: must be above low \\(3\\), got 2",
    ),
    (
        '[[parameter]]\nfile = "components.csv"\nrow = "tree"\ncolumn = "count"\nlow = 1\nhigh = 3\nstep = 0\n',
        "parameter 1, step: must be a number above zero",
    ),
    ('[[parameter]]\nfile = "components.csv"\nrow = "tree"\ncolumn = "count"\nhigh = 3\n', "parameter 1, low: missing"),
    (
        '[[parameter]]\nfile = "components.csv"\nrow = "tree"\ncolumn = "count"\nlow = "1"\nhigh = 3\n',
        "parameter 1, low: must be a number",
    ),
    (
        '[[parameter]]\nfile = "components.csv"\nrow = "tree"\ncolumn = "count"\nlow = 1\nhigh = 3\ncolour = 2\n',
        "parameter 1, colour: unknown key",
    ),
    (
        '[[parameter]]\nfile = "scene_default.toml"\nname = "supply.dragons"\nlow = 1\nhigh = 3\n',
        "parameter 1, name: no line 'dragons = <number>' under \\[supply\\]",
    ),
    (
        '[[parameter]]\nfile = "scene_default.toml"\nname = "players.colour_0"\nlow = 1\nhigh = 3\n',
        "parameter 1, name: no line 'colour_0 = <number>'",
    ),
    (
        '[[parameter]]\noption = "dragons"\nlow = 1\nhigh = 3\n',
        "parameter 1, option: hatflings has no option 'dragons' to tune",
    ),
    (
        '[[parameter]]\noption = "max_turns"\nfile = "components.csv"\nlow = 1\nhigh = 3\n',
        "parameter 1, file: a game option's parameter takes no file",
    ),
    (
        POOL.replace('row = "normal_halfling_double_sided"', 'row = "tree"'),
        "parameter 1, also: components.csv tree count holds 2, but scene_default.toml"
        " supply.general_pool_size holds 24",
    ),
    (
        '[[parameter]]\noption = "max_turns"\nlow = 1\nhigh = 3\n'
        '[[parameter]]\noption = "max_turns"\nlow = 1\nhigh = 9\n',
        "the value 'option max_turns' is named by more than one parameter",
    ),
]


@pytest.mark.parametrize(("text", "message"), BAD_SPACES)
def test_a_bad_space_file_is_refused_with_the_parameter_and_key(tmp_path: Path, text: str, message: str) -> None:
    path = space_file(tmp_path, text)
    with pytest.raises(SpaceError, match=message):
        load_space(path, game_class("hatflings"), HATFLINGS)


def test_a_missing_space_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(SpaceError, match=r"nowhere\.toml: cannot read"):
        load_space(tmp_path / "nowhere.toml", game_class("hatflings"), HATFLINGS)


def test_objectives_are_read_with_their_weights_and_bad_ones_refused() -> None:
    assert parse_objective("fair").kind == "fair"
    assert parse_objective("takers<=0.6:2").limit == 0.6 and parse_objective("takers<=0.6:2").weight == 2
    assert (parse_objective("length=40..60").low, parse_objective("length=40..60").high) == (40, 60)
    for text, message in [
        ("fairer", "is not one of"),
        ("takers<=1.5", "between 0 and 1"),
        ("length=60..40", "0 < LOW <= HIGH"),
        ("fair:0", "weight"),
    ]:
        with pytest.raises(ObjectiveError, match=message):
            parse_objective(text)
    with pytest.raises(ObjectiveError, match="given twice"):
        parse_objectives(["fair", "fair:2"])
    with pytest.raises(ObjectiveError, match="at least one"):
        parse_objectives([])


def test_the_command_line_refuses_a_study_without_a_budget(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from parlour.cli import app

    space = space_file(tmp_path, POOL)
    arguments = ["tune", "hatflings", "--space", str(space), "--objective", "fair", "--out", str(tmp_path / "s")]
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code == 2 and "give a budget" in result.output
    result = CliRunner().invoke(app, [*arguments, "--trials", "2", "--sampler", "grid"])
    assert result.exit_code == 2 and "no sampler called 'grid'" in result.output
    result = CliRunner().invoke(app, [*arguments, "--trials", "2", "--objective", "length=9"])
    assert result.exit_code == 2 and "'length=9' is not one of" in result.output
    assert not (tmp_path / "s").exists()


def test_a_decimal_value_is_written_as_a_decimal_without_the_samplers_rounding_noise(tmp_path: Path) -> None:
    text = '[[parameter]]\nfile = "scene_default.toml"\nname = "rules.barrel_break_probability"\n'
    space = load_space(
        space_file(tmp_path, text + "low = 0.0\nhigh = 1.0\nstep = 0.05\n"), game_class("hatflings"), HATFLINGS
    )
    (parameter,) = space.parameters
    assert parameter.base == 0.5 and not parameter.integer
    for value, written in [(0.9500000000000001, "0.95"), (0.0, "0.0"), (1, "1.0")]:
        changed = space.apply(HATFLINGS, {parameter.label: value})["scene_default.toml"]
        assert f"barrel_break_probability = {written}  # sourced mechanism" in changed


def test_a_time_budget_stops_starting_trials(tmp_path: Path) -> None:
    setup = setup_of(nim_request(tmp_path, games=12))
    outcome = tune(setup, tmp_path / "timed", Budget(trials=300, minutes=0.01), Running(workers=1), resume=False)
    assert 1 <= len(outcome.trials) < 300
