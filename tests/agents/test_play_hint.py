"""`hint` in the terminal play loop, and seat lists whose bots carry parameters."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import parlour
from parlour import play
from parlour.agents.mcts import MctsAgent
from parlour.cli import app
from parlour.play import TerminalSession, seat_table


def test_typing_hint_shows_the_bots_move_and_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    # The session thinks for HINT_SECONDS; a fixed number of simulations keeps the test independent
    # of how busy the machine is.
    monkeypatch.setattr(
        play, "hint_search", lambda state, seconds: MctsAgent(iterations=300, reuse=False).search(state)
    )
    said: list[str] = []
    entries = iter(["hint", "take 3"])

    def ask(prompt: str) -> str:
        try:
            return next(entries)
        except StopIteration:
            raise EOFError from None

    table = seat_table(parlour.load_game("nim", stones=7), ["human", "random"], seed=3)
    TerminalSession(table, ask=ask, say=said.append).run()
    hints = [line for line in said if line.startswith("Hint:")]
    assert len(hints) == 1 and hints[0].startswith("Hint: 3. take 3")
    # The hint did not play for the person: their own "take 3" was the first move of the game.
    assert table.state.history[0] == 2


def test_play_accepts_bots_with_parameters_in_the_seat_list() -> None:
    result = CliRunner().invoke(
        app, ["play", "nim", "--stones", "6", "--seats", "mcts:iterations=50,c=0.5,greedy:samples=1"]
    )
    assert result.exit_code == 0, result.output
    assert "MCTS (Player 1): takes 2" in result.output and "Greedy (Player 2)" in result.output
