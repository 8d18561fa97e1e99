"""The installed `parlour` command (cli.main): every refusal is one `error:` line, no box, no traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from parlour.cli import main
from parlour.engine.registry import register

from ..engine.nim import Nim

register(Nim)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    with pytest.raises(SystemExit) as leaving:
        main(list(args))
    captured = capsys.readouterr()
    code = leaving.value.code
    return (code if isinstance(code, int) else 1), captured.out + captured.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play"], "error: Missing argument 'game' (see 'parlour play --help')"),
        (["play", "nim", "--seed", "abc"], "error: Invalid value for '--seed'"),
        (["bench", "nim", "--seconds", "0"], "error: Invalid value for '--seconds'"),
        (["serve", "--port", "99999"], "error: Invalid value for '--port'"),
        (["wizardry"], "error: No such command 'wizardry'"),
        (["play", "nim", "--seats"], "error: Option '--seats' requires an argument"),
        (["rules", "chess"], "error: no game called 'chess'"),
    ],
)
def test_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, output = run(capsys, *args)
    assert code == 2
    lines = output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), output
    assert "Traceback" not in output and "╭" not in output


def test_success_and_help_exit_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "games")[0] == 0
    code, output = run(capsys, "play", "--help")
    assert code == 0 and "--seats" in output


def test_a_folder_the_system_refuses_is_an_error_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, output = run(capsys, "simulate", "nim", "--games", "1", "--workers", "1", "--out", str(blocker / "sub"))
    assert code != 0 and output.startswith("error:") and "Traceback" not in output
    assert blocker.read_text() == ""
