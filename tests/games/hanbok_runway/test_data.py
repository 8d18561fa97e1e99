"""Damaged data files, written into a copy of data/ and loaded through load_components(), are refused by name."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from parlour.engine import DataError
from parlour.games.hanbok_runway import components
from tests.games.data_copy import copy_data
from tests.games.data_copy import repeat_line as _repeat
from tests.games.data_copy import replace_once as _replace


def _drop(start: str) -> Callable[[str], str]:
    """Deletes the line that starts with `start`."""
    return lambda text: "".join(line for line in text.splitlines(keepends=True) if not line.startswith(start))


@pytest.mark.parametrize(
    ("filename", "change", "message"),
    [
        ("components.csv", _drop("rulebook,"), "components.csv: no row for rulebook"),
        ("components.csv", _drop("card_tray,"), "components.csv: no row for card_tray"),
        (
            "components.csv",
            _repeat(4),
            "components.csv line 11, column 1 (component): component 'reference_card' already appears in line 4",
        ),
        (
            "components.csv",
            _replace("\nrulebook,", "\nrules_sheet,"),
            "components.csv line 10, column 1 (component): unknown component 'rules_sheet'",
        ),
        (
            "components.csv",
            _replace("reference_card,4,", "reference_card,3,"),
            "components.csv line 4, column 2 (count): the rulebook lists 4 reference_card, not 3",
        ),
        (
            "components.csv",
            _replace("card_tray,1,sourced", "card_tray,1,guess"),
            "components.csv line 5, column 3 (status): status must start with sourced or designed, got 'guess'",
        ),
        (
            "style_cards.csv",
            _repeat(2),
            "style_cards.csv line 32, column 1 (card_id): card_id 'S01' already appears in line 2",
        ),
        ("style_cards.csv", _replace("S02,oval", ",oval"), "style_cards.csv line 3, column 1 (card_id): empty card_id"),
        (
            "fabric_cards.csv",
            _repeat(2),
            "fabric_cards.csv line 32, column 1 (card_id): card_id 'F01' already appears in line 2",
        ),
        (
            "fabric_cards.csv",
            _replace("F01,green", ",green"),
            "fabric_cards.csv line 2, column 1 (card_id): empty card_id",
        ),
        (
            "fabric_cards.csv",
            _replace("F01,green,red", "F01,green,green"),
            "fabric_cards.csv line 2, column 3 (colour_b): a fabric card shows two different colours, got green twice",
        ),
        (
            "fabric_tokens.csv",
            _repeat(2),
            "fabric_tokens.csv line 38, column 1 (token_id): token_id 'GR-1' already appears in line 2",
        ),
        ("fabric_tokens.csv", _replace("GR-1,", ","), "fabric_tokens.csv line 2, column 1 (token_id): empty token_id"),
        (
            "fabric_tokens.csv",
            _replace("sourced,designed", "sourced,invented"),
            "fabric_tokens.csv line 2, column 5 (influence_status): influence_status must start with sourced",
        ),
        ("vp_tokens.csv", _replace("VP-GR,", ","), "vp_tokens.csv line 2, column 1 (token_id): empty token_id"),
        (
            "vp_tokens.csv",
            _repeat(8),
            "vp_tokens.csv line 14, column 1 (token_id): token_id 'AVP-1' already appears in line 8",
        ),
        (
            "vp_tokens.csv",
            _replace("additional_vp,,", "additional_vp,red,"),
            "vp_tokens.csv line 8, column 3 (colour): additional VP tokens are colourless, got 'red'",
        ),
        ("config.toml", _replace("safety_turn_cap = 200 ", "safety_turn_cap = 100001 "), "safety_turn_cap must be"),
        (
            "config.toml",
            _replace("[-3, -1, 1,", '["-3", -1, 1,'),
            "token_influences must be a list of whole numbers",
        ),
        ("config.toml", _replace("blue = 1", 'blue = "1"'), "[vp_trophies] blue must be a whole number >= 0"),
        (
            "config.toml",
            _replace("blue = 1", "blue = -1"),
            "[vp_trophies] blue must be a whole number >= 0, got -1",
        ),
    ],
)
def test_a_damaged_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, filename: str, change: Callable[[str], str], message: str
) -> None:
    copy_data(components, tmp_path, monkeypatch).edit(filename, change)
    with pytest.raises(DataError, match=re.escape(message)):
        components.load_components()


def test_the_untouched_copy_loads_like_the_real_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = components.load_components()
    copy_data(components, tmp_path, monkeypatch)
    assert components.load_components() == real
