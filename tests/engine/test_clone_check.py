"""The conformance check that `clone` copies every field: a field forgotten, copied with another
value, or shared with the original (so that changing one changes both) is named."""

from __future__ import annotations

import pytest

from parlour.engine.conformance import ConformanceError, check_clone_copies_every_field, state_fields

from .nim import Nim, NimState


class TallyNimState(NimState):
    """Nim that also keeps the stones each seat took: lists in a list, which a clone must copy."""

    __slots__ = ("taken",)

    def clone(self) -> TallyNimState:
        twin = TallyNimState.__new__(TallyNimState)
        self._copy_base_into(twin)
        twin.pile, twin.mover, twin.taken = self.pile, self.mover, [row.copy() for row in self.taken]
        return twin


class SharingNimState(TallyNimState):
    __slots__ = ()

    def clone(self) -> SharingNimState:
        twin = type(self).__new__(type(self))
        self._copy_base_into(twin)
        twin.pile, twin.mover, twin.taken = self.pile, self.mover, self.taken  # the lists themselves
        return twin


class ForgettingNimState(TallyNimState):
    __slots__ = ()

    def clone(self) -> ForgettingNimState:
        twin = ForgettingNimState.__new__(ForgettingNimState)
        self._copy_base_into(twin)
        twin.pile, twin.mover = self.pile, self.mover
        return twin


class MiscountingNimState(TallyNimState):
    __slots__ = ()

    def clone(self) -> MiscountingNimState:
        twin = MiscountingNimState.__new__(MiscountingNimState)
        self._copy_base_into(twin)
        twin.pile, twin.mover, twin.taken = self.pile, 1 - self.mover, [row.copy() for row in self.taken]
        return twin


def _state(cls: type[TallyNimState]) -> TallyNimState:
    state = cls(Nim(), 0, 7)
    state.taken = [[1, 2], [3]]
    return state


def test_the_fields_are_read_off_every_class() -> None:
    assert {"game", "seed", "history", "_legal", "pile", "mover", "taken"} <= set(state_fields(_state(TallyNimState)))


def test_a_faithful_clone_passes() -> None:
    check_clone_copies_every_field(_state(TallyNimState))


@pytest.mark.parametrize(
    ("cls", "message"),
    [
        (SharingNimState, r"shares taken with the original"),
        (ForgettingNimState, r"leaves the field 'taken' unset"),
        (MiscountingNimState, r"copies the field 'mover' with another value"),
    ],
)
def test_a_faulty_clone_is_named(cls: type[TallyNimState], message: str) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_clone_copies_every_field(_state(cls))


class ShallowNimState(TallyNimState):
    __slots__ = ()

    def clone(self) -> ShallowNimState:
        twin = ShallowNimState.__new__(ShallowNimState)
        self._copy_base_into(twin)
        twin.pile, twin.mover, twin.taken = self.pile, self.mover, self.taken.copy()  # the rows shared
        return twin


def test_a_list_shared_deep_inside_is_found() -> None:
    with pytest.raises(ConformanceError, match=r"shares taken\[0\] with the original"):
        check_clone_copies_every_field(_state(ShallowNimState))


def test_a_field_named_in_clone_shares_may_be_shared() -> None:
    class CachingNimState(SharingNimState):
        __slots__ = ()
        clone_shares = SharingNimState.clone_shares | {"taken"}

    check_clone_copies_every_field(_state(CachingNimState))
