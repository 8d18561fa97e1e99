"""Hatairo's component data: 208 flag cards, 36 motif cards and 16 topography tiles.

The data lives in `data/*.csv` beside this module and is loaded and checked once at import. Every
check names the file, the row and the problem (DataError), so a person correcting a designed value
learns at once if the edit breaks the component list of the rulebook.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from parlour.engine.data import DataSet, as_int, check_keys, read_csv, read_toml, toml_at
from parlour.engine.errors import DataError

PACKAGE = "parlour.games.hatairo.data"

COLOURS = ("Red", "Orange", "Yellow", "Green", "Cyan", "Blue", "Black", "Others")
RARE_COLOURS = frozenset({"Orange", "Cyan", "Others"})
CONTINENTS = ("Africa", "America", "Asia", "Europe", "Oceania")
TOPOGRAPHIES = ("Coastal", "Island", "Landlocked")
FEATURES = (
    "Vertical Stripes",
    "Horizontal Stripes",
    "Diagonal Stripes",
    "Cross",
    "Sun",
    "Star",
    "Crescent",
    "Triangle",
    "Artifact",
    "Fauna",
    "Flora",
    "Inscription",
)
PLAYER_COLOURS = ("Red", "Yellow", "Blue", "Green")  # R28: seat order

FLAG_COUNT = 208
MOTIF_COUNTS = {"I": 19, "II": 17}
TYPE_I_KINDS = ("feature", "continent", "pigment")
TYPE_II_KINDS = ("pigment_as_any", "any_as_colour", "three_for_two")
FIXED_SUBJECTS = {"pigment": "Pigment", "three_for_two": "3-for-2"}
TILES_PER_COLOUR = 4
MAX_REQUIRED = 7
VP_CAP = 28


@dataclass(frozen=True, slots=True)
class Flag:
    """One flag card. `required` lists pigment colour indices (a colour may repeat)."""

    id: int
    name: str
    continent: str
    topography: str
    features: frozenset[str]
    required: tuple[int, ...]
    vp: int
    bonus: int  # colour index of the bonus pigment (also its colour as a palette card, R4)

    @property
    def required_counts(self) -> tuple[int, ...]:
        return tuple(self.required.count(colour) for colour in range(len(COLOURS)))


@dataclass(frozen=True, slots=True)
class Motif:
    """One motif card. `design` names identical cards alike ("3-for-2", "Pigment", "Sun")."""

    id: int
    code: str
    type: str  # "I" or "II"
    kind: str
    subject: str
    vp_per_match: int
    colour: int  # colour index for pigment_as_any / any_as_colour, else -1
    design: str


@dataclass(frozen=True, slots=True)
class Tile:
    id: int
    code: str
    player_colour: str
    topography: str
    vp: tuple[int, int, int, int]  # VP for 0..3 matching flags in the tile's column


def _cell(filename: str, number: int, row: dict[str, str], key: str, column: str | None = None) -> str:
    """Where a problem is: `flags.csv line 5 ('Algeria'), column 6 (vp)` (the row named by its `key`)."""
    where = f"{filename} line {number} ({row[key]!r})"
    if column is None:
        return where
    return f"{where}, column {list(row).index(column) + 1} ({column})" if column in row else f"{where}, {column}"


def _split(cell: str) -> list[str]:
    return [part.strip() for part in cell.split("|")] if cell.strip() else []


def _flag(row_number: int, row: dict[str, str], index: int) -> Flag:
    def where(column: str) -> str:
        return _cell("flags.csv", row_number, row, "name", column)

    if row["continent"] not in CONTINENTS:
        raise DataError(
            f"{where('continent')}: unknown continent {row['continent']!r} (one of {', '.join(CONTINENTS)})"
        )
    if row["topography"] not in TOPOGRAPHIES:
        raise DataError(
            f"{where('topography')}: unknown topography {row['topography']!r} (one of {', '.join(TOPOGRAPHIES)})"
        )
    features = _split(row["features"])
    for feature in features:
        if feature not in FEATURES:
            raise DataError(f"{where('features')}: unknown feature {feature!r}")
    if len(set(features)) != len(features):
        raise DataError(f"{where('features')}: a feature is listed twice")
    pigments = _split(row["required_pigments"])
    if not 1 <= len(pigments) <= MAX_REQUIRED:
        raise DataError(
            f"{where('required_pigments')}: needs 1 to {MAX_REQUIRED} required pigments, has {len(pigments)}"
        )
    for column, pigment in [*(("required_pigments", p) for p in pigments), ("bonus_pigment", row["bonus_pigment"])]:
        if pigment not in COLOURS:
            raise DataError(f"{where(column)}: unknown pigment colour {pigment!r} (one of {', '.join(COLOURS)})")
    vp = as_int("flags.csv", row_number, "vp", row)
    if vp < 1:
        raise DataError(f"{where('vp')}: vp must be at least 1, got {vp}")
    return Flag(
        id=index,
        name=row["name"].strip(),
        continent=row["continent"],
        topography=row["topography"],
        features=frozenset(features),
        required=tuple(COLOURS.index(p) for p in pigments),
        vp=vp,
        bonus=COLOURS.index(row["bonus_pigment"]),
    )


def designed_flag_vp(flag: Flag) -> int:
    """R42's designed VP formula."""
    n = len(flag.required)
    rare = sum(1 for colour in flag.required if COLOURS[colour] in RARE_COLOURS)
    return min(VP_CAP, n * (n + 1) // 2 + rare)


def load_flags(checks: dict[str, Any], source: str | DataSet | None = None) -> tuple[Flag, ...]:
    columns = ("name", "continent", "topography", "features", "required_pigments", "vp", "bonus_pigment")
    rows = read_csv(PACKAGE if source is None else source, "flags.csv", columns)
    if len(rows) != FLAG_COUNT:
        raise DataError(f"flags.csv: the rulebook lists {FLAG_COUNT} flag cards, the file has {len(rows)} rows")
    check_keys("flags.csv", rows, "name")  # FLAG_BY_NAME looks flags up by name, ignoring case
    flags = tuple(_flag(number, row, index) for index, (number, row) in enumerate(enumerate(rows, start=2)))
    if checks.get("check_vp_formula", True):
        for flag in flags:
            if flag.vp != designed_flag_vp(flag):
                where = _cell("flags.csv", flag.id + 2, rows[flag.id], "name", "vp")
                raise DataError(
                    f"{where}: vp {flag.vp} breaks the designed formula "
                    f"(expected {designed_flag_vp(flag)}; set check_vp_formula = false in provenance.toml "
                    "after entering printed values)"
                )
    if checks.get("check_bonus_balance", True):
        per_colour = Counter(flag.bonus for flag in flags)
        share = FLAG_COUNT // len(COLOURS)
        for colour in range(len(COLOURS)):
            if per_colour[colour] != share:
                raise DataError(
                    f"flags.csv: {per_colour[colour]} flags give a {COLOURS[colour]} bonus, the designed "
                    f"balance is {share} per colour"
                )
    return flags


def _design(kind: str, subject: str) -> str:
    if kind == "pigment_as_any":
        return f"{subject} as any"
    if kind == "any_as_colour":
        return f"any as {subject}"
    if kind == "three_for_two":
        return "3-for-2"
    return subject


def _conversion(kind: str, subject: str) -> tuple[str, str]:
    """The (converts_from, converts_to) a motif of this kind and subject states."""
    if kind == "pigment_as_any":
        return subject, "Any"
    if kind == "any_as_colour":
        return "Any", subject
    if kind == "three_for_two":
        return "3 same colour", "2 any"
    return "", ""


def _motif(row_number: int, row: dict[str, str], index: int) -> Motif:
    def where(column: str) -> str:
        return _cell("motifs.csv", row_number, row, "id", column)

    kind, subject, motif_type = row["kind"], row["subject"], row["type"]
    if motif_type not in MOTIF_COUNTS:
        raise DataError(f"{where('type')}: type must be I or II, got {motif_type!r}")
    allowed = TYPE_I_KINDS if motif_type == "I" else TYPE_II_KINDS
    if kind not in allowed:
        raise DataError(f"{where('kind')}: kind {kind!r} is not a type-{motif_type} kind ({', '.join(allowed)})")
    vp = 0
    colour = -1
    if kind == "feature" and subject not in FEATURES:
        raise DataError(f"{where('subject')}: unknown feature {subject!r}")
    if kind == "continent" and subject not in CONTINENTS:
        raise DataError(f"{where('subject')}: unknown continent {subject!r}")
    # Identical cards share a design named by the subject, so these kinds take exactly one subject.
    fixed = FIXED_SUBJECTS.get(kind)
    if fixed is not None and subject != fixed:
        raise DataError(f"{where('subject')}: a {kind} motif has the subject {fixed!r}, got {subject!r}")
    if motif_type == "I":
        vp = as_int("motifs.csv", row_number, "vp_per_match", row)
        if vp < 1:
            raise DataError(f"{where('vp_per_match')}: vp_per_match must be at least 1, got {vp}")
    elif row["vp_per_match"].strip():
        raise DataError(f"{where('vp_per_match')}: type-II motifs score nothing themselves, vp_per_match must be empty")
    if kind in ("pigment_as_any", "any_as_colour"):
        if subject not in COLOURS:
            raise DataError(f"{where('subject')}: unknown pigment colour {subject!r}")
        colour = COLOURS.index(subject)
    # The conversion columns describe the card for people; the rules read kind and subject, so the
    # two must agree or an edit to the description would silently change nothing.
    converts = (row["converts_from"], row["converts_to"])
    expected = _conversion(kind, subject)
    if converts != expected:
        column = "converts_from" if converts[0] != expected[0] else "converts_to"
        raise DataError(f"{where(column)}: {kind} motifs convert {expected[0]!r} to {expected[1]!r}, got {converts}")
    return Motif(index, row["id"], motif_type, kind, subject, vp, colour, _design(kind, subject))


def load_motifs(source: str | DataSet | None = None) -> tuple[Motif, ...]:
    columns = ("id", "type", "kind", "subject", "converts_from", "converts_to", "vp_per_match")
    rows = read_csv(PACKAGE if source is None else source, "motifs.csv", columns)
    check_keys("motifs.csv", rows, "id")
    motifs = tuple(_motif(number, row, index) for index, (number, row) in enumerate(enumerate(rows, start=2)))
    for motif_type, expected in MOTIF_COUNTS.items():
        found = sum(1 for motif in motifs if motif.type == motif_type)
        if found != expected:
            raise DataError(f"motifs.csv: the rulebook has {expected} type-{motif_type} motifs, the file has {found}")
    for kind, subjects in (("feature", FEATURES), ("continent", CONTINENTS)):
        present = sorted(motif.subject for motif in motifs if motif.kind == kind)
        if present != sorted(subjects):
            raise DataError(f"motifs.csv: the {kind} motifs must be one per {kind} ({', '.join(subjects)})")
    as_any = sorted(motif.subject for motif in motifs if motif.kind == "pigment_as_any")
    if as_any != sorted(COLOURS):
        raise DataError("motifs.csv: the rulebook lists one pigment-as-any tile per colour (8)")
    return motifs


def load_tiles(source: str | DataSet | None = None) -> tuple[Tile, ...]:
    columns = ("id", "player_colour", "topography", "vp_0", "vp_1", "vp_2", "vp_3")
    rows = read_csv(PACKAGE if source is None else source, "topography.csv", columns)
    check_keys("topography.csv", rows, "id")
    tiles = []
    for index, (number, row) in enumerate(enumerate(rows, start=2)):

        def where(column: str, number: int = number, row: dict[str, str] = row) -> str:
            return _cell("topography.csv", number, row, "id", column)

        if row["player_colour"] not in PLAYER_COLOURS:
            raise DataError(f"{where('player_colour')}: unknown player colour {row['player_colour']!r}")
        if row["topography"] not in TOPOGRAPHIES:
            raise DataError(f"{where('topography')}: unknown topography {row['topography']!r}")
        vp = tuple(as_int("topography.csv", number, f"vp_{k}", row) for k in range(4))
        if list(vp) != sorted(vp) or vp[0] < 0:
            falls = next((k for k in range(4) if vp[k] < 0 or (k and vp[k] < vp[k - 1])), 0)
            raise DataError(f"{where(f'vp_{falls}')}: the VP table must be non-negative and never fall, got {vp}")
        tiles.append(Tile(index, row["id"], row["player_colour"], row["topography"], (vp[0], vp[1], vp[2], vp[3])))
    per_colour = Counter(tile.player_colour for tile in tiles)
    if len(tiles) != TILES_PER_COLOUR * len(PLAYER_COLOURS) or any(
        per_colour[colour] != TILES_PER_COLOUR for colour in PLAYER_COLOURS
    ):
        raise DataError(
            f"topography.csv: the rulebook has {TILES_PER_COLOUR} tiles for each of the 4 player colours, "
            f"the file has {dict(per_colour)}"
        )
    return tuple(tiles)


def load_checks(source: str | DataSet | None = None) -> dict[str, Any]:
    provenance = read_toml(PACKAGE if source is None else source, "provenance.toml")
    flags_section = provenance.get("flags", {})
    checks = {}
    for key in ("check_vp_formula", "check_bonus_balance"):
        value = flags_section.get(key, True)
        if not isinstance(value, bool):
            # A quoted "false" would otherwise read as true and keep the check on.
            where = toml_at("provenance.toml", provenance, "flags", key)
            raise DataError(f"{where}: [flags] {key} must be true or false, got {value!r}")
        checks[key] = value
    return checks


FLAGS: tuple[Flag, ...] = load_flags(load_checks())
MOTIFS: tuple[Motif, ...] = load_motifs()
TILES: tuple[Tile, ...] = load_tiles()
FLAG_BY_NAME = {flag.name.lower(): flag for flag in FLAGS}
# Motif designs in a fixed order: identical cards share one design and so one set of actions.
DESIGNS: tuple[str, ...] = tuple(dict.fromkeys(motif.design for motif in MOTIFS))


@dataclass(frozen=True, eq=False)  # one object per data set (parsed once): hashed by identity, cheaply
class Points:
    """The values a Hatairo data folder may change: what each flag, type-I motif and tile scores.

    The rest of the cards (names, pigments, bonuses, features, motif kinds, tile topographies) make
    the action space and the rules' tables, which every Hatairo game shares: a folder must keep
    them as the built-in data has them (`load_components` refuses a change, naming the cell)."""

    flag_vp: tuple[int, ...]
    motif_vp: tuple[int, ...]  # per motif id; 0 for type-II motifs
    tile_vp: tuple[tuple[int, int, int, int], ...]


VALUE_COLUMNS = {
    "flags.csv": ("vp",),
    "motifs.csv": ("vp_per_match",),
    "topography.csv": ("vp_0", "vp_1", "vp_2", "vp_3"),
}
"""The columns of each file a data folder may change."""
NOTE_COLUMNS = ("status", "notes", "effect", "source", "source_refs")
"""Columns that describe a card for people and change nothing in the rules."""


def points_of(flags: tuple[Flag, ...], motifs: tuple[Motif, ...], tiles: tuple[Tile, ...]) -> Points:
    return Points(
        tuple(flag.vp for flag in flags), tuple(motif.vp_per_match for motif in motifs), tuple(t.vp for t in tiles)
    )


POINTS = points_of(FLAGS, MOTIFS, TILES)
"""The built-in data's points."""


def load_components(data: DataSet) -> Points:
    """A data set's points, after the full validation of its files and a check that only the value
    columns (VALUE_COLUMNS) and notes differ from the built-in data."""
    flags = load_flags(load_checks(data), data)
    motifs, tiles = load_motifs(data), load_tiles(data)
    for filename, key in (("flags.csv", "name"), ("motifs.csv", "id"), ("topography.csv", "id")):
        _same_cards(filename, key, read_csv(data, filename), read_csv(PACKAGE, filename))
    return points_of(flags, motifs, tiles)


def _same_cards(filename: str, key: str, rows: list[dict[str, str]], built_in: list[dict[str, str]]) -> None:
    """Refuses a changed cell outside the value and note columns, naming it."""
    if len(rows) != len(built_in):  # the validators hold the counts to the rulebook's; this is a guard
        raise DataError(f"{filename}: {len(rows)} rows, the built-in data has {len(built_in)}")
    free = (*VALUE_COLUMNS[filename], *NOTE_COLUMNS)
    for number, (row, original) in enumerate(zip(rows, built_in, strict=True), start=2):
        for column, value in original.items():
            if column in free or row.get(column) == value:
                continue
            raise DataError(
                f"{_cell(filename, number, row, key, column)}: a Hatairo data folder may change "
                f"{', '.join(VALUE_COLUMNS[filename])} (and notes), not {column} (the built-in data has {value!r})"
            )
