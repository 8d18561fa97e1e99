"""Paying for a flag (rules §4, R14-R19, R31): the pair rule, the type-II conversions and the
3-for-2, checked against a brute-force oracle and on positions played through the engine."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from parlour.engine import IllegalAction
from parlour.games.hatairo.components import COLOURS, FLAG_BY_NAME, FLAGS
from parlour.games.hatairo.constants import CARDS, PAY, SPARE_SLOT
from parlour.games.hatairo.payment import (
    LOST,
    PAIR,
    SINGLE,
    TRIPLE,
    can_pay,
    next_slot,
    spare_options,
    unit_options,
)

from .positions import (
    action_phase,
    clear_board,
    give_motif,
    labels,
    palette_of,
    refresh,
    set_market,
    set_palette,
    started,
)

Counts = tuple[int, ...]


def all_outcomes(required: Counts, palette: Counts, as_any: int, any_as: int, three: bool) -> set[Counts]:
    """Every palette a payment can leave, with every unit of §4 including wasteful ones (the oracle)."""

    @functools.cache
    def go(req: Counts, pal: Counts) -> frozenset[Counts]:
        slots = [c for c in range(8) if req[c]]
        if not slots:
            return frozenset([pal])
        slot = slots[0]
        rest = list(req)
        rest[slot] -= 1
        found: set[Counts] = set()
        for colour in range(8):
            have = pal[colour]
            single = colour == slot or (as_any >> colour) & 1 or (any_as >> slot) & 1
            for spent, allowed in ((1, single), (2, True), (3, three)):
                if have < spent or not allowed:
                    continue
                left = list(pal)
                left[colour] -= spent
                found |= go(tuple(rest), tuple(left))
                if spent == 3:  # the spare output pays one more slot of any colour
                    for other in range(8):
                        if rest[other]:
                            rest[other] -= 1
                            found |= go(tuple(rest), tuple(left))
                            rest[other] += 1
        return frozenset(found)

    return set(go(required, palette))


def offered_outcomes(
    required: Counts, palette: Counts, as_any: int, any_as: int, three: bool, waste: bool = False
) -> set[Counts]:
    """Every palette reachable through the sub-decisions the engine offers."""
    found: set[Counts] = set()

    def walk(req: list[int], pal: list[int]) -> None:
        if next_slot(req) < 0:
            found.add(tuple(pal))
            return
        options = unit_options(req, pal, as_any, any_as, three, waste)
        assert options, f"dead end: {req} {pal}"
        for unit, slot, colour in options:
            r, p = req[:], pal[:]
            r[slot] -= 1
            p[colour] -= unit + 1
            if unit == TRIPLE:
                targets = spare_options(r, p, colour, as_any, any_as, three, waste)
                assert targets, f"dead end after a three-for-two: {r} {p}"
                for target in targets:
                    r2 = r[:]
                    if target != LOST:
                        r2[target] -= 1
                    walk(r2, p)
            else:
                walk(r, p)

    walk(list(required), list(palette))
    return found


requirements = st.lists(st.integers(0, 7), min_size=1, max_size=5).map(
    lambda colours: tuple(colours.count(c) for c in range(8))
)
palettes = st.lists(st.integers(0, 7), min_size=0, max_size=10).map(
    lambda colours: tuple(colours.count(c) for c in range(8))
)
masks = st.integers(0, 255).map(lambda m: m & 0b10010001 if m % 3 else 0)


@settings(max_examples=400, deadline=None)
@given(requirements, palettes, masks, masks, st.booleans())
def test_R19_can_pay_agrees_with_brute_force(required: Counts, palette: Counts, as_any: int, any_as: int, three: bool):
    assert can_pay(required, palette, as_any, any_as, three) == bool(
        all_outcomes(required, palette, as_any, any_as, three)
    )


@settings(max_examples=150, deadline=None)
@given(requirements, palettes, masks, masks, st.booleans())
def test_R19_offered_payments_never_dead_end_and_cover_every_sensible_payment(
    required: Counts, palette: Counts, as_any: int, any_as: int, three: bool
) -> None:
    if not can_pay(required, palette, as_any, any_as, three):
        return
    offered = offered_outcomes(required, palette, as_any, any_as, three)
    possible = all_outcomes(required, palette, as_any, any_as, three)
    assert offered <= possible  # nothing the rules forbid
    for outcome in possible:  # and for any legal payment, one at least as thrifty is offered
        assert any(all(o >= p for o, p in zip(mine, outcome, strict=True)) for mine in offered), outcome


@settings(max_examples=150, deadline=None)
@given(requirements, palettes, masks, masks, st.booleans())
def test_P3_with_needless_units_every_payment_of_the_rules_is_offered(
    required: Counts, palette: Counts, as_any: int, any_as: int, three: bool
) -> None:
    """While the Pigment Supply is short in a 4-player game (P3) nothing is filtered out."""
    if not can_pay(required, palette, as_any, any_as, three):
        return
    offered = offered_outcomes(required, palette, as_any, any_as, three, waste=True)
    assert offered == all_outcomes(required, palette, as_any, any_as, three)


def counts(**pigments: int) -> list[int]:
    return [pigments.get(colour, 0) for colour in COLOURS]


def test_pair_of_any_colour_pays_one_slot() -> None:
    assert can_pay(counts(Red=1), counts(Blue=2), 0, 0, False)
    assert not can_pay(counts(Red=1), counts(Blue=1, Green=1), 0, 0, False)
    assert unit_options(counts(Red=1), counts(Blue=2, Red=1), 0, 0, False) == [(SINGLE, 0, 0), (PAIR, 0, 5)]


def test_pair_not_offered_where_a_single_pays() -> None:
    assert unit_options(counts(Red=1), counts(Red=3), 0, 0, False) == [(SINGLE, 0, 0)]


def test_pair_options_only_if_the_rest_stays_payable() -> None:
    # France: Red + Blue with Red 1, Blue 1, Green 2: the Green pair may pay Red, then Red is spare... but Blue
    # still needs its Blue; paying Red with the Red keeps Green for nothing. Both orders finish.
    options = unit_options(counts(Red=1, Blue=1), counts(Red=1, Blue=1, Green=2), 0, 0, False)
    assert options == [(SINGLE, 0, 0), (PAIR, 0, 3)]
    # with only one spare pair, using it on Red when Red is missing is forced
    assert unit_options(counts(Red=1, Blue=1), counts(Blue=1, Green=2), 0, 0, False) == [(PAIR, 0, 3)]


def test_pigment_as_any_single_pays_any_slot() -> None:
    as_any = 1 << COLOURS.index("Yellow")
    assert can_pay(counts(Red=1, Blue=1, Black=1), counts(Yellow=3), as_any, 0, False)
    assert not can_pay(counts(Red=1, Blue=1, Black=1), counts(Yellow=2), as_any, 0, False)


def test_any_as_colour_single_pays_that_colour_only() -> None:
    any_as = 1 << COLOURS.index("Red")
    assert can_pay(counts(Red=2), counts(Green=1, Cyan=1), 0, any_as, False)
    assert not can_pay(counts(Blue=1), counts(Green=1), 0, any_as, False)


def test_any_as_colour_takes_odd_pigments_leaving_pairs() -> None:
    any_as = 1 << COLOURS.index("Red")
    # Red via any-as-Red with the lone Cyan; Blue via the Green pair
    assert can_pay(counts(Red=1, Blue=1), counts(Cyan=1, Green=2), 0, any_as, False)
    assert not can_pay(counts(Red=1, Blue=1), counts(Cyan=1, Green=1), 0, any_as, False)


def test_three_for_two_pays_two_slots_of_any_colours() -> None:
    assert can_pay(counts(Red=1, Blue=1), counts(Green=3), 0, 0, True)
    assert not can_pay(counts(Red=1, Blue=1), counts(Green=3), 0, 0, False)
    assert can_pay(counts(Red=2, Blue=2), counts(Green=6), 0, 0, True)
    assert not can_pay(counts(Red=2, Blue=2), counts(Green=5), 0, 0, True)


def test_three_for_two_with_odd_slots_uses_a_pair_for_the_last() -> None:
    assert can_pay(counts(Red=1, Blue=1, Black=1), counts(Green=5), 0, 0, True)
    assert not can_pay(counts(Red=1, Blue=1, Black=1), counts(Green=4), 0, 0, True)


def test_three_for_two_mixed_with_any_as_colour() -> None:
    any_as = 1 << COLOURS.index("Red")
    # Red by any-as-Red from the Orange; Blue + Black from the three Green
    assert can_pay(counts(Red=1, Blue=1, Black=1), counts(Green=3, Orange=1), 0, any_as, True)


def test_three_for_two_offered_only_where_singles_would_not_do() -> None:
    as_any = 1 << COLOURS.index("Green")
    options = unit_options(counts(Red=1, Blue=1), counts(Green=3), as_any, 0, True)
    assert options == [(SINGLE, 0, 3)]  # Green is already wild: a 3-for-2 would be a pair plus a single


def test_spare_goes_only_where_it_is_useful() -> None:
    # after three Green pay Red, the spare pays Blue (Black is payable by the Black pigment)
    assert spare_options(counts(Blue=1, Black=1), counts(Black=1), 3, 0, 0, True) == [5]


def test_direct_first_is_not_always_best_with_tiles() -> None:
    any_as = 1 << COLOURS.index("Red")
    # Red, Blue, Black with Red 3 and Orange 1: three Red pay Blue + Black, Orange pays Red via any-as-Red
    assert can_pay(counts(Red=1, Blue=1, Black=1), counts(Red=3, Orange=1), 0, any_as, True)


def engine_position(market: str, **pigments: int):
    state = started(2)
    for board in state.boards:
        clear_board(board)
    refresh(state)
    set_market(state, [[market], [], [], []])
    set_palette(state, 0, **pigments)
    return action_phase(state)


def test_payment_through_the_engine_with_a_pair() -> None:
    state = engine_position("France", Red=1, Green=2, Blue=1)
    state.apply("complete France")
    state.apply("place at row 1 column 1")
    assert labels(state) == ["pay Red with Red", "pay Red with two Green"]
    state.apply("pay Red with two Green")
    assert palette_of(state, 0) == {"Red": 1}  # Blue was then forced and paid at once


def test_payment_wrong_slot_and_wrong_unit_give_the_reason() -> None:
    state = engine_position("France", Red=2, Green=2, Blue=1)
    state.apply("complete France")
    state.apply("place at row 1 column 1")
    with pytest.raises(IllegalAction, match="next one is Red"):
        state.apply("pay Blue with Blue")
    with pytest.raises(IllegalAction, match="one Green cannot pay Red"):
        state.apply("pay Red with Green")
    with pytest.raises(IllegalAction, match="would only waste"):
        state.apply("pay Red with two Red")
    with pytest.raises(IllegalAction, match="3-for-2 motif"):
        state.apply("pay Red with three Green")


def test_payment_with_conversions_through_the_engine() -> None:
    state = engine_position("Germany", Cyan=1, Orange=1, Black=1)  # Black, Red, Yellow
    give_motif(state, 0, "Cyan as any", 0)
    give_motif(state, 0, "any as Yellow", 1)
    state.apply("complete Germany")
    state.apply("place at row 2 column 2")
    # Red: only the wild Cyan can pay it; then Yellow takes Orange (any as Yellow), Black the Black
    assert palette_of(state, 0) == {}
    assert state.boards[0].placed == 1


def test_payment_with_three_for_two_through_the_engine() -> None:
    state = engine_position("Ghana", Red=1, Blue=3, Green=1)  # Red, Yellow, Green, Black
    give_motif(state, 0, "3-for-2", 3)
    state.apply("complete Ghana")
    state.apply("place at row 1 column 1")
    # Red can only be paid by the Red (forced, paid at once); Yellow only by a 3-for-2 of Blue, which is a
    # real decision even when it is the only one; its spare can only usefully pay Black (Green has its Green)
    assert palette_of(state, 0) == {"Blue": 3, "Green": 1}
    assert labels(state) == ["pay Yellow with three Blue"]
    events = state.apply("pay Yellow with three Blue")
    assert any(e.text == "Red pays Black with the spare pigment" for e in events)
    assert state.boards[0].placed == 1 and palette_of(state, 0) == {}


TRICKY = [
    ("United Kingdom", {"Yellow": 2, "Red": 2, "Blue": 1, "Orange": 2}, []),
    ("Ecuador", {"Red": 2, "Yellow": 2, "Blue": 2, "Green": 2, "Black": 1, "Others": 1}, ["3-for-2", "any as Cyan"]),
    ("Germany", {"Cyan": 3, "Black": 1, "Red": 2}, ["Cyan as any"]),
    ("Spain", {"Green": 3, "Yellow": 1, "Red": 3}, ["3-for-2"]),
    ("South Africa", {"Blue": 3, "Red": 1, "Black": 2, "Orange": 2}, ["3-for-2", "any as Green", "Orange as any"]),
    ("Chile", {"Green": 3, "Black": 3}, ["3-for-2", "any as Red"]),
]


@pytest.mark.parametrize(("name", "pigments", "tiles"), TRICKY)
def test_every_payment_through_the_engine_is_legal_and_every_thrifty_one_is_reachable(
    name: str, pigments: dict[str, int], tiles: list[str]
) -> None:
    """Every branch of the engine's payment sub-decisions, followed to the end, against the oracle."""
    state = started(2)
    for board in state.boards:
        clear_board(board)
    set_market(state, [[name], [], [], []])
    set_palette(state, 0, **pigments)
    for space, design in enumerate(tiles):
        give_motif(state, 0, design, space)
    action_phase(state)
    board = state.boards[0]
    required = FLAG_BY_NAME[name.lower()].required_counts
    possible = all_outcomes(required, tuple(board.palette), board.as_any, board.any_as, board.three)
    assert possible and f"complete {name}" in labels(state)
    state.apply(f"complete {name}")
    state.apply("place at row 1 column 1")  # an empty gallery: no bonus changes the palette
    reached: set[Counts] = set()

    def walk(position) -> None:
        if position.phase in (PAY, SPARE_SLOT):
            for action in position.legal_actions():
                branch = position.clone()
                branch.apply(action)
                walk(branch)
            return
        assert position.boards[0].gallery[0] == FLAG_BY_NAME[name.lower()].id
        reached.add(tuple(position.boards[0].palette))

    walk(state)
    assert reached <= possible
    for outcome in possible:
        assert any(all(o >= p for o, p in zip(mine, outcome, strict=True)) for mine in reached), outcome


def test_the_chosen_gallery_cell_is_told_to_everyone_before_the_payment() -> None:
    """Choosing the cell is public and the payment still to choose: the others read where the flag goes."""
    state = engine_position("France", Red=1, Green=2, Blue=1)
    state.apply("complete France")
    events = state.apply("place at row 1 column 1")
    assert [(e.text, e.public) for e in events] == [("Red will place France at row 1 column 1", True)]
    assert labels(state) == ["pay Red with Red", "pay Red with two Green"]


def test_a_payment_unit_whose_cards_are_still_to_choose_is_told_at_once() -> None:
    """P2 (4 players): the unit is chosen, the kind of card next; the others read the unit now."""
    state = started(4)
    for board in state.boards:
        clear_board(board)
    refresh(state)
    set_market(state, [["France"], [], [], []])
    set_palette(state, 0, Red=1, Green=2, Blue=1)
    green = next(f for f in FLAGS if COLOURS[f.bonus] == "Green" and f.name != "France")
    state.boards[0].add_palette_flag(green.id)  # Green as a pigment card and as a palette flag
    action_phase(state)
    state.apply("complete France")
    state.apply("place at row 1 column 1")
    events = state.apply("pay Red with two Green")
    assert [(e.text, e.public) for e in events] == [("Red will pay Red with two Green", True)]
    assert state.phase == CARDS
