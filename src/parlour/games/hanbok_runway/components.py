"""Hanbok Runway's component data: read from the files in `data/`, validated, and frozen.

Every numeric value of this game is *designed* (no public component list exists), so it lives in
the data files, tagged, where a person who owns the game can correct it without touching code.
Validation checks the data against the rulebook's component list (components.csv) and the
engine parameters (config.toml) and raises DataError naming the file, the line, the column and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.engine.data import DataSet, as_int, at, check_keys, read_csv, read_toml, toml_at
from parlour.engine.errors import DataError

PACKAGE = "parlour.games.hanbok_runway.data"

SYMBOLS = ("oval", "triangle", "bell", "trapezoid", "mannequin")
"""The style card symbols; their effects are rules (R12-R14), so the names are fixed."""
OVAL, TRIANGLE, BELL, TRAPEZOID, MANNEQUIN = range(5)

CONFIG_INTS = (
    "players",
    "tokens_per_colour",
    "initial_draw",
    "draw_per_turn",
    "hand_limit",
    "max_sets_per_turn",
    "max_sets_per_player",
    "end_trigger_empty_colours",
    "end_trigger_sets",
    "min_influence_for_vp",
    "triangle_bonus",
    "trapezoid_factor",
    "additional_vp_supply",
    "additional_vp_trophies",
    "safety_turn_cap",
)

RULEBOOK_COUNTS = {
    "style_card": 30,
    "fabric_card": 30,
    "reference_card": 4,
    "card_tray": 1,
    "start_player_marker": 1,
    "rulebook": 1,
    "fabric_token": 36,
    "victory_point_token": 6,
    "additional_vp_token": 6,
}
"""The rulebook's component list (all counts sourced); components.csv must give exactly these rows."""
STATUSES = ("sourced", "designed")
MAX_SAFETY_TURN_CAP = 100_000
KEY_COLUMNS = {
    "components.csv": "component",
    "fabric_tokens.csv": "token_id",
    "style_cards.csv": "card_id",
    "fabric_cards.csv": "card_id",
    "vp_tokens.csv": "token_id",
}
"""The column that names each row of a file: it must be filled and never repeat."""


@dataclass(frozen=True)
class Components:
    """Everything the rules need from the data files, as indices and small tuples."""

    colours: tuple[str, ...]
    token_values: tuple[tuple[int, ...], ...]  # per colour, the influence of each of its tokens
    queue_face_up: tuple[bool, ...]  # per queue position (index 0 = position 1 = taken first)
    style_cards: tuple[int, ...]  # the symbol of each style card
    fabric_kinds: tuple[tuple[int, ...], ...]  # each distinct fabric card: its colour(s), sorted
    fabric_cards: tuple[int, ...]  # the kind of each fabric card
    kind_labels: tuple[str, ...]  # each fabric kind's name, its colours joined: "green/red"
    vp_trophies: tuple[int, ...]  # per colour
    # the whole numbers of config.toml (see there for what each means)
    players: int
    tokens_per_colour: int
    initial_draw: int
    draw_per_turn: int
    hand_limit: int
    max_sets_per_turn: int
    max_sets_per_player: int
    end_trigger_empty_colours: int
    end_trigger_sets: int
    min_influence_for_vp: int
    triangle_bonus: int
    trapezoid_factor: int
    additional_vp_supply: int
    additional_vp_trophies: int
    safety_turn_cap: int

    def kind_label(self, kind: int) -> str:
        return self.kind_labels[kind]


def _error(
    filename: str, row: int | None, problem: str, cells: dict[str, str] | None = None, column: str | None = None
) -> DataError:
    """The error of a file, a line of it (`row`) or one cell (`column` of the row `cells`)."""
    where = filename if row is None else at(filename, row, cells, column)
    return DataError(f"hanbok_runway {where}: {problem}")


def _config_error(config: dict[str, Any], keys: tuple[str, ...], problem: str) -> DataError:
    """The error of a key of config.toml, at its line."""
    return DataError(f"hanbok_runway {toml_at('config.toml', config, *keys)}: {problem}")


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _settings(config: dict[str, Any]) -> dict[str, int]:
    settings: dict[str, int] = {}
    for key in CONFIG_INTS:
        value = config.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise _config_error(config, (key,), f"{key} must be a whole number, got {value!r}")
        settings[key] = value
    if settings["players"] != 2:
        raise _config_error(config, ("players",), f"Hanbok Runway is a 2-player game, players = {settings['players']}")
    for key in CONFIG_INTS:
        if key not in ("safety_turn_cap", "min_influence_for_vp") and settings[key] < 1:
            raise _config_error(config, (key,), f"{key} must be at least 1, got {settings[key]}")
    if not 0 <= settings["safety_turn_cap"] <= MAX_SAFETY_TURN_CAP:
        # the bounds of the game's safety_turn_cap option, whose default this is
        raise _config_error(config, ("safety_turn_cap",), f"safety_turn_cap must be 0 (off) to {MAX_SAFETY_TURN_CAP}")
    return settings


def _colours(config: dict[str, Any]) -> tuple[str, ...]:
    colours = config.get("colours")
    if not isinstance(colours, list) or not colours or not all(isinstance(c, str) and c for c in colours):
        raise _config_error(config, ("colours",), "colours must be a list of colour names")
    if len(set(colours)) != len(colours):
        raise _config_error(config, ("colours",), f"colours lists a colour twice: {colours}")
    return tuple(colours)


def _component_counts(rows: list[dict[str, str]]) -> dict[str, int]:
    counts = {}
    for n, row in enumerate(rows, 2):
        if row["component"] not in RULEBOOK_COUNTS:
            raise _error("components.csv", n, f"unknown component {row['component']!r}", row, "component")
        counts[row["component"]] = as_int("components.csv", n, "count", row)
    missing = [name for name in RULEBOOK_COUNTS if name not in counts]
    if missing:
        raise _error("components.csv", None, f"no row for {', '.join(missing)} (the rulebook lists them)")
    return counts


def _rulebook_counts(counts: dict[str, int], rows: list[dict[str, str]]) -> None:
    for n, row in enumerate(rows, 2):
        name, count = row["component"], counts[row["component"]]
        if count != RULEBOOK_COUNTS[name]:
            raise _error(
                "components.csv", n, f"the rulebook lists {RULEBOOK_COUNTS[name]} {name}, not {count}", row, "count"
            )


def _rows_are_named(files: dict[str, list[dict[str, str]]]) -> None:
    """Every row has its own id and every status column says sourced or designed (it may qualify parts)."""
    for filename, rows in files.items():
        if filename in KEY_COLUMNS:
            try:
                check_keys(filename, rows, KEY_COLUMNS[filename])
            except DataError as error:
                raise DataError(f"hanbok_runway {error}") from None
        for n, row in enumerate(rows, 2):
            for column, value in row.items():
                if column.endswith("status") and value.split(" ")[0] not in STATUSES:
                    raise _error(
                        filename, n, f"{column} must start with sourced or designed, got {value!r}", row, column
                    )


def _expect_count(counts: dict[str, int], component: str, found: int, filename: str) -> None:
    if component not in counts:
        raise _error("components.csv", None, f"no {component} row")
    if counts[component] != found:
        raise _error(filename, None, f"{found} {component}s but components.csv lists {counts[component]}")


def _colour_index(colours: tuple[str, ...], filename: str, n: int, row: dict[str, str], column: str) -> int:
    name = row[column]
    if name not in colours:
        raise _error(filename, n, f"unknown colour {name!r} (colours: {', '.join(colours)})", row, column)
    return colours.index(name)


def _token_values(
    rows: list[dict[str, str]], colours: tuple[str, ...], settings: dict[str, int], config: dict[str, Any]
) -> tuple[tuple[int, ...], ...]:
    values: list[list[int]] = [[] for _ in colours]
    for n, row in enumerate(rows, 2):
        colour = _colour_index(colours, "fabric_tokens.csv", n, row, "colour")
        values[colour].append(as_int("fabric_tokens.csv", n, "influence", row))
    per_colour = settings["tokens_per_colour"]
    for name, found in zip(colours, values, strict=True):
        if len(found) != per_colour:
            raise _error("fabric_tokens.csv", None, f"{name} has {len(found)} tokens, config says {per_colour}")
    # config.toml's token_influences states the designed multiset shared by every colour. It is an
    # optional cross-check: delete it to give colours different spreads in fabric_tokens.csv.
    shared = config.get("token_influences")
    if shared is not None and (not isinstance(shared, list) or not all(_whole(value) for value in shared)):
        raise _config_error(
            config, ("token_influences",), f"token_influences must be a list of whole numbers, got {shared!r}"
        )
    if shared is not None:
        for name, found in zip(colours, values, strict=True):
            if sorted(found) != sorted(shared):
                raise _error(
                    "fabric_tokens.csv",
                    None,
                    f"{name} values {sorted(found)} differ from config.toml token_influences {sorted(shared)}",
                )
    return tuple(tuple(found) for found in values)


def _queue_face_up(rows: list[dict[str, str]], settings: dict[str, int], config: dict[str, Any]) -> tuple[bool, ...]:
    sides: list[str] = []
    for n, row in enumerate(rows, 2):
        if as_int("queue_setup.csv", n, "position", row) != n - 1:
            raise _error(
                "queue_setup.csv", n, f"positions must run 1, 2, 3 ... in order, got {row['position']}", row, "position"
            )
        if row["side_up"] not in ("front", "back"):
            raise _error("queue_setup.csv", n, f"side_up must be front or back, got {row['side_up']!r}", row, "side_up")
        sides.append(row["side_up"])
    if len(sides) != settings["tokens_per_colour"]:
        raise _error("queue_setup.csv", None, f"{len(sides)} positions for {settings['tokens_per_colour']} tokens")
    if config.get("queue_sides") != sides:
        raise _error("queue_setup.csv", None, f"sides {sides} differ from config.toml queue_sides")
    return tuple(side == "front" for side in sides)


def _style_cards(rows: list[dict[str, str]]) -> tuple[int, ...]:
    cards = []
    for n, row in enumerate(rows, 2):
        if row["symbol"] not in SYMBOLS:
            raise _error(
                "style_cards.csv", n, f"unknown symbol {row['symbol']!r} (symbols: {', '.join(SYMBOLS)})", row, "symbol"
            )
        cards.append(SYMBOLS.index(row["symbol"]))
    return tuple(cards)


def _fabric_cards(
    rows: list[dict[str, str]], colours: tuple[str, ...]
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    kinds: list[tuple[int, ...]] = []
    cards: list[int] = []
    for n, row in enumerate(rows, 2):
        pair = {_colour_index(colours, "fabric_cards.csv", n, row, key) for key in ("colour_a", "colour_b")}
        if len(pair) != 2:
            raise _error(
                "fabric_cards.csv",
                n,
                f"a fabric card shows two different colours, got {row['colour_a']} twice",
                row,
                "colour_b",
            )
        kind = tuple(sorted(pair))
        if kind not in kinds:
            kinds.append(kind)
        cards.append(kinds.index(kind))
    order = sorted(range(len(kinds)), key=lambda k: kinds[k])
    renumber = {old: new for new, old in enumerate(order)}
    return tuple(kinds[k] for k in order), tuple(renumber[card] for card in cards)


def _vp_trophies(
    rows: list[dict[str, str]], colours: tuple[str, ...], settings: dict[str, int], config: dict[str, Any]
) -> tuple[int, int]:
    """Checks vp_tokens.csv against config.toml; returns (VP tokens, additional VP tokens) found."""
    designed = config.get("vp_trophies")
    if not isinstance(designed, dict) or sorted(designed) != sorted(colours):
        raise _config_error(config, ("vp_trophies",), "[vp_trophies] must give the trophies of every colour")
    for colour, value in designed.items():
        if not _whole(value) or value < 0:
            raise _config_error(
                config, ("vp_trophies", colour), f"[vp_trophies] {colour} must be a whole number >= 0, got {value!r}"
            )
    vp_seen: set[str] = set()
    additional = 0
    for n, row in enumerate(rows, 2):
        trophies = as_int("vp_tokens.csv", n, "trophies", row)
        if as_int("vp_tokens.csv", n, "count", row) != 1:
            raise _error("vp_tokens.csv", n, "each row is one token (count 1)", row, "count")
        if row["type"] == "victory_point":
            _colour_index(colours, "vp_tokens.csv", n, row, "colour")
            if row["colour"] in vp_seen:
                raise _error("vp_tokens.csv", n, f"a second VP token for {row['colour']}", row, "colour")
            if trophies != designed[row["colour"]]:
                raise _error(
                    "vp_tokens.csv",
                    n,
                    f"{row['colour']} shows {trophies} trophies, config.toml says {designed[row['colour']]}",
                    row,
                    "trophies",
                )
            vp_seen.add(row["colour"])
        elif row["type"] == "additional_vp":
            if row["colour"]:
                raise _error(
                    "vp_tokens.csv", n, f"additional VP tokens are colourless, got {row['colour']!r}", row, "colour"
                )
            if trophies != settings["additional_vp_trophies"]:
                raise _error(
                    "vp_tokens.csv",
                    n,
                    f"additional VP token shows {trophies} trophies, config.toml says "
                    f"{settings['additional_vp_trophies']}",
                    row,
                    "trophies",
                )
            additional += 1
        else:
            raise _error(
                "vp_tokens.csv", n, f"type must be victory_point or additional_vp, got {row['type']!r}", row, "type"
            )
    if additional != settings["additional_vp_supply"]:
        raise _error(
            "vp_tokens.csv",
            None,
            f"{additional} additional VP tokens, config.toml says {settings['additional_vp_supply']}",
        )
    return len(vp_seen), additional


def build_components(
    config: dict[str, Any],
    component_rows: list[dict[str, str]],
    token_rows: list[dict[str, str]],
    queue_rows: list[dict[str, str]],
    style_rows: list[dict[str, str]],
    fabric_rows: list[dict[str, str]],
    vp_rows: list[dict[str, str]],
) -> Components:
    """Validate the parsed data files against each other and the rulebook; raises DataError."""
    settings = _settings(config)
    colours = _colours(config)
    _rows_are_named(
        {
            "components.csv": component_rows,
            "fabric_tokens.csv": token_rows,
            "queue_setup.csv": queue_rows,
            "style_cards.csv": style_rows,
            "fabric_cards.csv": fabric_rows,
            "vp_tokens.csv": vp_rows,
        }
    )
    counts = _component_counts(component_rows)
    token_values = _token_values(token_rows, colours, settings, config)
    _expect_count(counts, "fabric_token", sum(len(v) for v in token_values), "fabric_tokens.csv")
    queue_face_up = _queue_face_up(queue_rows, settings, config)
    style_cards = _style_cards(style_rows)
    _expect_count(counts, "style_card", len(style_cards), "style_cards.csv")
    fabric_kinds, fabric_cards = _fabric_cards(fabric_rows, colours)
    _expect_count(counts, "fabric_card", len(fabric_cards), "fabric_cards.csv")
    vp_tokens, additional = _vp_trophies(vp_rows, colours, settings, config)
    _expect_count(counts, "victory_point_token", vp_tokens, "vp_tokens.csv")
    _expect_count(counts, "additional_vp_token", additional, "vp_tokens.csv")
    if vp_tokens != len(colours):
        raise _error("vp_tokens.csv", None, f"{vp_tokens} VP tokens for {len(colours)} colours")
    _rulebook_counts(counts, component_rows)
    return Components(
        colours=colours,
        token_values=token_values,
        queue_face_up=queue_face_up,
        style_cards=style_cards,
        fabric_kinds=fabric_kinds,
        fabric_cards=fabric_cards,
        kind_labels=tuple("/".join(colours[c] for c in kind) for kind in fabric_kinds),
        vp_trophies=tuple(int(config["vp_trophies"][c]) for c in colours),
        **settings,
    )


def load_components(source: DataSet | None = None) -> Components:
    """The game's components from a data set, by default the data files beside this module."""
    where: str | DataSet = PACKAGE if source is None else source

    def rows(filename: str, *required: str) -> list[dict[str, str]]:
        return read_csv(where, filename, required)

    return build_components(
        read_toml(where, "config.toml"),
        rows("components.csv", "component", "count", "status"),
        rows("fabric_tokens.csv", "token_id", "colour", "influence"),
        rows("queue_setup.csv", "position", "side_up"),
        rows("style_cards.csv", "card_id", "symbol"),
        rows("fabric_cards.csv", "card_id", "colour_a", "colour_b"),
        rows("vp_tokens.csv", "token_id", "type", "colour", "trophies", "count"),
    )
