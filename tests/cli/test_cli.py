"""The `parlour` command line, end to end in-process, on the small test game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import parlour
from parlour.cli import app
from parlour.engine.records import full_record
from parlour.engine.registry import register
from parlour.play import CLEAR_SCREEN, TerminalSession, seat_table

from ..engine.nim import Nim
from .scripted import typed

register(Nim)
runner = CliRunner()


def scripted(entries: list[str]) -> tuple[list[str], TerminalSession]:
    """A session whose person types `entries` and whose output is collected."""
    said: list[str] = []
    ask = typed(entries)

    table = seat_table(parlour.load_game("nim", stones=5), ["human", "random"], seed=3)
    return said, TerminalSession(table, ask=ask, say=said.append)


def test_games_lists_registered_games() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    assert "nim" in result.output and "stones" in result.output


def test_unknown_game_and_option_are_refused_cleanly() -> None:
    result = runner.invoke(app, ["bench", "chess", "--seconds", "0.1"])
    assert result.exit_code == 2 and "no game called 'chess'" in result.output
    result = runner.invoke(app, ["bench", "nim", "--colour", "red", "--seconds", "0.1"])
    assert result.exit_code == 2 and "nim has no option --colour" in result.output
    result = runner.invoke(app, ["play", "nim", "--seats", "human,human,human"])
    assert result.exit_code == 2 and "needs 2 seats" in result.output
    result = runner.invoke(app, ["play", "nim", "--seats", "human,wizard"])
    assert result.exit_code == 2 and "no agent called 'wizard'" in result.output


def test_bench_reports_throughput_as_json() -> None:
    result = runner.invoke(app, ["bench", "nim", "--seconds", "0.2", "--json", "--stones", "12"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["games"] > 0 and figures["steps"] >= figures["games"] * 4
    assert figures["options"]["stones"] == 12


def test_wrong_entries_are_refused_with_the_reason_and_asked_again() -> None:
    said, session = scripted(["9", "take 3 stones", "take 1", "quit"])
    assert session.run() == 0
    text = "\n".join(said)
    assert "there is no move 9" in text
    assert "no action called 'take 3 stones'" in text
    assert "You (Player 1): takes 1" in text
    assert session.table.state.history[0] == 0


def test_end_of_input_leaves_cleanly_and_saves_the_record(tmp_path: Path) -> None:
    said, session = scripted(["1"])
    session.record_path = tmp_path / "game.json"
    assert session.run() == 0
    record = json.loads((tmp_path / "game.json").read_text())
    assert record["game"] == "nim" and record["actions"][0] == 0
    assert "Leaving the game" in "\n".join(said)


def test_a_whole_game_ends_with_the_result() -> None:
    said, session = scripted(["1"] * 10)
    session.run()
    assert session.table.state.is_terminal()
    assert "Game over." in "\n".join(said)


def saved_game(tmp_path: Path) -> Path:
    state = parlour.load_game("nim", stones=4).new_state(seed=1)
    for label in ("take 1", "take 1", "take 2"):
        state.apply(label)
    path = tmp_path / "record.json"
    path.write_text(json.dumps(full_record(state)))
    return path


def test_replay_verifies_a_good_record(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(saved_game(tmp_path)), "--show"])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output and "take 2" in result.output


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(actions=[0, 2, 1]), "step 1"),
        (lambda r: r.update(winners=[1]), "winners differ"),
        (lambda r: r.pop("seed"), "no 'seed' field"),
        (lambda r: r.update(game="chess"), "no game called 'chess'"),
    ],
)
def test_replay_names_the_first_divergence(tmp_path: Path, change, message: str) -> None:
    path = saved_game(tmp_path)
    record = json.loads(path.read_text())
    change(record)
    path.write_text(json.dumps(record))
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and message in result.output
    assert "Traceback" not in result.output


def test_replay_of_a_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "not valid JSON" in result.output
    result = runner.invoke(app, ["replay", str(tmp_path / "missing.json")])
    assert result.exit_code == 1 and "cannot read" in result.output


def test_a_bots_move_in_a_hidden_information_game_shows_only_public_events() -> None:
    said: list[str] = []
    table = seat_table(parlour.load_game("hatairo", players=2), ["random", "random"], seed=5)
    TerminalSession(table, ask=lambda prompt: "", say=said.append).run()
    state = table.state
    labels = {state.game.actions[i].label for i in state.history}
    told = "\n".join(chunk for chunk in said if chunk.startswith("Random ("))
    steps = [line.split("): ", 1)[-1].removeprefix("  - ") for line in told.splitlines()]
    assert steps and not set(steps) & labels  # what a bot did is told by its public events, never its label


def test_hot_seat_clears_the_screen_before_handing_it_over() -> None:
    said: list[str] = []
    ask = typed(["1", "", "1"])  # seat A moves, the screen is handed over, seat B moves

    table = seat_table(parlour.load_game("hanbok_runway"), ["human", "human"], seed=2)
    TerminalSession(table, ask=ask, say=said.append).run()
    turns = [(i, line.split("\n")[0]) for i, line in enumerate(said) if line.startswith("Your move, ")]
    first_move, mover = turns[0]
    next_prompt = next(i for i, heading in turns if heading != mover)
    assert CLEAR_SCREEN in said[first_move:next_prompt]


@pytest.mark.parametrize("seats", ["human,greedy:", "human,random: "])
def test_an_agent_spec_with_an_empty_parameter_list_is_refused(seats: str) -> None:
    result = runner.invoke(app, ["play", "nim", "--seats", seats])
    assert result.exit_code == 2 and "no parameters after ':'" in result.output


@pytest.mark.parametrize(
    "words",
    [
        ["--stones", "5", "--stones", "6"],
        ["-o", "stones=5", "--stones", "6"],
        ["-o", "players=2", "--players", "3"],
    ],
)
def test_an_option_given_twice_with_two_values_is_refused(words: list[str]) -> None:
    result = runner.invoke(app, ["bench", "nim", "--seconds", "0.1", *words])
    assert result.exit_code == 2 and "is given twice" in result.output


def test_the_same_value_twice_is_no_conflict() -> None:
    result = runner.invoke(app, ["bench", "nim", "--seconds", "0.1", "--json", "--stones", "6", "-o", "stones=6"])
    assert result.exit_code == 0 and json.loads(result.output)["options"]["stones"] == 6


@pytest.mark.parametrize("seconds", ["inf", "1e300", "nan"])
def test_bench_refuses_an_endless_time(seconds: str) -> None:
    result = runner.invoke(app, ["bench", "nim", "--seconds", seconds])
    assert result.exit_code == 2


@pytest.mark.parametrize(
    ("words", "message"),
    [
        (["--workers", "100000"], "too many processes"),
        (["--resume"], "--resume continues the tournament an --out folder holds"),
    ],
)
def test_simulate_refuses_before_any_game(words: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", "nim", "--games", "2", *words])
    assert result.exit_code == 2 and message in result.output


def test_simulate_names_an_out_folder_that_cannot_be_made(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = runner.invoke(app, ["simulate", "nim", "--games", "1", "--workers", "1", "--out", str(blocker / "run")])
    assert result.exit_code == 2 and f"cannot create the folder {blocker / 'run'}" in result.output


@pytest.mark.parametrize("seed", ["-5", str(2**53)])
def test_play_refuses_a_seed_a_record_could_not_keep(seed: str) -> None:
    result = runner.invoke(app, ["play", "nim", "--seed", seed], input="quit\n")
    assert result.exit_code == 2 and "--seed" in result.output


def test_a_seat_named_human_in_capitals_is_a_person() -> None:
    table = seat_table(parlour.load_game("nim"), ["Human", " RANDOM "], seed=1)
    assert table.humans == [0] and list(table.agents) == [1]


def test_serve_refuses_what_it_could_not_run_with_before_starting() -> None:
    import socket

    result = runner.invoke(app, ["serve", "--log-level", "loud"])
    assert result.exit_code == 2 and "--log-level must be one of" in result.output
    result = runner.invoke(app, ["serve", "--host", "999.1.1.1"])
    assert result.exit_code == 2 and "no such address" in result.output
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(app, ["serve", "--port", str(port)])
    assert result.exit_code == 2 and f"cannot listen on 127.0.0.1:{port}" in result.output
    result = runner.invoke(app, ["serve", "--log-format", "xml"])
    assert result.exit_code == 2 and "--log-format must be one of auto, json, text, got 'xml'" in result.output
    result = runner.invoke(app, ["serve", "--log-file", "/nonexistent-folder/server.log"])
    assert result.exit_code == 2 and "--log-file /nonexistent-folder/server.log: cannot write there" in result.output


def test_the_server_log_is_short_text_on_a_terminal_and_json_elsewhere() -> None:
    from parlour.cli import chosen_format, default_level

    assert chosen_format("auto", None, terminal=True) == "text"
    assert chosen_format("auto", None, terminal=False) == "json"
    assert chosen_format("auto", "server.log", terminal=True) == "json"  # a file is for a deployment
    assert chosen_format("json", None, terminal=True) == "json"
    assert chosen_format("text", None, terminal=False) == "text"
    assert (default_level("text"), default_level("json")) == ("warning", "info")


def test_an_agent_parameter_given_twice_is_refused() -> None:
    result = runner.invoke(app, ["play", "nim", "--seats", "human,mcts:iterations=5,iterations=6"])
    assert result.exit_code == 2 and "iterations is given twice" in result.output


@pytest.mark.parametrize("games", ["1000000000", "99999999999999999999999"])
def test_simulate_refuses_more_games_than_memory_can_list(games: str) -> None:
    result = runner.invoke(app, ["simulate", "nim", "--games", games])
    assert result.exit_code == 2 and "--games must be at most 10,000,000" in result.output
