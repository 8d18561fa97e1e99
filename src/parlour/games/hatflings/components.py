"""The component data of Hatflings! (data/*.csv, data/scene_default.toml), loaded and checked once.

Designed values (pool size, object counts, the default scene squares, the loop guard) are marked as
such in the data files, so whoever owns the physical game can correct them there without touching
code. Anything inconsistent raises DataError naming the file, the row and the problem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from parlour.engine.data import DataSet, as_int, at, check_keys, entry_at, read_csv, read_toml, toml_at
from parlour.engine.errors import DataError, InvalidOption
from parlour.games.hatflings.pieces import OBJECT_KINDS, SPECIAL_KINDS
from parlour.games.hatflings.scene import check_zones, parse_scene, parse_zone

PACKAGE = "parlour.games.hatflings.data"
STATUSES = ("sourced", "designed")
# The bounds the game's options put on the values these defaults feed (game.py declares the same).
MAX_POOL, MAX_REPETITION_LIMIT, MAX_TURNS = 200, 100, 100_000

_COMPONENT_ROWS = {
    "board_6x6_reversible": "board",
    "normal_halfling_double_sided": "normal",
    "tree": "tree",
    "column": "column",
    "box": "box",
    "barrel": "barrel",
    "puddle_token": "puddle",
    "pig": "pig",
    **{f"special_halfling_{kind}": kind for kind in SPECIAL_KINDS},
}


@dataclass(frozen=True)
class Components:
    general_pool_size: int
    objects: dict[str, int]
    puddles: int
    start_zones: tuple[tuple[str, ...], tuple[str, ...]]
    colours: tuple[str, str]
    starting_captain: int
    min_objects: int
    num_objects: int
    repetition_limit: int
    max_turns: int
    barrel_break_percent: int
    default_scene: str
    """The first-game scene in the option syntax, e.g. "tree:c3,box:d4,barrel:b4,pig:e3"."""


def _components_csv(source: str | DataSet) -> dict[str, int]:
    filename = "components.csv"
    counts: dict[str, int] = {}
    rows = read_csv(source, filename, ("component", "count", "per", "status"))
    check_keys(filename, rows, "component")
    for number, row in enumerate(rows, start=2):
        name = row["component"]
        if name not in _COMPONENT_ROWS:
            raise DataError(f"{at(filename, number, row, 'component')}: unknown component {name!r}")
        _status(filename, number, row)
        per = "team" if name.startswith("special_halfling_") else "game"
        if row["per"].split(" ")[0] != per:
            raise DataError(f"{at(filename, number, row, 'per')}: {name} is counted per {per}, got per {row['per']!r}")
        count = as_int(filename, number, "count", row)
        if count < 0:
            raise DataError(f"{at(filename, number, row, 'count')}: {name} count must not be negative, got {count}")
        counts[_COMPONENT_ROWS[name]] = count
    missing = sorted(set(_COMPONENT_ROWS.values()) - set(counts))
    if missing:
        raise DataError(f"{filename}: no row for {', '.join(missing)}")
    for single in ("board", "pig", *SPECIAL_KINDS):
        if counts[single] != 1:
            raise DataError(
                f"{filename}: the rulebook has exactly one {single} (per team for specials), not {counts[single]}"
            )
    if counts["puddle"] < 1:
        raise DataError(f"{filename}: the barrel test tosses a puddle token, so at least one is needed")
    return counts


def _status(filename: str, number: int, row: dict[str, str]) -> None:
    # A status may qualify parts ("sourced (text) / designed (scope)") but starts with one of the two words.
    status = row["status"]
    if status.split(" ")[0] not in STATUSES:
        where = at(filename, number, row, "status")
        raise DataError(f"{where}: status must start with sourced or designed, got {status!r}")


def _specials_csv(source: str | DataSet) -> None:
    filename = "specials.csv"
    rows = read_csv(source, filename, ("kind", "count_per_team", "status"))
    check_keys(filename, rows, "kind")
    for number, row in enumerate(rows, start=2):
        _status(filename, number, row)
    kinds = [row["kind"] for row in rows]
    if sorted(kinds) != sorted(SPECIAL_KINDS):
        raise DataError(f"{filename}: the specials must be {', '.join(SPECIAL_KINDS)}, found {', '.join(kinds)}")
    for number, row in enumerate(rows, start=2):
        if as_int(filename, number, "count_per_team", row) != 1:
            where = at(filename, number, row, "count_per_team")
            raise DataError(f"{where}: each team has one {row['kind']} halfling")


SCENE_FILE = "scene_default.toml"


class _Table(dict[str, Any]):
    """A table of scene_default.toml that knows its name and the file, so errors give a key's line."""

    name: str = ""
    config: dict[str, Any] = {}  # noqa: RUF012 - set per instance by _table

    def at(self, key: str) -> str:
        return toml_at(SCENE_FILE, self.config, self.name, key)


def _table(config: dict[str, Any], name: str) -> _Table:
    found = config.get(name)
    if not isinstance(found, dict):
        raise DataError(f"{SCENE_FILE}: missing table [{name}]")
    table = _Table(found)
    table.name, table.config = name, config
    return table


def _int(table: _Table, key: str, minimum: int = 0) -> int:
    value = table.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise DataError(f"{table.at(key)}: {key} must be a whole number >= {minimum}, got {value!r}")
    return value


def _zone(board: _Table, key: str) -> tuple[str, ...]:
    zone = board.get(key)
    if not isinstance(zone, list) or not all(isinstance(name, str) for name in zone):
        raise DataError(f"{board.at(key)}: {key} must be a list of square names")
    return tuple(zone)


def _scene_text(config: dict[str, Any]) -> str:
    scene = _table(config, "scene")
    objects = scene.get("object")
    pig = scene.get("pig")
    if not isinstance(objects, list) or not isinstance(pig, dict):
        raise DataError(f"{SCENE_FILE}: the scene needs [[scene.object]] entries and a [scene.pig]")
    parts = []
    for number, entry in enumerate(objects, start=1):
        unset = [
            key for key in ("type", "square") if not isinstance(entry, dict) or not isinstance(entry.get(key), str)
        ]
        if unset:
            where = entry_at(SCENE_FILE, config, "scene.object", number, unset[0])
            raise DataError(f"{where}: scene object {number} needs a type and a square (text)")
        parts.append(f"{entry['type']}:{entry['square']}")
    if not isinstance(pig.get("square"), str):
        raise DataError(f"{toml_at(SCENE_FILE, config, 'scene', 'pig', 'square')}: [scene.pig] needs a square")
    parts.append(f"pig:{pig['square']}")
    return ",".join(parts)


def _check_defaults(components: Components, config: dict[str, Any]) -> None:
    """The defaults must be values the game's own options accept, or every default game would fail or misplay."""

    def at(table: str, key: str) -> str:
        return toml_at(SCENE_FILE, config, table, key)

    if components.starting_captain not in (0, 1):
        where = at("players", "starting_captain")
        raise DataError(f"{where}: starting_captain must be 0 or 1, got {components.starting_captain}")
    if components.general_pool_size > MAX_POOL:
        raise DataError(f"components.csv: at most {MAX_POOL} normal halflings, got {components.general_pool_size}")
    if components.repetition_limit == 1 or components.repetition_limit > MAX_REPETITION_LIMIT:
        raise DataError(
            f"{at('rules', 'repetition_limit')}: repetition_limit must be 0 (off) or 2 to {MAX_REPETITION_LIMIT}, "
            f"got {components.repetition_limit}"
        )
    if components.max_turns > MAX_TURNS:
        where = at("rules", "max_turns")
        raise DataError(f"{where}: max_turns must be at most {MAX_TURNS}, got {components.max_turns}")
    if components.num_objects > sum(components.objects.values()):
        raise DataError(
            f"{at('setup', 'num_objects')}: num_objects = {components.num_objects} but the supply has "
            f"{sum(components.objects.values())} objects"
        )
    # The start zones and the first-game scene go through the very parser the game uses for its options.
    zones = []
    for seat, zone in enumerate(components.start_zones):
        try:
            zones.append(parse_zone(",".join(zone), seat))
        except InvalidOption as error:
            raise DataError(f"{at('board', f'start_zone_{seat}')}: {error}") from None
    try:
        check_zones(zones[0], zones[1])
    except InvalidOption as error:
        raise DataError(f"{at('board', 'start_zone_1')}: {error}") from None
    try:
        parse_scene(components.default_scene, (zones[0], zones[1]), components.objects, components.min_objects)
    except InvalidOption as error:
        where = _scene_fault(components, (zones[0], zones[1]), config)
        raise DataError(f"{where}: {error}") from None


def _scene_fault(components: Components, zones: tuple[tuple[int, ...], tuple[int, ...]], config: dict[str, Any]) -> str:
    """Where the first-game scene the game's parser refused goes wrong: the pig's square if the pig
    alone is refused, else the first [[scene.object]] entry the parser refuses once it is added (its
    type if that is no object, else its square); a scene wrong only as a whole is named as [scene]."""
    *objects, pig = components.default_scene.split(",")
    try:
        parse_scene(pig, zones, components.objects, 0)
    except InvalidOption:
        return toml_at(SCENE_FILE, config, "scene", "pig", "square")
    for number in range(1, len(objects) + 1):
        try:
            parse_scene(",".join([*objects[:number], pig]), zones, components.objects, 0)
        except InvalidOption:
            kind = objects[number - 1].partition(":")[0].strip().lower()
            return entry_at(SCENE_FILE, config, "scene.object", number, "square" if kind in OBJECT_KINDS else "type")
    return f"{SCENE_FILE} ([scene])"


def load_components(source: DataSet | None = None) -> Components:
    """The components from a data set, by default the data files beside this module."""
    where: str | DataSet = PACKAGE if source is None else source
    counts = _components_csv(where)
    _specials_csv(where)
    config = read_toml(where, "scene_default.toml")
    board, players, supply = _table(config, "board"), _table(config, "players"), _table(config, "supply")
    rules, setup = _table(config, "rules"), _table(config, "setup")
    if (board.get("width"), board.get("height")) != (6, 6):
        raise DataError(f"{board.at('width')}: the Hatflings! floor is 6 × 6 squares")
    supplied = (("general_pool_size", "normal"), ("trees", "tree"), ("columns", "column"), ("boxes", "box"))
    for key, row in (*supplied, ("barrels", "barrel"), ("puddles", "puddle"), ("pig", "pig")):
        if _int(supply, key) != counts[row]:
            raise DataError(f"{supply.at(key)}: {key} = {supply[key]} but components.csv says {counts[row]}")
    if tuple(supply.get("specials_per_team", ())) != SPECIAL_KINDS:
        raise DataError(f"{supply.at('specials_per_team')}: specials_per_team must be {list(SPECIAL_KINDS)}")
    probability = rules.get("barrel_break_probability")
    if not isinstance(probability, float | int) or isinstance(probability, bool) or not 0 <= probability <= 1:
        where = rules.at("barrel_break_probability")
        raise DataError(f"{where}: barrel_break_probability must be in [0, 1], got {probability!r}")
    colours = (players.get("colour_0"), players.get("colour_1"))
    if not all(isinstance(c, str) and c for c in colours) or colours[0] == colours[1]:
        raise DataError(f"{players.at('colour_1')}: colour_0 and colour_1 must be two different names")
    min_objects = _int(rules, "min_objects", 1)
    components = Components(
        general_pool_size=counts["normal"],
        objects={kind: counts[kind] for kind in OBJECT_KINDS},
        puddles=counts["puddle"],
        start_zones=(_zone(board, "start_zone_0"), _zone(board, "start_zone_1")),
        colours=(str(colours[0]), str(colours[1])),
        starting_captain=_int(players, "starting_captain"),
        min_objects=min_objects,
        num_objects=_int(setup, "num_objects", min_objects),
        repetition_limit=_int(rules, "repetition_limit"),
        max_turns=_int(rules, "max_turns"),
        barrel_break_percent=round(probability * 100),
        default_scene=_scene_text(config),
    )
    _check_defaults(components, config)
    return components


COMPONENTS = load_components()
"""The built-in components: the defaults of the game's options come from them."""


def option_defaults(components: Components) -> dict[str, Any]:
    """The option values a data set gives the game when the options do not set them."""
    return {
        "num_objects": components.num_objects,
        "starting_captain": components.starting_captain,
        "general_pool_size": components.general_pool_size,
        "repetition_limit": components.repetition_limit,
        "max_turns": components.max_turns,
        "barrel_break_percent": components.barrel_break_percent,
        "start_zone_0": ",".join(components.start_zones[0]),
        "start_zone_1": ",".join(components.start_zones[1]),
    }
