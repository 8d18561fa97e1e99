"""`parlour serve --set NAME=VALUE`: every setting without an option of its own can be given."""

from __future__ import annotations

from dataclasses import fields

import pytest
from typer.testing import CliRunner

import parlour.server
from parlour.cli import app
from parlour.server import Settings

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
