"""A game's data as a designer's own folder: export, load it with the `data` option, record and replay on it."""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from parlour.engine import data
from parlour.engine.errors import DataError, InvalidOption, RecordError
from parlour.engine.game import State
from parlour.engine.records import full_record, replay, verify
from parlour.engine.registry import game_class, load_game
from parlour.games.hatairo.components import FLAG_BY_NAME


@dataclass(frozen=True)
class Edit:
    """A change to a game's data whose effect a seeded game shows (its final scores move)."""

    game: str
    options: dict[str, Any]
    seed: int
    changes: tuple[tuple[str, str, str], ...]  # (file, old text, new text), every occurrence replaced


EDITS = [
    # green's victory point token worth 9 trophies instead of 2 (both files that state it)
    Edit(
        "hanbok_runway",
        {},
        7,
        (
            ("config.toml", "\ngreen = 2", "\ngreen = 9"),
            ("vp_tokens.csv", "VP-GR,victory_point,green,2,", "VP-GR,victory_point,green,9,"),
        ),
    ),
    # every two-boat standard building worth 3 PP instead of 1
    Edit(
        "yamatai",
        {"players": 2},
        1,
        (("building_tiles.csv", ",2,1,own standard building", ",2,3,own standard building"),),
    ),
    # the topography tiles that scored 0/1/3/6 score 0/2/5/9
    Edit("hatairo", {}, 4, (("topography.csv", ",0,1,3,6,", ",0,2,5,9,"),)),
    # the first-game scene's tree moved from c3 to c2
    Edit("hatflings", {}, 3, (("scene_default.toml", 'type = "tree"\nsquare = "c3"', 'type = "tree"\nsquare = "c2"'),)),
]
GAMES = [edit.game for edit in EDITS]


def package(game: str) -> str:
    return str(game_class(game).data_package)  # type: ignore[attr-defined]


def edited_folder(edit: Edit, folder: Path) -> Path:
    data.export(package(edit.game), folder)
    for filename, old, new in edit.changes:
        path = folder / filename
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{filename} no longer holds {old!r}"
        path.write_text(text.replace(old, new), encoding="utf-8")
    return folder


def playout(game: str, seed: int, **options: Any) -> State:
    """A whole game of seeded random moves."""
    state = load_game(game, **options).new_state(seed=seed)
    chooser = random.Random(seed)
    while not state.is_terminal():
        state.apply(chooser.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game", GAMES)
def test_an_exported_folder_plays_exactly_like_the_built_in_data(game: str, tmp_path: Path) -> None:
    written = data.export(package(game), tmp_path / "mine")
    assert sorted(path.name for path in written) == sorted(data.built_in(package(game)).files)
    options = {"players": 2} if game == "yamatai" else {}
    built_in = playout(game, 11, **options)
    mine = playout(game, 11, data=str(tmp_path / "mine"), **options)
    assert mine.history == built_in.history
    assert [s.total for s in mine.scores()] == [s.total for s in built_in.scores()]
    assert mine.game.data.digest == built_in.game.data.digest  # type: ignore[attr-defined]
    # an unedited folder is the built-in data: the record names it by hash and stores no files
    assert full_record(mine)["data"] == {"hash": built_in.game.data.digest}  # type: ignore[attr-defined]


@pytest.mark.parametrize("edit", EDITS, ids=GAMES)
def test_two_data_sets_in_one_process_do_not_interfere(edit: Edit, tmp_path: Path) -> None:
    folder = edited_folder(edit, tmp_path / "mine")
    before = playout(edit.game, edit.seed, **edit.options)
    mine = playout(edit.game, edit.seed, data=str(folder), **edit.options)
    after = playout(edit.game, edit.seed, **edit.options)
    again = playout(edit.game, edit.seed, data=str(folder), **edit.options)
    assert mine.game.data.changed and not after.game.data.changed  # type: ignore[attr-defined]
    # each game reads its own data: the built-in games agree, the folder's games agree, and they differ
    assert (after.history, _totals(after)) == (before.history, _totals(before))
    assert (again.history, _totals(again)) == (mine.history, _totals(mine))
    assert (mine.history, _totals(mine)) != (before.history, _totals(before))


def _totals(state: State) -> list[float]:
    return [score.total for score in state.scores()]


@pytest.mark.parametrize("edit", EDITS, ids=GAMES)
def test_a_record_on_changed_data_replays_and_verifies_without_its_folder(edit: Edit, tmp_path: Path) -> None:
    folder = edited_folder(edit, tmp_path / "mine")
    state = playout(edit.game, edit.seed, data=str(folder), **edit.options)
    record = json.loads(json.dumps(full_record(state)))
    assert record["data"]["hash"] == state.game.data.digest  # type: ignore[attr-defined]
    assert record["data"]["files"]["config.toml" if edit.game == "hanbok_runway" else edit.changes[0][0]]
    for path in folder.iterdir():  # the folder is gone (another machine): the stored files are used
        path.unlink()
    folder.rmdir()
    replayed = verify(record)
    assert replayed.history == state.history and _totals(replayed) == _totals(state)
    # the same moves and seed on the built-in data do not give this game
    plain = {**record, "options": {**record["options"], "data": ""}}
    del plain["data"]
    with pytest.raises(RecordError):
        verify(plain)


@pytest.mark.parametrize("edit", EDITS, ids=GAMES)
def test_stored_data_that_does_not_match_its_hash_is_refused(edit: Edit, tmp_path: Path) -> None:
    state = playout(edit.game, edit.seed, data=str(edited_folder(edit, tmp_path / "mine")), **edit.options)
    record = full_record(state)
    filename, _, new = edit.changes[0]
    record["data"]["files"][filename] = record["data"]["files"][filename].replace(new, new + " ")
    with pytest.raises(RecordError, match="stored data does not match its hash"):
        replay(record)


def test_a_record_naming_unknown_data_by_hash_alone_is_refused(tmp_path: Path) -> None:
    edit = EDITS[0]
    folder = edited_folder(edit, tmp_path / "mine")
    state = playout(edit.game, edit.seed, data=str(folder))
    kept = full_record(state, store_data=False)
    assert set(kept["data"]) == {"hash"}
    assert verify(kept).history == state.history  # the folder it names still holds that data
    (folder / "config.toml").write_text((folder / "config.toml").read_text() + "\n# edited again\n")
    with pytest.raises(RecordError, match="which it does not store"):
        replay(kept)


def test_an_old_record_without_a_data_field_still_replays() -> None:
    state = playout("hanbok_runway", 5)
    record = full_record(state)
    assert "data" not in record["options"]  # the built-in data is no option value: options read as before
    del record["data"]
    assert verify(record).history == state.history


def test_record_data_of_the_wrong_shape_is_refused() -> None:
    record = full_record(playout("hatflings", 2))
    with pytest.raises(RecordError, match="must be an object with the data's hash"):
        replay({**record, "data": "sha256:00"})
    with pytest.raises(RecordError, match="exactly the files"):
        replay({**record, "data": {"hash": "sha256:00", "files": {"notes.txt": "hello"}}})


def test_export_refuses_a_folder_that_is_not_empty_unless_forced(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("my ideas")
    with pytest.raises(DataError, match="is not empty; choose an empty folder or pass --force"):
        data.export(package("hatflings"), folder)
    assert sorted(path.name for path in folder.iterdir()) == ["notes.txt"]
    data.export(package("hatflings"), folder, force=True)
    assert (folder / "components.csv").is_file() and (folder / "notes.txt").read_text() == "my ideas"
    (tmp_path / "file").write_text("")
    with pytest.raises(DataError, match="is a file, not a folder"):
        data.export(package("hatflings"), tmp_path / "file")


def test_a_folder_that_lacks_a_file_or_does_not_exist_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"no such folder \(write one with parlour data export\)"):
        load_game("hanbok_runway", data=str(tmp_path / "nowhere"))
    data.export(package("hanbok_runway"), tmp_path / "mine")
    (tmp_path / "mine" / "style_cards.csv").unlink()
    with pytest.raises(DataError, match=re.escape("missing file(s) style_cards.csv")):
        load_game("hanbok_runway", data=str(tmp_path / "mine"))


def test_the_data_option_is_checked_like_every_option(tmp_path: Path) -> None:
    with pytest.raises(InvalidOption, match="option data takes str, got 3"):
        load_game("yamatai", data=3)
    # at its default (the built-in data) it is left out of the game's options; a folder is kept there
    assert load_game("yamatai", data="").options == {"players": 4, "max_rounds": 30}
    folder = str(data.export(package("yamatai"), tmp_path / "mine")[0].parent)
    assert load_game("yamatai", data=folder).options == {"players": 4, "max_rounds": 30, "data": folder}


def test_a_folder_is_parsed_once_per_content(tmp_path: Path) -> None:
    folder = data.export(package("yamatai"), tmp_path / "mine")[0].parent
    first = load_game("yamatai", data=str(folder))
    second = load_game("yamatai", players=3, data=str(folder))
    assert first.components is second.components  # type: ignore[attr-defined]
    assert first.components == load_game("yamatai").components  # type: ignore[attr-defined]


def test_a_hatairo_folder_may_change_what_cards_score_but_not_the_cards(tmp_path: Path) -> None:
    folder = data.export(package("hatairo"), tmp_path / "mine")[0].parent
    flags = folder / "flags.csv"
    original = flags.read_text()
    flags.write_text(
        original.replace("Albania,Europe,Coastal,Fauna,Red|Black,3,", "Albania,Europe,Coastal,Fauna,Red|Red,3,")
    )
    with pytest.raises(
        DataError,
        match=re.escape(
            "flags.csv line 3 ('Albania'), column 5 (required_pigments): a Hatairo data folder may change vp"
            " (and notes), not required_pigments (the built-in data has 'Red|Black')"
        ),
    ):
        load_game("hatairo", data=str(folder))
    # a flag's VP away from the designed formula needs the formula check turned off (provenance.toml)
    flags.write_text(
        original.replace("Albania,Europe,Coastal,Fauna,Red|Black,3,", "Albania,Europe,Coastal,Fauna,Red|Black,30,")
    )
    with pytest.raises(
        DataError, match=re.escape("flags.csv line 3 ('Albania'), column 6 (vp): vp 30 breaks the designed formula")
    ):
        load_game("hatairo", data=str(folder))
    provenance = folder / "provenance.toml"
    provenance.write_text(provenance.read_text().replace("check_vp_formula = true", "check_vp_formula = false"))
    game = load_game("hatairo", data=str(folder))
    albania = FLAG_BY_NAME["albania"].id
    assert game.components.flag_vp[albania] == 30  # type: ignore[attr-defined]
    assert load_game("hatairo").components.flag_vp[albania] == 3  # type: ignore[attr-defined]


BAD_DATA = [
    # (game, file, old, new, the message's part after "data folder DIR: ")
    # a wrong count
    ("hanbok_runway", "components.csv", "reference_card,4,", "reference_card,3,",
     "components.csv line 4, column 2 (count): the rulebook lists 4 reference_card, not 3"),
    ("yamatai", "tokens.csv", "sacred_ground_token,8,", "sacred_ground_token,9,",
     "tokens.csv line 3, column 2 (count): the game has 8 of sacred_ground_token, the file says 9"),
    ("hatflings", "scene_default.toml", "pig = 1 ", "pig = 2 ",
     "scene_default.toml line 24, column 7 (pig): pig = 2 but components.csv says 1"),
    # an unknown colour
    ("hanbok_runway", "fabric_tokens.csv", "GR-3,green,", "GR-3,gren,",
     "fabric_tokens.csv line 4, column 2 (colour): unknown colour 'gren'"),
    ("hatairo", "flags.csv", "Red|Black,3,Black", "Red|Black,3,Purple",
     "flags.csv line 3 ('Albania'), column 7 (bonus_pigment): unknown pigment colour 'Purple'"),
    # a value out of range
    ("hanbok_runway", "config.toml", "safety_turn_cap = 200 ", "safety_turn_cap = -5 ",
     "config.toml line 19, column 19 (safety_turn_cap): safety_turn_cap must be 0 (off) to 100000"),
    ("yamatai", "building_tiles.csv", "B01,standard,2,0,0,0,0,2,1,", "B01,standard,2,0,0,0,0,2,0,",
     "building_tiles.csv line 2, column 9 (pp): a building is worth at least 1 PP, got 0"),
    ("hatflings", "scene_default.toml", "barrel_break_probability = 0.5", "barrel_break_probability = 1.5",
     "scene_default.toml line 27, column 28 (barrel_break_probability): barrel_break_probability must be in [0, 1]"),
    ("hatairo", "topography.csv", "T-Red-1,Red,Coastal,0,1,3,6,", "T-Red-1,Red,Coastal,0,4,3,6,",
     "topography.csv line 2 ('T-Red-1'), column 6 (vp_2): the VP table must be non-negative and never fall"),
    # a missing column
    ("hanbok_runway", "fabric_tokens.csv", "token_id,colour,influence,", "token_id,colour,influx,",
     "fabric_tokens.csv line 1 (the header): missing column(s) influence"),
    ("hatairo", "motifs.csv", "id,type,kind,subject,", "id,type,sort,subject,",
     "motifs.csv line 1 (the header): missing column(s) kind"),
    # an unknown id or kind
    ("yamatai", "fleet_tiles.csv", ",gain_coins,amount=2,", ",fly,amount=2,",
     "fleet_tiles.csv line 2, column 7 (power_key): unknown fleet power 'fly'"),
    ("hatflings", "components.csv", "\nboard_6x6_reversible,", "\nboard_8x8,",
     "components.csv line 2, column 1 (component): unknown component 'board_8x8'"),
    ("hanbok_runway", "style_cards.csv", "S05,oval,", "S05,circle,",
     "style_cards.csv line 6, column 2 (symbol): unknown symbol 'circle'"),
]  # fmt: skip


@pytest.mark.parametrize(("game", "filename", "old", "new", "message"), BAD_DATA, ids=lambda v: str(v)[:24])
def test_bad_data_names_file_line_column_and_rule_and_nothing_starts(
    game: str, filename: str, old: str, new: str, message: str, tmp_path: Path
) -> None:
    folder = edited_folder(Edit(game, {}, 0, ((filename, old, new),)), tmp_path / "mine")
    with pytest.raises(DataError) as refused:
        load_game(game, data=str(folder))
    assert str(refused.value).startswith(f"data folder {folder}: ")
    assert message in str(refused.value)


def test_parsed_data_sets_are_kept_up_to_the_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(data, "PARSED_LIMIT", 2)
    folders = []
    for n in range(3):  # three different data sets: a different safety_turn_cap in each
        folder = data.export(package("hanbok_runway"), tmp_path / f"set{n}")[0].parent
        config = folder / "config.toml"
        config.write_text(config.read_text().replace("safety_turn_cap = 200 ", f"safety_turn_cap = {10 + n} "))
        folders.append(str(folder))
    first = load_game("hanbok_runway", data=folders[0])
    assert load_game("hanbok_runway", data=folders[0]).components is first.components  # type: ignore[attr-defined]
    load_game("hanbok_runway", data=folders[1])
    load_game("hanbok_runway", data=folders[2])  # the third pushes the least recently used (the first) out
    again = load_game("hanbok_runway", data=folders[0])
    assert again.components is not first.components  # type: ignore[attr-defined]
    assert again.components == first.components and again.options["safety_turn_cap"] == 10  # type: ignore[attr-defined]


def test_a_record_whose_stored_data_is_damaged_names_the_record(tmp_path: Path) -> None:
    edit = EDITS[0]
    record = full_record(playout(edit.game, edit.seed, data=str(edited_folder(edit, tmp_path / "mine"))))
    files = record["data"]["files"]
    files["style_cards.csv"] = files["style_cards.csv"].replace("S05,oval,", "S05,circle,")
    record["data"]["hash"] = data.digest_of(files)  # consistent with its hash, but not valid data
    with pytest.raises(
        RecordError, match=re.escape("cannot be set up: the record's data: hanbok_runway style_cards.csv line 6")
    ):
        replay(record)


def test_a_hatflings_folder_with_a_smaller_supply_bounds_the_interactive_scene(tmp_path: Path) -> None:
    folder = data.export(package("hatflings"), tmp_path / "mine")[0].parent
    components, scene = folder / "components.csv", folder / "scene_default.toml"
    components.write_text(components.read_text().replace("\nbarrel,2,", "\nbarrel,1,"))
    scene.write_text(scene.read_text().replace("barrels = 2 ", "barrels = 1 "))
    assert load_game("hatflings", data=str(folder)).supply["barrel"] == 1  # type: ignore[attr-defined]
    assert load_game("hatflings", scene="interactive", num_objects=8).options["num_objects"] == 8
    with pytest.raises(InvalidOption, match="num_objects must be between 3 and the 7 objects of the supply, got 8"):
        load_game("hatflings", data=str(folder), scene="interactive", num_objects=8)


def test_a_data_file_over_the_size_limit_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = data.export(package("hatflings"), tmp_path / "mine")[0].parent
    monkeypatch.setattr(data, "MAX_FILE_BYTES", 1_000)  # the real limit is 4 MB; the game's files are smaller
    with pytest.raises(DataError, match=r"components\.csv: larger than 1000 bytes, too large for a data file"):
        load_game("hatflings", data=str(folder))
    monkeypatch.setattr(data, "MAX_FILE_BYTES", 4_000_000)
    assert load_game("hatflings", data=str(folder)).data.digest == data.built_in(package("hatflings")).digest  # type: ignore[attr-defined]
