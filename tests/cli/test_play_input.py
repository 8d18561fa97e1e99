"""What a person types at the `parlour play` prompt, and how the moves are listed."""

from __future__ import annotations

import pytest

import parlour
from parlour.engine.actions import Action
from parlour.engine.errors import IllegalAction
from parlour.engine.registry import register
from parlour.play import TerminalSession, choose, format_moves, seat_table

from ..engine.nim import Nim
from .scripted import typed

register(Nim)


def said_after(entries: list[str]) -> list[str]:
    said: list[str] = []
    ask = typed(entries)

    table = seat_table(parlour.load_game("nim", stones=9), ["human", "human"], seed=3)
    TerminalSession(table, ask=ask, say=said.append).run()
    return said


def test_a_mistyped_label_suggests_the_closest_legal_moves() -> None:
    state = parlour.load_game("nim", stones=9).new_state(seed=1)
    with pytest.raises(IllegalAction, match=r"no action called 'tak 2'; did you mean 'take 2'"):
        choose(state, "tak 2")


def test_a_negative_number_is_a_move_number_out_of_range() -> None:
    state = parlour.load_game("nim", stones=9).new_state(seed=1)
    with pytest.raises(IllegalAction, match="there is no move -1; choose 1 to 3"):
        choose(state, "-1")


def test_save_without_a_file_name_says_how_to_use_it() -> None:
    said = said_after(["save", "quit"])
    assert "save needs a file name: save FILE" in said


def test_a_long_list_of_moves_is_laid_out_in_numbered_columns() -> None:
    legal = [Action(i, f"halfling {i} to go", "place", ()) for i in range(40)]
    text = format_moves(legal, width=100)
    lines = text.splitlines()
    assert len(lines) < 20 and all(len(line) <= 100 for line in lines)
    assert lines[0].split()[0] == "1." and lines[1].split()[0] == "2."  # numbered down each column
    assert sorted(int(word[:-1]) for word in text.split() if word.endswith(".")) == list(range(1, 41))


def test_moves_that_differ_in_their_last_word_are_grouped_one_line_each() -> None:
    legal = [
        Action(i, f"place {kind} at {square}", "place", ())
        for i, (kind, square) in enumerate(
            (kind, square) for kind in ("normal", "joker", "greedy") for square in ("a1", "b1", "c1", "d1", "e1", "f1")
        )
    ]
    lines = format_moves(legal, width=80).splitlines()
    assert lines[0].split() == [
        "place",
        "normal",
        "at:",
        "1)",
        "a1",
        "2)",
        "b1",
        "3)",
        "c1",
        "4)",
        "d1",
        "5)",
        "e1",
        "6)",
        "f1",
    ]
    assert len(lines) == 3 and all(len(line) <= 80 for line in lines)


def test_a_short_list_or_a_narrow_terminal_keeps_one_move_a_line() -> None:
    legal = [Action(i, f"take {i}", "take", ()) for i in range(1, 4)]
    assert format_moves(legal, width=200).splitlines() == ["  1. take 1", "  2. take 2", "  3. take 3"]
    many = [Action(i, f"label number {i} rather long", "x", ()) for i in range(30)]
    assert len(format_moves(many, width=40).splitlines()) == 30


def test_a_hand_over_shows_again_the_public_moves_the_clearing_wiped() -> None:
    said: list[str] = []
    ask = typed(["1", ""] * 6)

    table = seat_table(parlour.load_game("hatairo", players=3), ["human", "random", "human"], seed=4)
    TerminalSession(table, ask=ask, say=said.append).run()
    recaps = [line for line in said if line.startswith("Since your last turn:")]
    # the bot's run of set-up steps, under its name once
    assert recaps and any("Random (Yellow):\n  - keeps a card\n  - keeps a card" in recap for recap in recaps)
    labels = {table.state.game.actions[i].label for i in table.state.history}
    assert not any(label in recap for recap in recaps for label in labels)  # words of a move may be secret


def test_a_hint_says_which_number_plays_it_in_plain_words() -> None:
    said = said_after(["hint", "quit"])
    hinted = next(line for line in said if line.startswith("Hint:")).splitlines()
    number = int(hinted[-1].removeprefix("Type ").removesuffix(" to play it."))
    legal = parlour.load_game("nim", stones=9).new_state(seed=3).legal_actions()
    assert hinted[0].startswith(f"Hint: {number}. {legal[number - 1].label}. The strongest bot played out ")
    assert "simulations" not in hinted[0] and "expected" not in hinted[0] and "+0." not in hinted[0]


@pytest.mark.parametrize("entry", ["²", "١"])
def test_a_digit_that_is_no_ascii_number_is_refused_not_a_crash(entry: str) -> None:
    state = parlour.load_game("nim", stones=9).new_state(seed=1)
    with pytest.raises(IllegalAction, match="no action called"):
        choose(state, entry)


def test_a_number_of_thousands_of_digits_is_out_of_range_not_a_crash() -> None:
    state = parlour.load_game("nim", stones=9).new_state(seed=1)
    with pytest.raises(IllegalAction, match=r"there is no move 9{24}…; choose 1 to 3"):
        choose(state, "9" * 5000)
    with pytest.raises(IllegalAction, match=r"has no action called 'xxxx.*…'$"):
        choose(state, "x" * 5000)


def test_a_short_list_goes_in_columns_when_one_a_line_would_not_leave_room() -> None:
    legal = [Action(i, f"complete flag {i}", "complete", ()) for i in range(1, 11)]
    assert len(format_moves(legal, width=80).splitlines()) == 10
    tight = format_moves(legal, width=80, most_lines=6).splitlines()
    assert len(tight) <= 6 and sorted(
        int(w.rstrip(".)")) for w in " ".join(tight).split() if w[0].isdigit() and w[-1] in ".)"
    ) == list(range(1, 11))
