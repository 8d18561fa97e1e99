"""What `parlour play` shows on a terminal: names, lines that fit, the bots' moves on screen, colour."""

from __future__ import annotations

import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

import parlour
from parlour.cli import app
from parlour.engine.game import Score
from parlour.play import TerminalSession, format_result, seat_table, summarise_moves
from parlour.play_screen import Screen, SeatNames

from .scripted import typed

GAMES = ["hatairo", "hatflings", "hanbok_runway", "yamatai"]
SEAT_NUMBER = re.compile(r"\bseat \d", re.IGNORECASE)


class Transcript:
    """A person at a terminal who always types `entry`; keeps every line printed and every prompt."""

    def __init__(self, entry: str = "1", turns: int = 30) -> None:
        self.lines: list[str] = []
        self.prompts: list[str] = []
        self.entry, self.turns = entry, turns
        self.asked_at: list[int] = []
        """The index in `lines` of each prompt."""

    def say(self, text: str) -> None:
        self.lines.extend(text.split("\n"))

    def ask(self, prompt: str) -> str:
        if len(self.prompts) >= self.turns:
            raise EOFError
        self.prompts.append(prompt)
        self.asked_at.append(len(self.lines))
        self.lines.append(prompt)
        return self.entry


def played(game: str, seats: list[str], screen: Screen, turns: int = 30, seed: int = 2, **options: Any) -> Transcript:
    seen = Transcript(turns=turns)
    table = seat_table(parlour.load_game(game, **options), seats, seed=seed)
    TerminalSession(table, ask=seen.ask, say=seen.say, screen=screen).run()
    return seen


@pytest.mark.parametrize("width", [80, 120])
@pytest.mark.parametrize("game", GAMES)
def test_no_line_is_wider_than_the_terminal_and_no_word_is_cut(game: str, width: int) -> None:
    screen = Screen(width=width, height=24)
    seen = played(game, ["human", "random"], screen, players=2)
    assert max(len(line) for line in seen.lines) <= width
    board = parlour.load_game(game, players=2).new_state(seed=2).render(0)
    assert any(len(line) > 80 for line in board.splitlines())  # the board needs fitting
    assert "\n".join(screen.fit(board)).split() == board.split()  # every word whole, in order


def test_a_word_longer_than_the_screen_stays_whole() -> None:
    lines = Screen(width=20).fit("see Saint-Vincent-and-the-Grenadines-flag now")
    assert [line.strip() for line in lines] == ["see", "Saint-Vincent-and-the-Grenadines-flag", "now"]


@pytest.mark.parametrize("game", GAMES)
def test_the_prompt_names_the_colour_and_no_seat_number_is_shown(game: str) -> None:
    seen = played(game, ["human", "random"], Screen(80, 24), turns=12, players=2)
    colours = {
        "hatairo": "Red",
        "hatflings": parlour.load_game("hatflings").new_state(seed=2).view(None)["colours"][0].capitalize(),
        "hanbok_runway": "Player 1",
        "yamatai": "Blue",
    }
    assert set(seen.prompts) == {colours[game] + "> "}
    assert not [line for line in seen.lines if SEAT_NUMBER.search(line) or re.search(r"\b[a-z]+_[a-z]+", line)]
    assert any(line.startswith("Random (") for line in seen.lines)


@pytest.mark.parametrize("game", GAMES)
def test_the_bots_move_is_on_a_24_line_screen_when_the_person_is_asked(game: str) -> None:
    seen = Transcript(turns=25)
    asked_at: list[tuple[int, int, int]] = []  # lines printed so far; the bot's name and its last step

    def ask(prompt: str) -> str:
        told = [i for i, line in enumerate(seen.lines) if line.startswith("Random (")]
        if told and (not asked_at or asked_at[-1][1] != told[-1]):  # the first prompt after the bot moved
            steps = told[-1] + 1
            while steps < len(seen.lines) and seen.lines[steps].startswith("  - "):
                steps += 1
            asked_at.append((len(seen.lines), told[-1], steps - 1))
        return seen.ask(prompt)

    table = seat_table(parlour.load_game(game, players=2), ["human", "random"], seed=3)
    TerminalSession(table, ask=ask, say=seen.say, screen=Screen(80, 24)).run()
    assert asked_at
    # The prompt line itself is the 24th: the bot's move must be within the 23 lines above it. A
    # bot's run of more turns than a screen holds (Yamataï's two turns a round) keeps its last steps.
    for printed, name, last_step in asked_at:
        assert printed - name <= 23 or (last_step - name >= 20 and printed - last_step <= 23), (printed, name)


def test_after_a_move_only_what_changed_is_shown_and_board_shows_it_all() -> None:
    seen = Transcript(turns=2)
    table = seat_table(parlour.load_game("hatairo", players=2), ["human", "greedy"], seed=5)
    TerminalSession(table, ask=seen.ask, say=seen.say, screen=Screen(80, 24)).run()
    second_turn = seen.lines[seen.asked_at[0] + 1 : seen.asked_at[1]]
    assert len(second_turn) <= 23 and "Changed on the board:" in second_turn
    full = Screen(80, 24).fit(table.state.render(0))
    assert len(full) > 24

    said: list[str] = []
    TerminalSession(table, ask=typed(["board"]), say=said.append, screen=Screen(80, 24)).run()
    assert "\n".join(full) in said  # what `board` prints: the whole board


def scored(name: str, totals: list[float], winners: list[int]) -> Any:
    scores = [Score(total, {"flags": total - 1, "motifs": 1}) for total in totals]
    return SimpleNamespace(scores=lambda: scores, winners=lambda: winners, game=SimpleNamespace(name=name))


NAMES = SeatNames(("Red", "Blue"), ("you", "Greedy"))


def test_the_end_says_who_won_in_the_players_terms_with_the_breakdown() -> None:
    won = format_result(scored("hatairo", [34, 29], [0]), NAMES, viewer=0)
    assert won.splitlines()[0] == "Game over. You win 34–29."
    assert "  You (Red): 34 (winner) — flags 33, motifs 1" in won.splitlines()
    lost = format_result(scored("hatairo", [29, 34], [1]), NAMES, viewer=0)
    assert lost.splitlines()[0] == "Game over. You lose: Greedy (Blue) wins 34–29."
    shared = format_result(scored("hatairo", [30, 30], [0, 1]), NAMES, viewer=0)
    assert shared.splitlines()[0] == "Game over. A shared win: You (Red) and Greedy (Blue), 30 each."
    assert not any(SEAT_NUMBER.search(text) for text in (won, lost, shared))


def test_a_tie_break_that_decided_is_explained() -> None:
    text = format_result(scored("yamatai", [50, 50], [1]), NAMES, viewer=0)
    assert text.splitlines()[0] == "Game over. You lose: Greedy (Blue) wins 50–50."
    assert text.splitlines()[1] == (
        "You (Red) and Greedy (Blue) tied on 50;"
        " among tied players the one who played earliest in the final round wins."
    )
    assert "tied" not in format_result(scored("yamatai", [51, 50], [0]), NAMES, viewer=0)


def test_seat_numbers_in_the_games_words_are_said_as_names() -> None:
    names = SeatNames(("Blue", "Orange"), ("you", "Greedy"))
    assert names.humanise("seat 1 (orange) buys a boat") == "Orange buys a boat"
    assert names.humanise("seat 0 blue: 10 coins; Seat 1 (you) draws") == "Blue: 10 coins; Orange (you) draws"
    assert names.humanise("seat 0 (blue) uses fleet tile 4: place_sacred_ground") == (
        "Blue uses fleet tile 4: place sacred ground"
    )


def test_colour_names_are_coloured_only_when_the_screen_takes_colour() -> None:
    line = "Red pays Blue with red paint"
    painted = Screen(colour=True).paint(line, ["Red"])
    assert "\033[31;1;4mRed\033[0m" in painted  # the seat: coloured, bold and underlined
    assert "\033[34mBlue\033[0m" in painted and "\033[31mred\033[0m" in painted
    assert Screen(colour=False).paint(line, ["Red"]) == line


def on_a_terminal(env: dict[str, str]) -> str:
    """What `parlour play` writes to a real 80×24 terminal up to its first prompt."""
    parent, child = pty.openpty()
    os.set_blocking(parent, False)
    import fcntl
    import struct
    import termios

    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    command = [
        str(Path(sys.executable).parent / "parlour"),
        "play",
        "hatflings",
        "--seats",
        "human,random",
        "--seed",
        "1",
    ]
    clean = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    process = subprocess.Popen(command, stdin=child, stdout=child, stderr=child, env={**clean, "TERM": "xterm", **env})
    os.close(child)
    out = b""
    deadline = time.monotonic() + 60
    try:
        while b"> " not in out.split(b"\n")[-1] and time.monotonic() < deadline:
            ready, _, _ = select.select([parent], [], [], 1)
            if ready:
                out += os.read(parent, 65536)
        os.write(parent, b"quit\n")
        process.wait(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
        os.close(parent)
    return out.decode()


def test_a_terminal_gets_colour_and_no_color_or_a_pipe_gets_none() -> None:
    coloured = on_a_terminal({})
    assert "\033[" in coloured and "Yellow> " in re.sub(r"\033\[[0-9;]*m", "", coloured)
    assert max(len(re.sub(r"\033\[[0-9;]*m", "", line)) for line in coloured.splitlines()) <= 80
    assert "\033[" not in on_a_terminal({"NO_COLOR": "1"})
    piped = CliRunner().invoke(app, ["play", "hatflings", "--seed", "1"], input="quit\n")
    assert piped.exit_code == 0 and "\033[" not in piped.output and "At the table: You (" in piped.output


@pytest.mark.parametrize("game", ["hatairo", "hanbok_runway", "yamatai"])
def test_nothing_a_bot_alone_may_see_is_printed_for_the_person(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    table = seat_table(parlour.load_game(game, players=2), ["human", "random"], seed=6)
    secrets: list[str] = []
    own: set[str] = set()  # the person's own news may read the same ("you put your Coastal tile ...")
    apply = type(table.state).apply

    def recording(state: Any, action: Any) -> Any:
        events = apply(state, action)
        if state is table.state:
            secrets.extend(event.text for event in events if not event.visible_to(0))
            own.update(event.text for event in events if event.visible_to(0))
        return events

    monkeypatch.setattr(type(table.state), "apply", recording)
    seen = Transcript(turns=40)
    session = TerminalSession(table, ask=seen.ask, say=seen.say, screen=Screen(200, 24))
    session.run()
    assert secrets  # the bot had secrets to keep
    printed = "\n".join(seen.lines)
    leaked = [text for text in secrets if text not in own and session.names.humanise(text) in printed]
    assert not leaked


def test_a_seat_named_red_is_styled_apart_from_red_paint() -> None:
    painted = Screen(colour=True).paint("You (Red) pays Red to Greedy (Blue)", NAMES.styled())
    assert "\033[31;1;4mYou (Red)\033[0m" in painted and "\033[34;1;4mGreedy (Blue)\033[0m" in painted
    assert "pays \033[31mRed\033[0m to" in painted  # the pigment: colour only
    assert SeatNames(("Red", "Blue"), ("", "")).styled() == []  # hot-seat: bare colours stay paint-like


def test_after_a_hand_over_the_recap_tells_the_others_moves_not_ones_own() -> None:
    seen = Transcript(turns=40)
    table = seat_table(parlour.load_game("hanbok_runway", start_player=0), ["human", "human"], seed=5)
    TerminalSession(table, ask=seen.ask, say=seen.say, screen=Screen(80, 24)).run()
    recaps = [i for i, line in enumerate(seen.lines) if line == "Since your last turn:"]
    assert len(recaps) >= 3
    for start in recaps:
        holder = next((seen.lines[i] for i in seen.asked_at if i > start), None)
        if holder is None:  # the input ended at this hand-over
            continue
        told = [line for line in seen.lines[start + 1 : start + 8] if line.startswith("Player ")]
        assert told and not [line for line in told if line.startswith(holder.removesuffix("> "))]


def test_the_session_follows_the_terminal_when_it_is_resized(monkeypatch: pytest.MonkeyPatch) -> None:
    widths = iter([120, 60])
    seen = Transcript(turns=2)

    def ask(prompt: str) -> str:
        monkeypatch.setenv("COLUMNS", str(next(widths, 60)))
        return seen.ask(prompt)

    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("LINES", "40")
    table = seat_table(parlour.load_game("hanbok_runway"), ["human", "random"], seed=2)
    TerminalSession(table, ask=ask, say=seen.say).run()
    before, after = seen.lines[: seen.asked_at[0]], seen.lines[seen.asked_at[1] :]
    assert max(map(len, before)) > 60 and max(map(len, after)) <= 60


def test_a_table_too_wide_for_the_terminal_is_narrowed_and_stays_aligned() -> None:
    board = parlour.load_game("hatairo", players=2).new_state(seed=5).render(0).splitlines()
    assert max(len(line) for line in board if "col 1" in line) > 80  # a player's mat, as the game lays it out
    lines = Screen(80, 24).fit("\n".join(board))
    header = next(i for i, line in enumerate(lines) if "col 1" in line)
    mat = lines[header : header + 6]
    assert all(len(line) <= 80 for line in mat) and mat[-1].lstrip().startswith("topography:")
    cells = [i for i, ch in enumerate(mat[2]) if ch == "·"]  # row 1 of an empty gallery
    assert cells == [mat[0].index(f"col {n}") for n in (1, 2, 3, 4)]


def block_before(seen: Transcript, prompt: int) -> list[str]:
    """The lines printed since the entry before prompt number `prompt` (0 = the first)."""
    start = seen.asked_at[prompt - 1] + 1 if prompt else 0
    return seen.lines[start : seen.asked_at[prompt]]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize("game", GAMES)
def test_the_first_turn_fits_the_screen(game: str, size: tuple[int, int]) -> None:
    screen = Screen(*size)
    seen = played(game, ["human", "random"], screen, turns=1, players=2)
    first = block_before(seen, 0)
    assert len(first) < screen.height  # the prompt is the last line
    board = screen.fit(parlour.load_game(game, players=2).new_state(seed=2).render(0))
    if len(board) >= screen.height:  # too tall to show whole: its top, cut with a note, and the moves
        assert "Top of the board:" in first and board[1] in first
        assert any(line.endswith("more lines: type board to see the whole board") for line in first)
    assert any(line.startswith("Your move") for line in first)


def test_a_hatflings_turn_with_80_moves_keeps_the_bots_move_and_the_board_on_screen() -> None:
    # The interactive scene: every object may go on nearly every free square, 88 moves after the bot's.
    seen = Transcript(turns=3)
    entries = iter(["1", "moves", "box at c4"])
    table = seat_table(parlour.load_game("hatflings", scene="interactive"), ["human", "random"], seed=3)
    counts: list[int] = []

    def ask(prompt: str) -> str:
        counts.append(len(table.state.legal_actions()))
        seen.ask(prompt)
        return next(entries)

    TerminalSession(table, ask=ask, say=seen.say, screen=Screen(80, 24)).run()
    assert counts[1] >= 80
    second = block_before(seen, 1)
    assert len(second) <= 23 and any(line.startswith("Random (Purple): puts") for line in second)
    assert "Changed on the board:" in second and "    a    b    c    d    e    f" in second
    summary = next(line for line in second if "moves:" in line)
    assert summary.strip().startswith(f"{counts[1]} moves: 1-") and "box at …" in summary
    listed = block_before(seen, 2)  # `moves` lists them all, numbered, on request
    numbers = [int(n) for line in listed for n in re.findall(r"\b(\d+)[.)] ", line)]
    assert sorted(numbers) == list(range(1, counts[1] + 1))
    assert "You (Yellow): puts a box at c4" in seen.lines  # a move's words play it


def test_a_long_list_of_moves_is_summed_up_by_kind_with_its_numbers() -> None:
    state = parlour.load_game("hatairo", players=2).new_state(seed=2)
    legal = state.legal_actions()
    assert len(legal) == 18
    text = summarise_moves(legal)
    assert text.splitlines()[0] == "  18 moves: 1-9 keep … in palette, 10-18 keep … in atelier"
    assert "type moves to list them all" in text
    one = summarise_moves(legal[:1] + legal[9:11])
    assert one.splitlines()[0] == f"  3 moves: 1 {legal[0].label}, 2, 3 keep … in atelier"


def test_the_share_of_the_screen_the_moves_may_take_is_a_setting() -> None:
    table = seat_table(parlour.load_game("hatflings", scene="interactive"), ["human", "random"], seed=3)
    with pytest.raises(ValueError, match="share of the screen's height"):
        TerminalSession(table, screen=Screen(80, 24), move_list_share=0)
    whole = Transcript(turns=1)
    TerminalSession(table, ask=whole.ask, say=whole.say, screen=Screen(80, 24), move_list_share=1).run()
    assert not any("moves:" in line for line in whole.lines)
    assert any(line.lstrip().startswith("box at:") for line in whole.lines)  # the list itself


def test_a_kept_card_is_told_once_to_its_keeper_and_as_a_card_to_the_others() -> None:
    seen = played("hatairo", ["human", "human"], Screen(80, 24), turns=30, players=2)
    told = [line for line in seen.lines if line.startswith(("Red: ", "You ", "Since "))]
    own = told[: told.index("Since your last turn:")]
    # one line a card, and not the others' "keeps a card" as well
    assert sum(line.startswith("You keep ") for line in own) == 3 and not any("a card" in line for line in own)
    # Yellow, handed the screen, reads Red's moves again as the table saw them: cards and tiles,
    # not which ones nor where
    recap = seen.lines[seen.lines.index("Since your last turn:") + 1 :]
    assert recap[:7] == ["Red:", *["  - keeps a card"] * 3, *["  - lays a topography tile"] * 3]


def test_a_players_own_secret_reads_as_a_sentence_to_her_and_not_under_her_name() -> None:
    seen = played("hatairo", ["human", "random"], Screen(80, 24), turns=6, players=2)
    kept = [line for line in seen.lines if line.startswith("You keep ")]
    laid = [line for line in seen.lines if line.startswith("You put your ")]
    assert len(kept) == 3 and all(line.endswith(("in your palette", "in your atelier")) for line in kept)
    assert len(laid) == 3 and all(" tile under column " in line for line in laid)
    assert not any(re.search(r"\byou\b.*\byou (keep|put)\b", line, re.IGNORECASE) for line in seen.lines)


def test_the_others_read_each_set_up_decision_of_a_player_without_what_she_chose() -> None:
    seen = played("hatairo", ["random", "human"], Screen(80, 24), turns=1, players=2)
    before = seen.lines[: seen.asked_at[0]]
    told = [
        line.removeprefix("Random (Red): ").removeprefix("  - ")
        for line in before
        if "(Red): " in line or line.startswith("  - ")
    ]
    assert told == [*["keeps a card"] * 3, *["lays a topography tile"] * 3]
    assert not any("cannot see" in line for line in before)


@pytest.mark.parametrize(("game", "told"), [("yamatai", "  - stops placing boats"), ("hatairo", "  - will place ")])
def test_a_rivals_public_step_reads_as_what_she_chose_not_as_a_hidden_move(game: str, told: str) -> None:
    """A step that only prepares the move finishing the turn (ending a phase early, the gallery
    cell chosen before paying) is a public choice: the other player reads it in the game's words."""
    seen = played(game, ["random", "human"], Screen(80, 24), turns=20, players=2)
    assert any(line.startswith(told) for line in seen.lines)
    assert not any("a move you cannot see" in line for line in seen.lines)
