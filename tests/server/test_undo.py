"""Undo: a person's steps within a turn stay tentative, seen by them alone, until the turn passes
or a step shows something hidden; until then they may take them back, and nothing committed is
ever taken back."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from parlour.engine import TERMINAL, Action, Event, Game, Option, Rng, Score, State, registry
from parlour.engine.registry import game_classes, register

from .conftest import LiveServer, Player

TURNS = 4


class Steps(Game):
    """Each turn the seat to move may `mark` (twice at most), `draw` a card by chance, `peek` at
    the top of a deck shuffled at the start (a revealing event), and `end` the turn."""

    name = "steps"
    title = "Steps"
    summary = "a turn of several steps, for testing undo"
    perfect_information = False
    revealing_events = frozenset({"peek"})
    options_spec = (Option("players", int, 2, "number of players", choices=(2,)),)

    def _build_actions(self) -> list[Action]:
        return [Action(i, kind, kind) for i, kind in enumerate(("mark", "draw", "peek", "end"))]

    def new_state(self, seed: int = 0) -> StepsState:
        return StepsState(self, seed)


class StepsState(State):
    __slots__ = ("deck", "drawn", "marks", "rng", "seen", "this_turn", "turn")

    def __init__(self, game: Steps, seed: int) -> None:
        super().__init__(game, seed)
        self.rng = Rng(seed)
        self.deck = list(range(10))
        self.rng.shuffle(self.deck)
        self.marks, self.drawn, self.seen = [0, 0], [0, 0], [-1, -1]
        self.this_turn, self.turn = 0, 0

    def current_player(self) -> int:
        return TERMINAL if self.turn >= TURNS else self.turn % 2

    def _legal_now(self) -> list[Action]:
        if self.is_terminal():
            return []
        kinds = {"draw", "peek", "end"} | ({"mark"} if self.this_turn < 2 else set())
        return [action for action in self.game.actions if action.kind in kinds]

    def _apply(self, action: Action) -> list[Event]:
        seat = self.current_player()
        if action.kind == "mark":
            self.marks[seat] += 1
            self.this_turn += 1
        elif action.kind == "draw":
            self.drawn[seat] = self.rng.randrange(100)
        elif action.kind == "peek":
            self.seen[seat] = self.deck[0]
            return [Event("peek", "peeks", {"seat": seat}, audience=(seat,))]
        else:
            self.turn += 1
            self.this_turn = 0
        return [Event(action.kind, action.kind, {"seat": seat})]

    def is_terminal(self) -> bool:
        return self.turn >= TURNS

    def winners(self) -> list[int]:
        return [0, 1] if self.marks[0] == self.marks[1] else [int(self.marks[1] > self.marks[0])]

    def scores(self) -> list[Score]:
        return [Score(float(marks)) for marks in self.marks]

    def view(self, seat: int | None) -> dict[str, Any]:
        mine = {} if seat is None else {"drawn": self.drawn[seat], "seen": self.seen[seat]}
        return {"marks": list(self.marks), "turn": self.turn, "this_turn": self.this_turn, **mine}

    def clone(self) -> StepsState:
        twin = StepsState.__new__(StepsState)
        self._copy_base_into(twin)
        twin.rng, twin.deck = self.rng.clone(), self.deck
        twin.marks, twin.drawn, twin.seen = list(self.marks), list(self.drawn), list(self.seen)
        twin.this_turn, twin.turn = self.this_turn, self.turn
        return twin

    def determinize(self, seat: int, rng: Rng) -> StepsState:
        return self.clone()

    def render(self, seat: int | None = None) -> str:
        return str(self.view(seat))

    def heuristic(self, seat: int) -> float:
        return float(self.marks[seat] - self.marks[1 - seat])


@pytest.fixture(autouse=True)
def steps_game() -> Iterator[None]:
    added = "steps" not in game_classes()
    if added:
        register(Steps)
    yield
    if added:
        registry._GAMES.pop("steps", None)


def two_people(server: LiveServer) -> tuple[str, Player, Player, dict[str, Any]]:
    """A running Steps table of Ann (seat 0, to move) and Bo; and Ann's seat."""
    table = server.create("steps", ["human", "human"], seed=3)
    ann_seat = server.join(table["id"], "Ann")
    bo_seat = server.join(table["id"], "Bo")
    ann, bo = server.connect(table["id"], ann_seat["token"]), server.connect(table["id"], bo_seat["token"])
    return table["id"], ann, bo, ann_seat


def act(player: Player, action: str) -> dict[str, Any]:
    """Play `action` and return the next position the player is sent (sync or update)."""
    player.send(type="act", action=action)
    message = player.until(lambda m: m["type"] in ("sync", "update", "error"))
    assert message["type"] != "error", message
    return message


def undo(player: Player) -> dict[str, Any]:
    player.send(type="undo")
    return player.until(lambda m: m["type"] in ("sync", "error"))


def test_a_tentative_step_is_seen_by_its_seat_alone_and_taken_back_exactly(serve: Callable[..., LiveServer]) -> None:
    server = serve(undo=True)
    table_id, ann, bo, ann_seat = two_people(server)
    before = server.http.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {ann_seat['token']}"})
    marked = act(ann, "mark")
    assert marked["type"] == "sync" and marked["view"]["marks"] == [1, 0] and marked["undoable"] == 1
    assert marked["version"] == 1
    # Bo and a spectator see the position before the turn; the database holds nothing of it.
    assert bo.version() == 0 and server.table(table_id)["version"] == 0
    bo.send(type="sync")
    assert bo.until(lambda m: m["type"] == "sync")["view"]["marks"] == [0, 0]
    assert not any(m["type"] == "update" for m in bo.messages)
    taken_back = undo(ann)
    assert taken_back["type"] == "sync" and taken_back["undoable"] == 0
    assert {k: v for k, v in taken_back.items() if k != "type"} == {
        k: v for k, v in before.json().items() if k != "type"
    }
    # Nothing is left to take back.
    assert undo(ann)["code"] == "nothing_to_undo"


def test_the_turn_passing_commits_every_step_for_everybody(serve: Callable[..., LiveServer]) -> None:
    server = serve(undo=True)
    table_id, ann, bo, _ = two_people(server)
    act(ann, "mark")
    act(ann, "mark")
    ann.send(type="act", action="end")
    updates = [bo.until(lambda m: m["type"] == "update") for _ in range(3)]
    assert [u["version"] for u in updates] == [1, 2, 3] and updates[-1]["view"]["marks"] == [2, 0]
    assert server.table(table_id)["version"] == 3
    # The turn passed: Ann cannot take her steps back, and it is not her turn.
    assert undo(ann)["code"] == "not_your_turn"
    # Bo's tentative steps are his; the turn is his to take back, not Ann's.
    act(bo, "mark")
    assert undo(ann)["code"] == "not_your_turn"
    assert undo(bo)["view"]["marks"] == [2, 0]


@pytest.mark.parametrize("revealing", ["draw", "peek"])
def test_a_step_that_shows_something_hidden_commits_the_turn(serve: Callable[..., LiveServer], revealing: str) -> None:
    server = serve(undo=True)
    table_id, ann, bo, _ = two_people(server)
    act(ann, "mark")
    ann.send(type="act", action=revealing)
    assert [bo.until(lambda m: m["type"] == "update")["version"] for _ in range(2)] == [1, 2]
    assert server.table(table_id)["version"] == 2
    assert undo(ann)["code"] == "nothing_to_undo"
    # Steps after the reveal are tentative again, and only they can be taken back.
    assert act(ann, "mark")["undoable"] == 1
    assert undo(ann)["view"]["marks"] == [1, 0]
    assert undo(ann)["code"] == "nothing_to_undo"


def test_undo_over_http_and_refusals(serve: Callable[..., LiveServer]) -> None:
    server = serve(undo=True)
    table_id, ann, bo, ann_seat = two_people(server)
    act(ann, "mark")
    spectator = server.connect(table_id)
    assert undo(spectator)["code"] == "spectator"
    assert undo(bo)["code"] == "not_your_turn"
    response = server.http.post(
        f"/api/tables/{table_id}/undo", headers={"Authorization": f"Bearer {ann_seat['token']}"}
    )
    assert response.status_code == 200 and response.json()["view"]["marks"] == [0, 0]
    again = server.http.post(f"/api/tables/{table_id}/undo", headers={"Authorization": f"Bearer {ann_seat['token']}"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "nothing_to_undo"


def test_without_undo_every_step_is_committed(serve: Callable[..., LiveServer]) -> None:
    server = serve(undo=False)
    table_id, ann, _, _ = two_people(server)
    assert act(ann, "mark")["type"] == "update" and server.table(table_id)["version"] == 1
    assert undo(ann)["code"] == "nothing_to_undo"


def test_a_restart_keeps_committed_steps_and_loses_only_tentative_ones(serve: Callable[..., LiveServer]) -> None:
    first = serve(undo=True)
    table_id, ann, bo, _ann_seat = two_people(first)
    act(ann, "mark")
    ann.send(type="act", action="end")
    bo.until(lambda m: m["type"] == "update" and m["version"] == 2)
    act(bo, "mark")  # tentative: Bo's unfinished input
    ann.close()
    bo.close()
    first.stop()
    second = serve(undo=True)
    assert second.table(table_id)["version"] == 2
    state = second.http.get(f"/api/tables/{table_id}/state").json()
    assert state["view"]["marks"] == [1, 0] and state["to_move"] == 1


def test_why_answers_on_the_seats_tentative_position(serve: Callable[..., LiveServer]) -> None:
    server = serve(undo=True)
    table_id, ann, _, ann_seat = two_people(server)
    act(ann, "mark")
    act(ann, "mark")
    # Two marks a turn at most: the third is refused on Ann's position, though not on the committed one.
    why = server.http.post(
        f"/api/tables/{table_id}/why", json={"action": "mark"}, headers={"Authorization": f"Bearer {ann_seat['token']}"}
    )
    assert why.json()["legal"] is False


def test_a_timed_out_turn_drops_its_tentative_steps(serve: Callable[..., LiveServer]) -> None:
    server = serve(undo=True, min_move_seconds=0.05, timer_poll=0.02, timeout_agent="random")
    table = server.create("steps", ["human", "human"], seed=3, mode="turn_based", move_seconds=1.0, on_timeout="bot")
    tokens = [server.join(table["id"], name)["token"] for name in ("Ann", "Bo")]
    ann = server.connect(table["id"], tokens[0])
    assert act(ann, "mark")["undoable"] == 1
    dropped = ann.until(lambda m: m["type"] == "sync" and m["undoable"] == 0, timeout=10)
    assert dropped["version"] == 0 and dropped["view"]["marks"] == [0, 0]
    # The timeout bot plays the whole turn from the committed position, each step committed at once.
    passed = ann.until(lambda m: m["type"] == "update" and m["to_move"] == 1, timeout=10)
    updates = [m for m in ann.messages if m["type"] == "update"]
    assert [m["version"] for m in updates] == list(range(1, passed["version"] + 1))
    bot_marks = sum(1 for m in updates if m["action"]["kind"] == "mark")
    assert passed["view"]["marks"] == [bot_marks, 0]


def test_undo_is_on_unless_parlour_serve_is_told_no_undo(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    from typer.testing import CliRunner

    import parlour.server
    from parlour.cli import app

    given: list[Any] = []
    monkeypatch.setattr(parlour.server, "run", lambda settings, **_: given.append(settings))
    for options in ([], ["--no-undo"], ["--undo"]):
        result = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "p.sqlite"), "--port", "0", *options])
        assert result.exit_code == 0, result.output
    assert [settings.undo for settings in given] == [True, False, True]
