"""`parlour serve --set NAME=VALUE`: every setting without an option of its own can be given."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
from typer.testing import CliRunner

import parlour.server
from parlour.cli import app
from parlour.server import Settings
from parlour.server.settings import serve_options

runner = CliRunner()


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[Settings]:
    kept: list[Settings] = []
    monkeypatch.setattr(parlour.server, "run", lambda settings, **_: kept.append(settings))
    return kept


def test_any_setting_is_given_by_its_name_and_read_by_its_type(started: list[Settings]) -> None:
    sets = ["password_hashings=2", "rated-time-bank-seconds=600", "timeout_agent=random", "public_url=none"]
    result = runner.invoke(app, ["serve", "--port", "0", *[part for pair in sets for part in ("--set", pair)]])
    assert result.exit_code == 0, result.output
    chosen = started[0]
    assert (chosen.password_hashings, chosen.rated_time_bank_seconds) == (2, 600.0)
    assert (chosen.timeout_agent, chosen.public_url) == ("random", None)
    assert chosen.log_rate == Settings().log_rate  # the others keep their defaults


def test_every_setting_without_its_own_option_can_be_set(started: list[Settings]) -> None:
    own = {"db", "web_dir", "bot_delay", "undo", "signin_burst", "secure_cookies"}
    flags = {item.name for item in fields(Settings)} - own
    for name in sorted(flags):
        default = getattr(Settings(), name)
        if isinstance(default, bool):
            value = str(default).lower()
        elif default is None or isinstance(default, str):
            continue
        else:
            value = str(default)
        result = runner.invoke(app, ["serve", "--port", "0", "--set", f"{name}={value}"])
        option = f"--{name.replace('_', '-')}"
        assert result.exit_code == 0 or f"use {option} instead" in result.output, (name, result.output)


@pytest.mark.parametrize(
    ("pair", "said"),
    [
        ("password_hashings", "--set takes NAME=VALUE, got 'password_hashings'"),
        ("hashings=2", "no setting called 'hashings'"),
        ("password_hashings=two", "--set password_hashings takes a whole number, got 'two'"),
        ("password_hashings=0", "password_hashings must be a whole number of at least 1"),
        ("chat_rate=-1", "--set chat_rate takes a finite number of at least 0, got '-1'"),
        ("chat_rate=nan", "--set chat_rate takes a finite number of at least 0, got 'nan'"),
        ("undo=maybe", "use --undo instead"),
        ("max_websockets=5", "use --max-websockets instead"),
    ],
)
def test_a_bad_setting_is_refused_by_name_before_anything_starts(started: list[Settings], pair: str, said: str) -> None:
    result = runner.invoke(app, ["serve", "--port", "0", "--set", pair])
    assert result.exit_code == 2 and said in result.output, result.output
    assert started == []


def test_a_setting_given_twice_is_refused(started: list[Settings]) -> None:
    result = runner.invoke(app, ["serve", "--port", "0", "--set", "chat_rate=1", "--set", "chat_rate=2"])
    assert result.exit_code == 2 and "--set chat_rate is given twice" in result.output


def test_every_serve_option_is_generated_from_its_setting_and_reaches_it(
    started: list[Settings], tmp_path: Path
) -> None:
    """`parlour serve`'s options are the settings that declare one: each flag sets its setting."""
    declared = serve_options()
    assert {"db", "bot_delay", "undo", "signin_burst", "max_websockets"} <= set(declared)
    for name, declared_option in declared.items():
        default = getattr(Settings(), name)
        flag = declared_option.flags(name)[0]
        if isinstance(default, bool) or default is None:
            on, _, off = flag.partition("/")
            given, wanted = ([off], False) if default is True else ([on], True)
        elif isinstance(default, str):
            given, wanted = [flag, str(tmp_path / "x.sqlite")], str(tmp_path / "x.sqlite")
        else:
            wanted = type(default)(max(default, declared_option.low or 0) + 1)
            given = [flag, str(wanted)]
        result = runner.invoke(app, ["serve", "--port", "0", *given])
        assert result.exit_code == 0, (name, result.output)
        assert getattr(started[-1], name) == wanted, name
    # The declared bound is the option's: below it, the option is refused before anything starts.
    count = len(started)
    result = runner.invoke(app, ["serve", "--port", "0", "--max-header-bytes", "1000"])
    said = "".join(result.output.replace("│", " ").split())  # the error box, unwrapped
    assert result.exit_code == 2 and "greaterthanorequalto1024" in said and len(started) == count
    # A setting's option is named when it is given with --set instead.
    result = runner.invoke(app, ["serve", "--port", "0", "--set", "signin_burst=3"])
    assert result.exit_code == 2 and "use --signin-failures instead" in result.output


def test_serve_uses_its_own_defaults_where_a_setting_declares_one(started: list[Settings]) -> None:
    result = runner.invoke(app, ["serve", "--port", "0"])
    assert result.exit_code == 0, result.output
    assert started[0].bot_delay == 0.5 and Settings().bot_delay == 0.0  # people follow the bots' moves
    assert started[0].undo is True and started[0].secure_cookies is None
