"""What one seat cannot see before the set-up reveal, re-dealt consistently with what she knows.

R5 and R27 hide the other players' dealt cards, where each kept card went (palette or atelier) and
how each laid her topography tiles, until everyone has chosen. In the drafting variant (R50) a seat
knows more than her own cards: she saw every hand that came to her, so for each hand she passed on
she knows its cards, and that each seat it reached since drafted exactly one of them; if it comes
back to her (two players) she knows exactly what was drafted from it in between. A re-deal that
forgets this gives a search worlds she knows to be impossible.

Every list of hidden cards is put in a fixed order before it is shuffled, so the copy depends only
on what the seat sees and on the generator, never on the order the hidden cards happen to lie in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.engine import Rng
from parlour.games.hatairo.board import NCOL, Board
from parlour.games.hatairo.components import PLAYER_COLOURS, TILES
from parlour.games.hatairo.constants import DEALT, DRAFTING, KEPT

if TYPE_CHECKING:
    from parlour.games.hatairo.state import HatairoState

Slot = tuple[int, int]  # (seat, round): the pick one seat made in one round of the draft


def redeal_setup(twin: HatairoState, seat: int, rng: Rng) -> None:
    """Re-deal, in place, everything of the set-up that `seat` cannot see (before the reveal)."""
    own = twin.boards[seat]
    others = [owner for owner in range(len(twin.boards)) if owner != seat]
    seen = set(own.hand + own.picks + own.atelier + own.palette_flags + own.returned)
    for cards in own.passed:
        seen.update(cards)
    hidden = list(twin.flag_supply)
    for owner in others:
        board = twin.boards[owner]
        hidden += board.hand + board.picks + board.atelier + board.palette_flags
    # The cards she has never seen, in a fixed order, then shuffled: they may lie anywhere hidden.
    pool = rng.redeal(set(hidden) - seen)
    to_supply = list(own.returned)
    if twin.game.drafting:
        to_supply += _redraft(twin, seat, rng, pool)
    else:
        for owner in others:
            board = twin.boards[owner]
            dealt = [pool.pop() for _ in range(len(board.hand) + len(board.atelier) + len(board.palette_flags))]
            _keep_like_before(board, dealt, rng)
    for owner in others:
        _relay_tiles(twin.boards[owner], owner, rng)
    twin.flag_supply = pool + to_supply
    twin.redeal_supply_later(rng)  # as `rng.redeal`, done when the supply's order is first read


def _redraft(twin: HatairoState, seat: int, rng: Rng, pool: list[int]) -> list[int]:
    """Re-deal the other seats' draft: their picks, what they passed on and the hands they hold.

    Follows every hand around the table (hand p is at seat p + i in round i). Picks made before the
    hand first reached `seat` come from the cards she never saw; between two of her looks at it they
    are exactly the cards that went missing; after her last look they are drawn from what she saw
    then, and the rest is what its holder has now (or, after the draft, what went back to the Flag
    Supply). Cards keep the order she saw them in. Returns the cards that go back to the Flag Supply.
    """
    n = len(twin.boards)
    own = twin.boards[seat]
    drafting = twin.phase == DRAFTING
    rounds = twin.draft_round + 1 if drafting else KEPT
    passes = twin.draft_round if drafting else KEPT - 1

    def picked(owner: int, round_: int) -> bool:
        # Seats pick in seat order within a round; after the draft every pick is made.
        return not drafting or round_ < twin.draft_round or owner < twin.to_move

    def left_after_her_pick(round_: int) -> list[int]:
        if round_ < len(own.passed):
            return own.passed[round_]
        return own.hand if drafting else own.returned

    picks: dict[Slot, int] = {}
    passed: dict[Slot, list[int]] = {}  # what a seat passed on after its pick in a round
    held: dict[int, list[int]] = {}  # the hand each other seat holds now (during the draft)
    to_supply: list[int] = []
    for start in range(n):
        slots: list[Slot] = []  # every pick made from this hand, in round order
        order: list[int] = []  # the hand's cards in the order they lie in it
        known: list[int] | None = None  # the hand's cards at her last look, or None before she saw it
        pending: list[Slot] = []  # other seats' picks from this hand since her last look
        for round_ in range(rounds):
            owner = (start + round_) % n
            if owner != seat:
                if picked(owner, round_):
                    pending.append((owner, round_))
                    slots.append((owner, round_))
                continue
            there = left_after_her_pick(round_)
            mine = own.picks[round_ : round_ + 1]
            if known is None:
                for slot in pending:
                    picks[slot] = pool.pop()
                order = [picks[slot] for slot in pending] + mine + there
            else:
                gone = rng.redeal(set(known) - set(there) - set(mine))
                if len(gone) != len(pending):
                    raise AssertionError(f"hand {start}: {len(gone)} cards went missing for {len(pending)} picks")
                for slot in pending:
                    picks[slot] = gone.pop()
            if mine:
                picks[(seat, round_)] = mine[0]
                slots.append((seat, round_))
            pending = []
            known = list(there)
        holder = (start + rounds - 1) % n
        size = len(twin.boards[holder].hand) if drafting else DEALT - KEPT
        if known is None:  # never seen: all of it from the cards she never saw
            for slot in pending:
                picks[slot] = pool.pop()
            rest = [pool.pop() for _ in range(size)]
            order = [picks[slot] for slot in pending] + rest
        else:  # seen: what she saw then, minus a pick by each seat it reached since
            rest = list(known)
            for slot in pending:
                picks[slot] = rest.pop(rng.randrange(len(rest)))
        if len(rest) != size:
            raise AssertionError(f"hand {start}: {len(rest)} cards left where {size} are known to be")
        for owner, round_ in slots:
            later = {picks[slot] for slot in slots if slot[1] > round_}
            passed[(owner, round_)] = [card for card in order if card in later or card in rest]
        if holder != seat:
            if drafting:
                held[holder] = rest
            else:
                to_supply += rest
    for owner in range(n):
        if owner == seat:
            continue
        board = twin.boards[owner]
        board.picks = [picks[(owner, round_)] for round_ in range(len(board.picks))]
        board.passed = [passed[(owner, round_)] for round_ in range(passes)]
        if drafting:
            board.hand = held[owner]
        else:
            board.returned = passed[(owner, KEPT - 1)]
            _keep_like_before(board, board.picks, rng)
    return to_supply


def _keep_like_before(board: Board, cards: list[int], rng: Rng) -> None:
    """Give `board` the cards `cards`, keeping as many as she has kept so far, each in palette or
    atelier at random (R5: only how many she has kept follows from the turn order)."""
    kept = len(board.atelier) + len(board.palette_flags)
    order = list(cards)
    rng.shuffle(order)
    board.hand = order[kept:]
    board.atelier = []
    board.palette_flags = []
    board.palette = [0] * NCOL
    board.pigment_cards = [0] * NCOL
    for flag in order[:kept]:
        if rng.randrange(2):
            board.atelier.append(flag)
        else:
            board.add_palette_flag(flag)


def _relay_tiles(board: Board, owner: int, rng: Rng) -> None:
    """Lay as many of her topography tiles as she has laid, in an arrangement drawn at random."""
    laid = sum(1 for tile in board.tiles if tile >= 0)
    tiles = [tile.id for tile in TILES if tile.player_colour == PLAYER_COLOURS[owner]]
    rng.shuffle(tiles)
    board.tiles = tiles[:laid] + [-1] * (len(board.tiles) - laid)
