"""The game's own evaluator: expected influence per colour, turned into expected trophies.

It reads only what `seat` knows, so a bot using it never peeks:

1. For every set on the table, the token's *modified* influence (R13) is exact when `seat` knows
   the token, and otherwise its expectation over the values `seat` has not seen in that colour
   (a colour's values are public component data; the ones `seat` knows are taken out).
2. Summed per player and colour this is the expected influence.
3. A colour goes to a player with probability `sigmoid(lead / s) * sigmoid((influence - m + 0.5) / s)`,
   a smooth "strictly more than the opponent, and at least m" (R18, m = 1 here). The spread `s` is
   the colour's own: its outcome is less settled the more of its tokens are still to be taken, so
   `s` is 0.75 influence once its queue is empty and 0.25 more per token left in it (2.25 at the
   start).
4. The expected trophy difference over all colour stakes (VP token plus the additional VP tokens
   next to it) is the core of the value.
5. The cards in front of each player are sets still to come (both hands are public, R7): they are
   paired greedily, each style card with the fabric colour where its symbol on that colour's next
   token gains the most expected trophies, as many pairs as the player may still make, and
   `PROMISE` of that gain is added (cards may wait too long, the next token may go to the rival).
   Without this term keeping a card, drawing and discarding would all look alike, and every set
   would look better than waiting for a better one.
6. Each set costs `SET_COST` trophies: fewer sets win a tie (R19), so a set that gains nothing
   only gives the tiebreak away.
7. The total is divided by the total stake, so it lies in [-1, 1].

A finished game is worth its returns.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from parlour.games.hanbok_runway.components import MANNEQUIN, SYMBOLS, Components
from parlour.games.hanbok_runway.constants import DISCARD
from parlour.games.hanbok_runway.scoring import colour_stakes, modified_value

if TYPE_CHECKING:
    from parlour.games.hanbok_runway.state import HanbokRunwayState

SPREAD_SETTLED = 0.75  # influence over which a colour whose queue is empty goes from likely lost to likely won
SPREAD_PER_TOKEN = 0.25  # how much wider that is per token still in the colour's queue
PROMISE = 0.5  # the share of a hand's best pairings counted before they are made
SET_COST = 0.15  # trophies: the tiebreak given away by one more set


def _unseen(state: HanbokRunwayState, seat: int) -> list[tuple[int, ...]]:
    """Per colour, the values of the colour's tokens that `seat` does not know, sorted."""
    per_colour = state.game.components.tokens_per_colour
    value, known, bit = state.value, state.known, 1 << seat
    return [
        tuple(sorted([value[t] for t in range(first, first + per_colour) if not known[t] & bit]))
        for first in range(0, len(value), per_colour)
    ]


def expected_influences(
    state: HanbokRunwayState, seat: int, unseen: list[tuple[int, ...]] | None = None
) -> list[list[float]]:
    """Per player, per colour: the influence `seat` expects, from what `seat` knows."""
    comps = state.game.components
    per_colour = comps.tokens_per_colour
    if unseen is None:
        unseen = _unseen(state, seat)
    value, known, bit = state.value, state.known, 1 << seat
    result = [[0.0] * len(comps.colours) for _ in range(2)]
    for player in (0, 1):
        row = result[player]
        for symbol, token in zip(state.set_symbols[player], state.set_tokens[player], strict=True):
            colour = token // per_colour
            if known[token] & bit:
                row[colour] += modified_value(symbol, value[token], comps)
            else:
                row[colour] += _pool_means(unseen[colour], comps)[symbol]
    return result


def spreads(state: HanbokRunwayState) -> list[float]:
    """Per colour: the influence over which its outcome goes from likely lost to likely won (point 3)."""
    per_colour = state.game.components.tokens_per_colour
    return [SPREAD_SETTLED + SPREAD_PER_TOKEN * (per_colour - taken) for taken in state.taken]


def colour_edge(mine: float, theirs: float, minimum: int, spread: float) -> float:
    """The chance that `mine` takes the colour minus the chance that `theirs` does."""
    ahead = 1.0 / (1.0 + math.exp((theirs - mine) / spread))
    floor = minimum - 0.5
    return ahead / (1.0 + math.exp((floor - mine) / spread)) - (1.0 - ahead) / (
        1.0 + math.exp((floor - theirs) / spread)
    )


_POOL_MEANS: dict[tuple[int, ...], list[float]] = {}
"""Per multiset of possible values (sorted): the mean modified influence under each symbol."""


def _pool_means(pool: tuple[int, ...], comps: Components) -> list[float]:
    means = _POOL_MEANS.get(pool)
    if means is None:
        means = [sum(modified_value(symbol, v, comps) for v in pool) / len(pool) for symbol in range(len(SYMBOLS))]
        _POOL_MEANS[pool] = means
    return means


def next_token_gains(
    state: HanbokRunwayState, seat: int, unseen: list[tuple[int, ...]] | None = None
) -> list[list[float] | None]:
    """Per colour, per symbol: the expected modified influence of the colour's next token, for `seat`.

    None for a colour whose queue is empty.
    """
    comps = state.game.components
    per_colour = comps.tokens_per_colour
    if unseen is None:
        unseen = _unseen(state, seat)
    gains: list[list[float] | None] = []
    for colour, taken in enumerate(state.taken):
        if taken >= per_colour:
            gains.append(None)
            continue
        token = colour * per_colour + taken
        pool = (state.value[token],) if state.knows(seat, token) else unseen[colour]
        gains.append(_pool_means(pool, comps))
    return gains


def pairings_left(state: HanbokRunwayState, player: int) -> int:
    """How many more sets `player` may still make: the set limit, and after the end trigger what is left of the game."""
    comps = state.game.components
    left = comps.max_sets_per_player - len(state.set_tokens[player])
    if state.triggered:
        if player == state.to_move:
            turn = 0 if state.phase == DISCARD else comps.max_sets_per_turn - state.sets_this_turn
        else:
            turn = comps.max_sets_per_turn if state.to_move == state.start else 0
        left = min(left, turn)
    return max(0, left)


def hand_promise(
    state: HanbokRunwayState,
    player: int,
    influence: list[list[float]],
    stakes: list[int],
    gains: list[list[float] | None],
    spread: list[float],
) -> float:
    """The expected trophies `player` adds by pairing the cards in front of them, greedily (point 5)."""
    comps = state.game.components
    styles = state.tableau_style[player].copy()
    fabrics = state.tableau_fabric[player].copy()
    pairs = min(sum(styles), sum(fabrics), pairings_left(state, player))
    if pairs <= 0:
        return 0.0
    minimum = comps.min_influence_for_vp
    mine = influence[player].copy()
    theirs = influence[1 - player]
    mannequin_bonus = comps.additional_vp_trophies if state.supply > 0 else 0
    held = [symbol for symbol, count in enumerate(styles) if count]

    def row_values(colour: int) -> dict[int, float]:
        """Per symbol held: the trophies one more set of it on `colour`'s next token gains."""
        row = gains[colour]
        assert row is not None
        here, there, stake, width = mine[colour], theirs[colour], stakes[colour], spread[colour]
        before = colour_edge(here, there, minimum, width)
        values = {}
        for symbol in held:
            after = colour_edge(here + row[symbol], there, minimum, width)
            values[symbol] = stake * (after - before) + (mannequin_bonus * after if symbol == MANNEQUIN else 0.0)
        return values

    kinds = comps.fabric_kinds
    # every (fabric kind held, colour of it with tokens left), in a fixed order so that ties break alike
    options = [(kind, colour) for kind, count in enumerate(fabrics) if count for colour in kinds[kind] if gains[colour]]
    table = {colour: row_values(colour) for _, colour in options}
    total = 0.0
    for _ in range(pairs):
        best, best_symbol, best_kind, best_colour = 0.0, -1, -1, -1
        for kind, colour in options:
            if not fabrics[kind]:
                continue
            for symbol, gain in table[colour].items():
                if gain > best and styles[symbol]:
                    best, best_symbol, best_kind, best_colour = gain, symbol, kind, colour
        if best_kind < 0:
            break
        total += best
        styles[best_symbol] -= 1
        fabrics[best_kind] -= 1
        row = gains[best_colour]
        assert row is not None
        mine[best_colour] += row[best_symbol]
        table[best_colour] = row_values(best_colour)
    return total


def trophy_edge(state: HanbokRunwayState, seat: int, spread: list[float] | None = None) -> float:
    """The trophies `seat` expects to lead by (points 1-6), from what `seat` knows; `spread` per
    colour is `spreads(state)` unless given (to weigh a position as if its colours were settled)."""
    comps = state.game.components
    unseen = _unseen(state, seat)
    influence = expected_influences(state, seat, unseen)
    stakes = colour_stakes(state.additional, comps)
    mine, theirs = influence[seat], influence[1 - seat]
    if spread is None:
        spread = spreads(state)
    edge = 0.0
    for colour, stake in enumerate(stakes):
        edge += stake * colour_edge(mine[colour], theirs[colour], comps.min_influence_for_vp, spread[colour])
    gains = next_token_gains(state, seat, unseen)
    edge += PROMISE * (
        hand_promise(state, seat, influence, stakes, gains, spread)
        - hand_promise(state, 1 - seat, influence, stakes, gains, spread)
    )
    return edge + SET_COST * (len(state.set_tokens[1 - seat]) - len(state.set_tokens[seat]))


def evaluate(state: HanbokRunwayState, seat: int) -> float:
    if state.is_terminal():
        return state.returns()[seat]
    total = sum(colour_stakes(state.additional, state.game.components))
    return max(-1.0, min(1.0, trophy_edge(state, seat) / total))
