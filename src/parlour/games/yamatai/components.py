"""Yamataï's component data: loaded once from the files in `data/` and checked against the rulebook.

Designed values (prices, fleet contents, building requirements, specialists, the board graph) live
in the data files with their `status` column, so whoever owns the physical game can correct them
without touching code. Everything here is immutable and shared by every state.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from parlour.engine.data import DataSet, as_int, at, check_keys, entry_at, read_csv, read_toml, toml_at
from parlour.engine.errors import DataError

PACKAGE = "parlour.games.yamatai.data"
Source = str | DataSet
"""Where the data files are read from: a data package's name or a loaded data set."""

RESOURCES = ("bamboo", "wood", "stone", "clay", "gold")
"""Boat colours by resource, in the rulebook's order; index = colour number everywhere."""
BAMBOO, WOOD, STONE, CLAY, GOLD = range(5)
BOAT_LETTERS = "bwscg"

PLAYER_COLOURS = ("blue", "orange", "purple", "grey")
PLAYERS_BY_COUNT = {4: PLAYER_COLOURS, 3: PLAYER_COLOURS[:3], 2: PLAYER_COLOURS[:2]}
BUILDINGS_PER_PLAYER = {4: 6, 3: 8, 2: 10}
STARTING_COINS = 10
SLOTS = 5  # face-up fleet tiles, building row and specialist track all show five
FLEET_TILES = 10
SACRED_GROUND_TOKENS = 8
PRESTIGE_POINT_TOKENS = 24
COINS_BY_SOURCED_DENOMINATION = {1: 23, 2: 32}
"""The third coin (18 of them) has an unverified face value, so only its count is checked."""
TOKEN_COMPONENTS = (
    "prestige_point_token",
    "sacred_ground_token",
    "mountain_tile",
    "torii_piece",
    "palace_piece",
    "player_mat",
)

FLEET_POWERS = (
    "gain_coins",
    "swap_culture_tokens",
    "preview_buildings",
    "place_sacred_ground",
    "move_boat",
    "reserve_building",
    "swap_boats",
    "remove_boat",
    "build_minus_one",
    "gain_prestige_token",
)
SPECIALIST_POWERS = (
    "harbour_capacity",
    "extra_trades",
    "trade_gold",
    "trade_discount",
    "substitute_colour",
    "mountain_bonus",
    "prestige_neighbour_bonus",
    "group_bonus",
    "coin_rate",
    "extra_collect",
    "free_first_boat",
    "branch_once",
    "bonus_boat",
    "leftover_culture",
    "cheap_recruit",
    "build_on_token",
)
ParamRule = str | int | None | tuple[str, ...]
"""What a power parameter may be: a str is the one value the rules implement, an int the least whole
number allowed, None any whole number, a tuple the allowed names."""
FLEET_PARAMS: dict[str, dict[str, ParamRule]] = {
    "gain_coins": {"amount": 1},
    "swap_culture_tokens": {},
    "preview_buildings": {"look": 1},
    "place_sacred_ground": {"count": "1"},
    "move_boat": {"count": "1", "range": "adjacent"},
    "reserve_building": {"count": "1"},
    "swap_boats": {"count": "1"},
    "remove_boat": {"count": "1"},
    "build_minus_one": {"count": "1"},
    "gain_prestige_token": {"amount": 1},
}
SPECIALIST_PARAMS: dict[str, dict[str, ParamRule]] = {
    "harbour_capacity": {"capacity": 1},
    "extra_trades": {"transactions": 1},
    "trade_gold": {"buy": 1, "sell": 0},
    "trade_discount": {"buy_delta": None, "sell_delta": None},
    "substitute_colour": {"from": RESOURCES, "to": RESOURCES, "count": "1"},
    "mountain_bonus": {"extra_pp_tokens": 0},
    "prestige_neighbour_bonus": {"extra_pp_tokens": 0},
    "group_bonus": {"extra_coins": 0},
    "coin_rate": {"coins_per_pp": 1},
    "extra_collect": {"extra_tokens": "1"},
    "free_first_boat": {},
    "branch_once": {"count": "1"},
    "bonus_boat": {"resource": "bamboo", "count": "1"},
    "leftover_culture": {"tokens_per_pp": 1},
    "cheap_recruit": {},
    "build_on_token": {},
}
"""Every parameter each power's rules read or hard-code, so a value the rules would ignore or choke on
mid-game is refused at import."""
BOAT_COUNTS = {"bamboo": 22, "wood": 19, "stone": 16, "clay": 13, "gold": 10}
CULTURE_KIND_TOKENS, BLANK_TOKENS = 5, 4
BUILDING_TYPES = ("standard", "torii", "palace")
STATUSES = ("sourced", "designed", "mixed")


@dataclass(frozen=True, slots=True)
class FleetTile:
    number: int
    boats: tuple[int, ...]  # count per colour
    power: str
    params: dict[str, str]
    text: str


@dataclass(frozen=True, slots=True)
class BuildingTile:
    index: int
    code: str  # B01..B21, P01..P07
    kind: str  # standard | torii | palace
    needs: tuple[int, ...]  # required boats per colour
    pp: int

    @property
    def standard(self) -> bool:
        return self.kind == "standard"


@dataclass(frozen=True, slots=True)
class Specialist:
    index: int
    code: str
    name: str
    pp: int
    power: str
    params: dict[str, str]
    text: str


@dataclass(frozen=True, slots=True)
class CultureKind:
    name: str  # culture_1 .. culture_6, blank
    colour: str
    count: int
    mountains: int


@dataclass(frozen=True, slots=True)
class Board:
    """The designed board graph with islands and spots renumbered 0.. in file order."""

    island_ids: tuple[str, ...]
    spot_ids: tuple[str, ...]
    island_spots: tuple[tuple[int, ...], ...]
    island_borders: tuple[tuple[int, ...], ...]
    spot_islands: tuple[tuple[int, ...], ...]
    spot_neighbours: tuple[tuple[int, ...], ...]
    entry_spots: tuple[int, ...]
    island_xy: tuple[tuple[float, float], ...]
    spot_xy: tuple[tuple[float, float], ...]
    island_rows: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Components:
    boat_stock: tuple[int, ...]
    buy_price: tuple[int, ...]  # 0 = not tradeable
    sell_price: tuple[int, ...]
    fleet: tuple[FleetTile, ...]  # index = number - 1
    buildings: tuple[BuildingTile, ...]
    specialists: tuple[Specialist, ...]
    culture: tuple[CultureKind, ...]  # six kinds then the blank
    player_buildings: dict[str, int]
    board: Board

    @property
    def culture_colours(self) -> tuple[str, ...]:
        return tuple(kind.colour for kind in self.culture[:6])

    def specialist_code(self, power: str) -> int:
        for specialist in self.specialists:
            if specialist.power == power:
                return specialist.index
        raise KeyError(power)


def _fail(
    filename: str, row: int, problem: str, record: dict[str, str] | None = None, column: str | None = None
) -> DataError:
    """The error of a line (`row`) of a file, or of one cell (`column` of that line's `record`)."""
    return DataError(f"{at(filename, row, record, column)}: {problem}")


PARAMS = "power_params"


def _params(filename: str, row: int, record: dict[str, str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in record[PARAMS].split(";"))):
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise _fail(filename, row, f"power parameter {part!r} is not key=value", record, PARAMS)
        if key.strip() in params:
            raise _fail(filename, row, f"power parameter {key.strip()!r} is given twice", record, PARAMS)
        params[key.strip()] = value.strip()
    return params


def _check_params(
    filename: str, row: int, record: dict[str, str], params: dict[str, str], rules: dict[str, ParamRule]
) -> None:
    power = record["power_key"]

    def fail(problem: str) -> DataError:
        return _fail(filename, row, problem, record, PARAMS)

    unknown = sorted(set(params) - set(rules))
    if unknown:
        raise fail(f"{power} has no parameter {', '.join(unknown)} (it takes {', '.join(rules) or 'none'})")
    for key, rule in rules.items():
        value = params.get(key)
        if value is None:
            raise fail(f"{power} needs the parameter {key}")
        if isinstance(rule, str):
            if value != rule:
                raise fail(f"the rules implement {power} with {key}={rule}, not {key}={value}")
        elif isinstance(rule, tuple):
            if value not in rule:
                raise fail(f"{power} {key} must be one of {', '.join(rule)}, got {value!r}")
        else:
            try:
                number = int(value)
            except ValueError:
                raise fail(f"parameter {key} must be a whole number, got {value!r}") from None
            if rule is not None and number < rule:
                raise fail(f"{power} {key} must be at least {rule}, got {number}")


def _status(filename: str, row: int, record: dict[str, str]) -> None:
    if record.get("status") not in STATUSES:
        raise _fail(
            filename,
            row,
            f"status must be one of {', '.join(STATUSES)}, got {record.get('status')!r}",
            record,
            "status",
        )


def _boats(source: Source, filename: str = "boats.csv") -> tuple[int, ...]:
    rows = read_csv(source, filename, ("resource", "count", "status"))
    check_keys(filename, rows, "resource")
    stock = dict.fromkeys(RESOURCES, -1)
    for n, record in enumerate(rows, start=2):
        _status(filename, n, record)
        if record["resource"] not in stock:
            raise _fail(filename, n, f"unknown resource {record['resource']!r}", record, "resource")
        stock[record["resource"]] = as_int(filename, n, "count", record)
        if stock[record["resource"]] != BOAT_COUNTS[record["resource"]]:
            raise _fail(
                filename,
                n,
                f"the game has {BOAT_COUNTS[record['resource']]} {record['resource']} boats, not {record['count']}",
                record,
                "count",
            )
    if min(stock.values()) < 0:
        raise DataError(f"{filename}: every resource needs a row ({', '.join(RESOURCES)})")
    return tuple(stock[r] for r in RESOURCES)


def _prices(source: Source, filename: str = "trade_prices.csv") -> tuple[tuple[int, ...], tuple[int, ...]]:
    rows = read_csv(source, filename, ("resource", "buy_price", "sell_price", "status"))
    check_keys(filename, rows, "resource")
    buy, sell = [0] * 5, [0] * 5
    seen = set()
    for n, record in enumerate(rows, start=2):
        _status(filename, n, record)
        resource = record["resource"]
        if resource not in RESOURCES:
            raise _fail(filename, n, f"unknown resource {resource!r}", record, "resource")
        seen.add(resource)
        if resource == "gold":
            if record["buy_price"] or record["sell_price"]:
                raise _fail(
                    filename,
                    n,
                    "gold is never traded at the mat's prices",
                    record,
                    "buy_price" if record["buy_price"] else "sell_price",
                )
            continue
        c = RESOURCES.index(resource)
        buy[c] = as_int(filename, n, "buy_price", record)
        sell[c] = as_int(filename, n, "sell_price", record)
        if buy[c] < 1 or sell[c] < 0:
            column = "buy_price" if buy[c] < 1 else "sell_price"
            raise _fail(filename, n, "a buy price is at least 1 and a sell price at least 0", record, column)
    if seen != set(RESOURCES):
        raise DataError(f"{filename}: every resource needs a row")
    return tuple(buy), tuple(sell)


def _fleet(source: Source, filename: str = "fleet_tiles.csv") -> tuple[FleetTile, ...]:
    rows = read_csv(source, filename, ("number", *RESOURCES, "power_key", "power_params", "power_text", "status"))
    tiles: dict[int, FleetTile] = {}
    for n, record in enumerate(rows, start=2):
        _status(filename, n, record)
        number = as_int(filename, n, "number", record)
        boats = tuple(as_int(filename, n, r, record) for r in RESOURCES)
        if min(boats) < 0:
            negative = RESOURCES[boats.index(min(boats))]
            raise _fail(filename, n, "boat counts cannot be negative", record, negative)
        if not 1 <= sum(boats) <= 3:
            raise _fail(filename, n, f"a fleet tile shows 1 to 3 boats, tile {number} shows {sum(boats)}")
        if record["power_key"] not in FLEET_POWERS:
            raise _fail(filename, n, f"unknown fleet power {record['power_key']!r}", record, "power_key")
        if number in tiles:
            raise _fail(filename, n, f"fleet tile {number} appears twice", record, "number")
        params = _params(filename, n, record)
        _check_params(filename, n, record, params, FLEET_PARAMS[record["power_key"]])
        tiles[number] = FleetTile(number, boats, record["power_key"], params, record["power_text"])
    if sorted(tiles) != list(range(1, FLEET_TILES + 1)):
        raise DataError(f"{filename}: fleet tiles must be numbered 1 to {FLEET_TILES}")
    if sorted(t.power for t in tiles.values()) != sorted(FLEET_POWERS):
        raise DataError(f"{filename}: each fleet power must appear on exactly one tile")
    return tuple(tiles[k] for k in sorted(tiles))


def _buildings(source: Source, filename: str = "building_tiles.csv") -> tuple[BuildingTile, ...]:
    rows = read_csv(source, filename, ("id", "type", *RESOURCES, "boats_total", "pp", "status"))
    check_keys(filename, rows, "id")
    tiles: list[BuildingTile] = []
    for n, record in enumerate(rows, start=2):
        _status(filename, n, record)
        if record["type"] not in BUILDING_TYPES:
            raise _fail(
                filename, n, f"type must be one of {', '.join(BUILDING_TYPES)}, got {record['type']!r}", record, "type"
            )
        needs = tuple(as_int(filename, n, r, record) for r in RESOURCES)
        if sum(needs) != as_int(filename, n, "boats_total", record):
            raise _fail(filename, n, "boats_total is not the sum of the required boats", record, "boats_total")
        if not 1 <= sum(needs) <= 6 or min(needs) < 0:
            raise _fail(filename, n, "a tile needs 1 to 6 boats (an island has 6 spots)")
        pp = as_int(filename, n, "pp", record)
        if pp < 1:
            raise _fail(filename, n, f"a building is worth at least 1 PP, got {pp}", record, "pp")
        tiles.append(BuildingTile(len(tiles), record["id"], record["type"], needs, pp))
    counts = {kind: sum(t.kind == kind for t in tiles) for kind in BUILDING_TYPES}
    if counts != {"standard": 21, "torii": 3, "palace": 4}:
        raise DataError(f"{filename}: the game has 21 standard, 3 torii and 4 palace tiles, the file has {counts}")
    if len({t.code for t in tiles}) != len(tiles):
        raise DataError(f"{filename}: tile ids must be unique")
    return tuple(tiles)


def _specialists(source: Source, filename: str = "specialists.csv") -> tuple[Specialist, ...]:
    rows = read_csv(source, filename, ("id", "name", "pp", "power_key", "power_params", "power_text", "status"))
    check_keys(filename, rows, "id")
    check_keys(filename, rows, "name")
    result: list[Specialist] = []
    for n, record in enumerate(rows, start=2):
        _status(filename, n, record)
        if record["power_key"] not in SPECIALIST_POWERS:
            raise _fail(filename, n, f"unknown specialist power {record['power_key']!r}", record, "power_key")
        params = _params(filename, n, record)
        if record["power_key"] == "substitute_colour" and (
            params.get("from") not in RESOURCES or params.get("to") not in RESOURCES
        ):
            raise _fail(filename, n, "a colour substitution needs from= and to= resources", record, PARAMS)
        if record["power_key"] == "substitute_colour" and params["from"] == params["to"]:
            raise _fail(filename, n, "a colour substitution needs two different resources", record, PARAMS)
        _check_params(filename, n, record, params, SPECIALIST_PARAMS[record["power_key"]])
        pp = as_int(filename, n, "pp", record)
        if pp < 0:
            raise _fail(filename, n, f"a specialist's PP cannot be negative, got {pp}", record, "pp")
        result.append(
            Specialist(len(result), record["id"], record["name"], pp, record["power_key"], params, record["power_text"])
        )
    if len(result) != 18 or len({s.code for s in result}) != 18 or len({s.name.lower() for s in result}) != 18:
        raise DataError(f"{filename}: the game has 18 specialists with unique ids and names")
    single = [p for p in SPECIALIST_POWERS if p != "substitute_colour"]
    for power in single:
        if sum(s.power == power for s in result) != 1:
            raise DataError(f"{filename}: power {power} must appear on exactly one specialist")
    return tuple(result)


def _culture(source: Source, filename: str = "culture_tokens.csv") -> tuple[CultureKind, ...]:
    rows = read_csv(source, filename, ("kind", "colour", "count", "mountain_count", "plain_count", "status"))
    check_keys(filename, rows, "kind")
    kinds = []
    for n, record in enumerate(rows, start=2):
        _status(filename, n, record)
        count = as_int(filename, n, "count", record)
        mountains = as_int(filename, n, "mountain_count", record)
        plains = as_int(filename, n, "plain_count", record)
        if mountains < 0 or plains < 0:
            column = "mountain_count" if mountains < 0 else "plain_count"
            raise _fail(filename, n, "mountain_count and plain_count cannot be negative", record, column)
        if mountains + plains != count:
            raise _fail(filename, n, "mountain_count + plain_count must equal count", record, "count")
        expected = BLANK_TOKENS if record["kind"] == "blank" else CULTURE_KIND_TOKENS
        if count != expected or mountains != 1:
            raise _fail(
                filename,
                n,
                f"{record['kind']} has {expected} tokens, one of them a mountain token (count {count})",
                record,
                "count" if count != expected else "mountain_count",
            )
        if not record["colour"].strip():
            raise _fail(filename, n, "empty colour", record, "colour")
        kinds.append(CultureKind(record["kind"], record["colour"], count, mountains))
    blank = [k for k in kinds if k.name == "blank"]
    named = [k for k in kinds if k.name != "blank"]
    if len(blank) != 1 or len(named) != 6:
        raise DataError(f"{filename}: the game has six culture kinds and one blank row")
    if len({k.colour for k in named}) != 6:
        raise DataError(f"{filename}: culture kinds need distinct colours")
    return (*named, blank[0])


def _pieces(source: Source, filename: str = "player_pieces.csv") -> dict[str, int]:
    rows = read_csv(source, filename, ("colour", "standard_buildings", "turn_order_meeples", "status"))
    check_keys(filename, rows, "colour")
    pieces: dict[str, int] = {}
    meeples = 0
    for n, record in enumerate(rows, start=2):
        _status(filename, n, record)
        if record["colour"] not in PLAYER_COLOURS:
            raise _fail(filename, n, f"unknown player colour {record['colour']!r}", record, "colour")
        pieces[record["colour"]] = as_int(filename, n, "standard_buildings", record)
        meeples += as_int(filename, n, "turn_order_meeples", record)
    if sum(pieces.values()) != 34 or meeples != 6 or set(pieces) != set(PLAYER_COLOURS):
        raise DataError(f"{filename}: the game has 34 standard buildings and 6 meeples over four colours")
    for players, colours in PLAYERS_BY_COUNT.items():
        for colour in colours:
            if pieces[colour] < BUILDINGS_PER_PLAYER[players]:
                raise DataError(f"{filename}: {colour} has too few buildings for a {players}-player game")
    return pieces


ISLAND_FIELDS = {"id": "name", "spots": "names", "borders": "names", "x": "number", "y": "number", "r": "whole"}
SPOT_FIELDS = {"id": "name", "islands": "names", "neighbors": "names", "x": "number", "y": "number"}
FIELD_KINDS = {"name": "a non-empty text", "names": "a list of ids", "number": "a number", "whole": "a whole number"}


def _is(value: object, kind: str) -> bool:
    if kind == "name":
        return isinstance(value, str) and bool(value)
    if kind == "names":
        return isinstance(value, list) and all(isinstance(item, str) for item in value)
    if isinstance(value, bool):
        return False
    return isinstance(value, int) if kind == "whole" else isinstance(value, int | float)


def _board_fields(filename: str, raw: dict[str, Any], what: str, fields: dict[str, str]) -> None:
    """Each [[islands]] / [[spots]] entry has its fields with the right types, so a typo is named, not a KeyError."""
    entries = raw.get(f"{what}s", [])
    if not isinstance(entries, list):
        raise DataError(f"{filename}: {what}s must be a list of [[{what}s]] tables")
    for number, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise DataError(f"{entry_at(filename, raw, what + 's', number)}: {what} {number} is not a table")
        for field, kind in fields.items():
            if not _is(entry.get(field), kind):
                where = entry_at(filename, raw, what + "s", number, field)
                raise DataError(f"{where}: {what} {number} ({entry.get('id')!r}) needs {field} as {FIELD_KINDS[kind]}")
        if not isinstance(entry.get("entry", False), bool):
            where = entry_at(filename, raw, what + "s", number, "entry")
            raise DataError(f"{where}: {what} {number} ({entry.get('id')!r}) entry must be true or false")


def _repeated(ids: tuple[str, ...]) -> int | None:
    """The index of the first id that repeats an earlier one, else None."""
    seen: set[str] = set()
    for index, key in enumerate(ids):
        if key in seen:
            return index
        seen.add(key)
    return None


def _board(source: Source, filename: str = "board.toml") -> Board:
    raw: dict[str, Any] = read_toml(source, filename)
    _board_fields(filename, raw, "island", ISLAND_FIELDS)
    _board_fields(filename, raw, "spot", SPOT_FIELDS)
    islands = raw.get("islands", [])
    spots = raw.get("spots", [])

    def island_at(i: int, key: str | None = None) -> str:
        return entry_at(filename, raw, "islands", i + 1, key)

    def spot_at(s: int, key: str | None = None) -> str:
        return entry_at(filename, raw, "spots", s + 1, key)

    def meta_at(key: str) -> str:
        return toml_at(filename, raw, "meta", key)

    if not isinstance(raw.get("meta"), dict) or not _is(raw["meta"].get("entry_spots"), "names"):
        raise DataError(f"{meta_at('entry_spots')}: [meta] must list the entry_spots")
    island_ids = tuple(str(i["id"]) for i in islands)
    spot_ids = tuple(str(s["id"]) for s in spots)
    if len(island_ids) != 34:
        raise DataError(f"{filename}: the archipelago has 34 islands, the file lists {len(island_ids)}")
    again = _repeated(island_ids)
    if again is not None:
        where = island_at(again, "id")
        raise DataError(f"{where}: island id {island_ids[again]!r} appears twice; ids must be distinct")
    meta = raw.get("meta", {})
    for key, listed in (("island_count", len(islands)), ("spot_count", len(spots))):
        if meta.get(key) != listed:
            raise DataError(f"{meta_at(key)}: meta {key} = {meta.get(key)!r} but the file lists {listed}")
    if meta.get("entry_spot_count") != len(meta.get("entry_spots", ())):
        where = meta_at("entry_spot_count")
        raise DataError(f"{where}: meta entry_spot_count does not match the entry_spots it lists")
    again = _repeated(spot_ids)
    if again is not None:
        raise DataError(f"{spot_at(again, 'id')}: spot id {spot_ids[again]!r} appears twice; ids must be distinct")
    isl = {k: n for n, k in enumerate(island_ids)}
    spt = {k: n for n, k in enumerate(spot_ids)}

    def refs(table: dict[str, int], values: list[str], where: Callable[[], str], name: str) -> tuple[int, ...]:
        unknown = [v for v in values if v not in table]
        if unknown:  # the line is looked for only now: finding it reads the file's text
            raise DataError(f"{where()}: {name} refers to unknown {', '.join(unknown)}")
        return tuple(table[v] for v in values)

    def linked(
        entries: list[Any], key: str, table: dict[str, int], at: Callable[..., str]
    ) -> tuple[tuple[int, ...], ...]:
        """Each entry's `key` list (ids) as indexes into `table`; `at(n, key)` names where entry n lists them."""
        return tuple(refs(table, e[key], functools.partial(at, n, key), e["id"]) for n, e in enumerate(entries))

    island_spots = linked(islands, "spots", spt, island_at)
    island_borders = linked(islands, "borders", isl, island_at)
    spot_islands = linked(spots, "islands", isl, spot_at)
    spot_neighbours = linked(spots, "neighbors", spt, spot_at)
    entries = tuple(n for n, s in enumerate(spots) if s.get("entry"))
    flagged = refs(spt, raw["meta"]["entry_spots"], functools.partial(meta_at, "entry_spots"), "meta")
    if len(entries) != 5 or set(entries) != set(flagged):
        raise DataError(f"{meta_at('entry_spots')}: the board has exactly 5 entry spots, flagged and listed in meta")
    for i, around in enumerate(island_spots):
        if len(around) < 5:
            where = island_at(i, "spots")
            raise DataError(f"{where}: island {island_ids[i]} has fewer spots than the largest requirement")
        for s in around:
            if i not in spot_islands[s]:
                where = island_at(i, "spots")
                raise DataError(f"{where}: {island_ids[i]} lists {spot_ids[s]} but not the other way round")
        for j in island_borders[i]:
            if i not in island_borders[j]:
                where = island_at(i, "borders")
                raise DataError(f"{where}: border {island_ids[i]}-{island_ids[j]} is not symmetric")
    for s, near in enumerate(spot_neighbours):
        if not 1 <= len(spot_islands[s]) <= 3:
            raise DataError(f"{spot_at(s, 'islands')}: spot {spot_ids[s]} must touch 1 to 3 islands")
        for t in near:
            if s not in spot_neighbours[t]:
                where = spot_at(s, "neighbors")
                raise DataError(f"{where}: link {spot_ids[s]}-{spot_ids[t]} is not symmetric")
    seen, todo = {0}, [0]
    while todo:
        for t in spot_neighbours[todo.pop()]:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    if len(seen) != len(spots):
        raise DataError(f"{filename}: the water network must be connected")
    rows: dict[int, list[int]] = {}
    for n, i in enumerate(islands):
        rows.setdefault(int(i["r"]), []).append(n)
    return Board(
        island_ids,
        spot_ids,
        island_spots,
        island_borders,
        spot_islands,
        spot_neighbours,
        entries,
        tuple((float(i["x"]), float(i["y"])) for i in islands),
        tuple((float(s["x"]), float(s["y"])) for s in spots),
        tuple(tuple(rows[r]) for r in sorted(rows)),
    )


def _coins(source: Source, filename: str = "coins.csv") -> None:
    """Checks the coins against the component list; the rules never read them (money is unlimited, R2)."""
    rows = read_csv(source, filename, ("denomination", "count", "status"))
    check_keys(filename, rows, "denomination")
    coins: dict[int, int] = {}
    for n, record in enumerate(rows, start=2):
        _status(filename, n, record)
        denomination = as_int(filename, n, "denomination", record)
        count = as_int(filename, n, "count", record)
        if denomination < 1 or count < 1:
            raise _fail(
                filename,
                n,
                "denomination and count must be at least 1",
                record,
                "count" if denomination >= 1 else "denomination",
            )
        if denomination in coins:
            raise _fail(filename, n, f"denomination {denomination} appears twice", record, "denomination")
        coins[denomination] = count
    others = {d: c for d, c in coins.items() if d not in COINS_BY_SOURCED_DENOMINATION}
    sourced = {d: c for d, c in coins.items() if d in COINS_BY_SOURCED_DENOMINATION}
    if sourced != COINS_BY_SOURCED_DENOMINATION or list(others.values()) != [18]:
        raise DataError(
            f"{filename}: the game has 23 coins of 1, 32 of 2 and 18 of a third value, the file has {coins}"
        )


def _tokens(
    source: Source, culture: tuple[CultureKind, ...], buildings: tuple[BuildingTile, ...], filename: str = "tokens.csv"
) -> None:
    """Checks the token list against what the rules use (sacred ground, mountains, prestige pieces, mats)."""
    rows = read_csv(source, filename, ("component", "count", "status"))
    check_keys(filename, rows, "component")
    expected = {
        "prestige_point_token": PRESTIGE_POINT_TOKENS,
        "sacred_ground_token": SACRED_GROUND_TOKENS,
        "mountain_tile": sum(kind.mountains for kind in culture),
        "torii_piece": sum(tile.kind == "torii" for tile in buildings),
        "palace_piece": sum(tile.kind == "palace" for tile in buildings),
        "player_mat": len(PLAYER_COLOURS),
    }
    for n, record in enumerate(rows, start=2):
        _status(filename, n, record)
        name = record["component"]
        if name not in expected:
            raise _fail(
                filename, n, f"unknown component {name!r} (one of {', '.join(TOKEN_COMPONENTS)})", record, "component"
            )
        count = as_int(filename, n, "count", record)
        if count != expected[name]:
            raise _fail(filename, n, f"the game has {expected[name]} of {name}, the file says {count}", record, "count")
    missing = [name for name in TOKEN_COMPONENTS if name not in {record["component"] for record in rows}]
    if missing:
        raise DataError(f"{filename}: no row for {', '.join(missing)}")


@cache
def components() -> Components:
    """Every component of the game from the built-in data files, loaded and validated once."""
    return load_components(PACKAGE)


def load_components(source: Source) -> Components:
    """Every component of the game from a data set (a designer's folder) or a data package."""
    buy, sell = _prices(source)
    buildings, culture = _buildings(source), _culture(source)
    _coins(source)
    _tokens(source, culture, buildings)
    return Components(
        _boats(source),
        buy,
        sell,
        _fleet(source),
        buildings,
        _specialists(source),
        culture,
        _pieces(source),
        _board(source),
    )
