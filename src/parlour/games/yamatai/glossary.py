"""What every Yamataï component does, in words, from the game's data files (fleet tiles,
specialists, building tiles, trade prices); the browser's tooltips and detail panel show these."""

from __future__ import annotations

import re

from parlour.engine.data import read_csv

PACKAGE = "parlour.games.yamatai.data"
RESOURCES = ("bamboo", "wood", "stone", "clay", "gold")
# A data file's pointer for maintainers ("see rules.md 9") means nothing to a player at the table.
FILE_POINTER = re.compile(r"\s*\(see rules\.md[^)]*\)")
TIEBREAK = "On equal prestige points the player who played earliest in the final round wins."
PIECES = {
    "torii": "Torii: a neutral building; standard buildings next to it earn 1 more PP token.",
    "palace": "Palace: a neutral building; standard buildings next to it earn 1 more PP token.",
    "sacred ground": "Sacred ground: nobody may build on this island; it counts as a prestige neighbour.",
}


def _boats(row: dict[str, str]) -> str:
    parts = [f"{row[r]} {r}" for r in RESOURCES if row.get(r) and row[r] != "0"]
    return ", ".join(parts) or "none"


def _fleet() -> dict[str, str]:
    return {
        row["number"]: f"Fleet tile {row['number']}: gives the boats {_boats(row)} this round, and plays "
        f"in turn order by its number next round. Power: {FILE_POINTER.sub('', row['power_text'])}"
        for row in read_csv(PACKAGE, "fleet_tiles.csv")
    }


def _specialists() -> dict[str, str]:
    return {
        row["name"]: f"{row['name']} ({row['pp']} PP): {row['power_text']}"
        for row in read_csv(PACKAGE, "specialists.csv")
    }


def _buildings() -> dict[str, str]:
    texts = {}
    for row in read_csv(PACKAGE, "building_tiles.csv"):
        kind = "standard building" if row["type"] == "standard" else row["type"]
        texts[row["id"]] = (
            f"{kind.capitalize()} worth {row['pp']} PP: build it on an empty island touching boats you "
            f"placed this turn holding {_boats(row)} (they go to the reserve); it places {row['piece_placed']}."
        )
    return texts


def _trade() -> dict[str, str]:
    return {
        row["resource"]: f"Trade {row['resource']}: buy a boat for {row['buy_price']} coins, sell one for "
        f"{row['sell_price']} coin{'s' if row['sell_price'] != '1' else ''}."
        for row in read_csv(PACKAGE, "trade_prices.csv")
    }


def glossary() -> dict[str, object]:
    return {
        "kinds": {
            "fleet": _fleet(),
            "spec": _specialists(),
            "bldg": _buildings(),
            "piece": PIECES,
            "trade": _trade(),
        },
        "names": {
            "fleet": "fleet tile",
            "spec": "specialist",
            "bldg": "building tile",
            "piece": "building",
            "trade": "trade",
        },
        "tiebreak": TIEBREAK,
    }
