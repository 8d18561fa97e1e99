"""Scoring (rules §6) as pure functions of one player's board.

A gallery is a flat list of flag ids (-1 for an empty space), row by row, `columns` wide and 3 rows
high (R1). Motif spaces are a flat list of motif ids (-1 for empty): first one space above each
column, then one space left of each row (R2). Topography spaces hold tile ids, one per column (R3).
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.games.hatairo.components import FLAGS, MOTIFS, POINTS, TILES, Points

ROWS = 3
CATEGORIES = ("flags", "motifs", "topography", "pigments")

# Solo ranks (R26): the lowest score of each rank, best first.
SOLO_RANKS = ((120, "Vexillologist"), (100, "Master"), (80, "Fellow"), (60, "Apprentice"), (0, "Novice"))


def line_cells(space: int, columns: int) -> range:
    """Gallery cells a motif space looks at: its column (top spaces) or its row (left spaces)."""
    if space < columns:
        return range(space, ROWS * columns, columns)
    row = space - columns
    return range(row * columns, (row + 1) * columns)


def flag_points(gallery: Sequence[int], points: Points = POINTS) -> int:
    return sum(points.flag_vp[flag] for flag in gallery if flag >= 0)


def motif_matches(motif_id: int, flag_id: int) -> bool:
    """R47: a flag matches a feature motif if it shows the feature, a continent motif if it is from there."""
    motif = MOTIFS[motif_id]
    flag = FLAGS[flag_id]
    if motif.kind == "feature":
        return motif.subject in flag.features
    if motif.kind == "continent":
        return motif.subject == flag.continent
    return False


def motif_points(
    gallery: Sequence[int], motif_spaces: Sequence[int], columns: int, pigments: int, points: Points = POINTS
) -> int:
    """Type-I motifs: feature and continent motifs per line, plus pigment motifs (R25, reported here by R62)."""
    total = 0
    for space, motif_id in enumerate(motif_spaces):
        if motif_id < 0:
            continue
        motif = MOTIFS[motif_id]
        if motif.kind == "pigment":
            total += points.motif_vp[motif_id] * pigments
        elif motif.type == "I":
            matches = sum(
                1
                for cell in line_cells(space, columns)
                if gallery[cell] >= 0 and motif_matches(motif_id, gallery[cell])
            )
            total += points.motif_vp[motif_id] * matches
    return total


def topography_points(gallery: Sequence[int], tiles: Sequence[int], columns: int, points: Points = POINTS) -> int:
    total = 0
    for column, tile_id in enumerate(tiles):
        if tile_id < 0:
            continue
        tile = TILES[tile_id]
        matching = sum(
            1
            for cell in range(column, ROWS * columns, columns)
            if gallery[cell] >= 0 and FLAGS[gallery[cell]].topography == tile.topography
        )
        total += points.tile_vp[tile_id][matching]
    return total


def breakdown(
    gallery: Sequence[int],
    motif_spaces: Sequence[int],
    tiles: Sequence[int],
    columns: int,
    pigments: int,
    points: Points = POINTS,
) -> dict[str, int]:
    """The four scoring categories of the rulebook, in its order; `points` are the game's data's
    values (the built-in data's unless given)."""
    return {
        "flags": flag_points(gallery, points),
        "motifs": motif_points(gallery, motif_spaces, columns, pigments, points),
        "topography": topography_points(gallery, tiles, columns, points),
        "pigments": pigments,
    }


def solo_rank(total: int) -> str:
    for lowest, rank in SOLO_RANKS:
        if total >= lowest:
            return rank
    return SOLO_RANKS[-1][1]
