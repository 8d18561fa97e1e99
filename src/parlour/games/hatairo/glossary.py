"""What every Hatairo component does, in words, built from the game's data files: the browser's
tooltips and detail panel show these (the client holds no rules text of its own)."""

from __future__ import annotations

from parlour.engine.data import read_csv

PACKAGE = "parlour.games.hatairo.data"
TIEBREAK = "On equal VP the players share the win."


def _list(cell: str) -> str:
    return ", ".join(part.strip() for part in cell.split("|") if part.strip())


def _flags() -> dict[str, str]:
    texts = {}
    for row in read_csv(PACKAGE, "flags.csv"):
        texts[row["name"]] = (
            f"{row['name']} ({row['continent']}, {row['topography'].lower()}). Completing it in your gallery "
            f"costs the pigments {_list(row['required_pigments'])} and scores {row['vp']} VP. Gained into your "
            f"palette it counts as one {row['bonus_pigment']} pigment. Features: {_list(row['features']) or 'none'}."
        )
    return texts


def _design(row: dict[str, str]) -> str:
    kind, subject = row["kind"], row["subject"]
    if kind == "pigment_as_any":
        return f"{subject} as any"
    if kind == "any_as_colour":
        return f"any as {subject}"
    if kind == "three_for_two":
        return "3-for-2"
    return subject


def _motifs() -> dict[str, str]:
    texts: dict[str, str] = {}
    for row in read_csv(PACKAGE, "motifs.csv"):
        design = _design(row)
        if row["type"] == "I":
            what = f"scores {row['vp_per_match']} VP {row['effect']}"
            texts.setdefault(design, f"Motif {design} (scoring motif): {what}.")
        else:
            texts.setdefault(design, f"Motif {design} (payment motif): {row['effect']}, when you complete a flag.")
    return texts


def _topography() -> dict[str, str]:
    texts: dict[str, str] = {}
    for row in read_csv(PACKAGE, "topography.csv"):
        name = row["topography"]
        table = ", ".join(f"{row[f'vp_{n}']} VP for {n}" for n in range(4))
        texts.setdefault(
            name,
            f"{name} topography tile: placed under a gallery column, it scores by how many "
            f"{name.lower()} flags that column holds at the end: {table}.",
        )
    return texts


def glossary() -> dict[str, object]:
    return {
        "kinds": {"flag": _flags(), "motif": _motifs(), "topo": _topography()},
        "names": {"flag": "flag card", "motif": "motif", "topo": "topography tile"},
        "tiebreak": TIEBREAK,
    }
