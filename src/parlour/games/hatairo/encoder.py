"""Hatairo view -> tensor. Flags are one-hot (or many-hot) over the 208 cards, so a tensor tells
exactly which cards are where; motifs over their designs. Boards are listed from the observing seat
round the table and padded to four, each with its gallery, motif and topography spaces, palette,
atelier and (during set-up, for the seat itself) the dealt hand; hidden boards stay zero."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parlour.engine.game import Game
from parlour.games.hatairo.components import COLOURS, FLAGS, MOTIFS, TOPOGRAPHIES
from parlour.games.hatairo.constants import PHASE_NAMES
from parlour.interop.features import Features, Vocabulary

FLAG_NAMES = Vocabulary(flag.name for flag in FLAGS)
MOTIF_DESIGNS = Vocabulary(sorted({motif.design for motif in MOTIFS}))
MAX_PLAYERS = 4
ROWS, COLUMNS, MARKET_ROWS = 3, 4, 4
MOTIF_SPACES = COLUMNS + ROWS
VARIANTS = ["standard", "motif", "drafting", "motif+drafting"]


def _board(features: Features, board: Mapping[str, Any] | None) -> None:
    board = board or {}
    features.flag(bool(board))
    features.flag(board.get("setup") is not None)
    features.number(board.get("turns"), 20)
    features.number(board.get("flags_completed"), ROWS * COLUMNS)
    gallery = board.get("gallery") or []
    for row in range(ROWS):
        cells = gallery[row] if row < len(gallery) else []
        for column in range(COLUMNS):
            features.one_hot(cells[column] if column < len(cells) else None, FLAG_NAMES)
    spaces = list((board.get("motifs") or {}).values())
    for space in range(MOTIF_SPACES):
        features.one_hot(spaces[space] if space < len(spaces) else None, MOTIF_DESIGNS)
    tiles = board.get("topography") or []
    for column in range(COLUMNS):
        features.one_hot(tiles[column] if column < len(tiles) else None, TOPOGRAPHIES)
    features.counts(board.get("palette") or {}, COLOURS, 5)
    features.counts(board.get("palette_flags") or [], FLAG_NAMES)
    features.counts(board.get("atelier") or [], FLAG_NAMES)
    features.counts(board.get("hand") or [], FLAG_NAMES)
    features.counts(board.get("drafted") or [], FLAG_NAMES)


def encode(view: Mapping[str, Any], seat: int | None, game: Game) -> Features:
    me = 0 if seat is None else seat
    players = view["players"]
    count = len(players)
    features = Features()
    features.section("phase, turn, end trigger, beginner, variant")
    features.one_hot(view["phase"], PHASE_NAMES)
    features.flag(view["to_move"] == me)
    features.number((view["active"] - me) % count, MAX_PLAYERS)
    features.flag(view["end_triggered_by"] >= 0)
    features.flag(view["beginner"])
    features.one_hot(view["variant"], VARIANTS)
    features.section("market rows, flag supply, motif piles and supply, pigments, the box")
    for row in range(MARKET_ROWS):
        market = view["market"]
        features.counts(market[row] if row < len(market) else [], FLAG_NAMES)
    features.number(view["flag_supply"], len(FLAGS))
    for pile in range(2):
        piles = view["motif_piles"]
        features.number(piles[pile] if pile < len(piles) else 0, len(MOTIFS))
    features.counts(view["motif_supply"], MOTIF_DESIGNS)
    features.number(view["pigment_supply"], 40)
    features.counts(view["box"]["flags"], FLAG_NAMES)
    features.counts(view["box"]["motifs"], MOTIF_DESIGNS)
    features.section(
        f"boards, me first, padded to {MAX_PLAYERS}: gallery, motifs, topography, palette, atelier, hand, drafted"
    )
    for offset in range(MAX_PLAYERS):
        _board(features, players[(me + offset) % count] if offset < count else None)
    features.section("flag being completed, pigment being spent, bonus choice")
    completing = view.get("completing") or {}
    features.one_hot(completing.get("flag"), FLAG_NAMES)
    features.counts(completing.get("unpaid") or {}, COLOURS, 5)
    spending = view.get("spending") or {}
    features.one_hot(spending.get("pigment"), COLOURS)
    features.number(spending.get("n"), 3)
    bonus = view.get("bonus_choice") or {}
    features.counts(bonus.get("bonuses") or [], COLOURS)
    features.number(bonus.get("can_take"), 4)
    return features
