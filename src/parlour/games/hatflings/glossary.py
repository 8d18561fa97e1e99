"""What every Hatflings! component does, in words: the special halflings from the game's data file
(specials.csv), the scenery from the rules; the browser's tooltips and detail panel show these."""

from __future__ import annotations

from parlour.engine.data import read_csv

PACKAGE = "parlour.games.hatflings.data"
TIEBREAK = (
    "On equal hats, the captain with more halflings standing in the rival's start zone wins; if that is equal "
    "too, the game is a draw."
)

NORMAL = (
    "Normal halfling, from the general pool: place it on an empty square of your start zone, or jump "
    "with it over a neighbour onto the free square beyond; the halflings it lands next to take its hat colour."
)
SCENERY = {
    "tree": "Tree: blocks its square; nobody may land on it or jump over it.",
    "column": "Column: blocks its square; nobody may land on it or jump over it.",
    "box": "Box: a halfling may land on it and is then protected: it cannot be jumped over, and only "
    "stilts change its hat.",
    "barrel": "Barrel: like a box, but each halfling that lands on it is tested (a 50/50 toss): if it "
    "breaks, the halfling is eliminated and a puddle takes the barrel's place.",
    "puddle": "Puddle: blocks its square until it dries at the start of its captain's next turn.",
    "pig": "Pig: blocks its square; a halfling that lands next to it lets its captain move the pig to "
    "an empty square around it.",
}


def _specials() -> dict[str, str]:
    texts = {"normal": NORMAL}
    for row in read_csv(PACKAGE, "specials.csv"):
        kind = row["kind"]
        texts[kind] = f"{kind.capitalize()} halfling ({row['trigger']}): {row['effect']}."
    return texts


def glossary() -> dict[str, object]:
    return {
        "kinds": {"kind": _specials(), "obj": SCENERY},
        "names": {"kind": "halfling", "obj": "scenery"},
        "tiebreak": TIEBREAK,
    }
