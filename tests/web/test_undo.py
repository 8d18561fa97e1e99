"""Undo at the table: a step of one's own turn that keeps the turn and shows nothing hidden is held
tentative by the server, for this seat alone, and taken back with the Undo button; the others never
see it; a reload mid-turn finds the same tentative steps; once a step reveals something or the
turn passes, the steps are committed and nothing takes them back."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from .clicking import MY_TURN_OR_OVER, click_one
from .conftest import Server
from .test_play import create_from_lobby

GOLDEN = Path(__file__).parents[1] / "games" / "yamatai" / "golden" / "players_3_seed_2.jsonl"
# In that recorded game seat 0's turn of moves 82–85 takes fleet tile 3, buys a wood boat, places
# it and then uses the fleet tile's power, a preview of the building deck: the first three keep
# the turn and show nothing hidden, the preview shows the deck's top tile to seat 0.
TURN, PREVIEW = 82, 85

# The board as drawn, without the marks of what can be clicked now (they change with every step).
BOARD = """() => { const board = document.querySelector('#board').cloneNode(true);
  for (const node of board.querySelectorAll('*'))
    for (const name of ['class', 'tabindex', 'role']) node.removeAttribute(name);
  return board.innerHTML; }"""


# Every text the turn line shows, in order (its texts change in place).
TURN_TEXTS = """() => { const line = document.querySelector('#turn'); window.__turns = [line.textContent];
  new MutationObserver(() => window.__turns.push(line.textContent))
    .observe(line, { childList: true, characterData: true, subtree: true }); }"""


def recorded_moves() -> list[str]:
    lines = [json.loads(line) for line in GOLDEN.read_text().splitlines()]
    return [line["action"] for line in lines[1:] if "action" in line]


def recorded_table(server: Server, names: list[str]) -> tuple[str, list[str]]:
    """The recorded Yamataï game opened with a person at every seat (its seed, a fixed deal), each
    seat joined over HTTP; the table id and the seats' tokens."""
    created = server.http.post(
        "/api/tables",
        json={"game": "yamatai", "options": {"players": 3}, "seats": ["human"] * 3, "seed": 2, "fixed_deal": True},
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    tokens = []
    for seat, name in enumerate(names):
        joined = server.http.post(f"/api/tables/{table_id}/join", json={"name": name, "seat": seat})
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    return table_id, tokens


def act(server: Server, table_id: str, token: str, label: str) -> httpx.Response:
    return server.http.post(
        f"/api/tables/{table_id}/actions", json={"action": label}, headers={"Authorization": f"Bearer {token}"}
    )


def seat_page(browser: Any, open_page: Callable[..., Any], server: Server, table_id: str, seat: int, token: str) -> Any:
    """The table page of a browser holding `seat` (its token kept as the lobby would keep it)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    held = json.dumps({"token": token, "seat": seat, "name": None, "account": None})
    context.add_init_script(f"localStorage.setItem('parlour.seat.{table_id}', {json.dumps(held)})")
    page = open_page(f"{server.url}/?table={table_id}", context=context)
    page.wait_for_selector("#board svg")
    return page


def play_listed(page: Any, server: Server, table_id: str, token: str, label: str) -> None:
    """Play the move the engine calls `label` from the list of every legal move (which says it in
    the player's words), then wait for the position after it."""
    page.wait_for_function("document.querySelector('#turn.mine') !== null")
    position = server.http.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {token}"}).json()
    page.select_option("#moves", str(next(action["id"] for action in position["legal"] if action["label"] == label)))
    page.click("#play-move")
    page.wait_for_function("document.querySelector('#turn.mine') !== null")


def log_length(page: Any, length: int) -> None:
    page.wait_for_function(f"document.querySelectorAll('#log > li').length === {length}")


def test_a_step_of_ones_own_turn_is_taken_back_with_undo(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/")
    table_id = create_from_lobby(page, "yamatai", ["random"], seed=3)
    page.wait_for_function("document.querySelector('#moves option') !== null")
    assert page.locator("#undo").is_hidden()
    before = page.locator("#moves option").all_inner_texts()
    # Taking a fleet tile keeps the turn and shows nothing hidden: the step stays tentative.
    page.select_option("#moves", index=before.index(next(t for t in before if t.startswith("Take fleet tile"))))
    page.click("#play-move")
    page.wait_for_selector("#undo:not([hidden])")
    assert page.locator("#moves option").all_inner_texts() != before
    assert server.table(table_id)["version"] == 0  # nobody else sees it, nothing is committed
    page.click("#undo")
    page.wait_for_selector("#undo", state="hidden")
    assert page.locator("#moves option").all_inner_texts() == before
    assert server.table(table_id)["version"] == 0


def test_undo_takes_back_steps_the_others_never_saw_until_a_preview_commits_them(
    server: Server, open_page: Callable[..., Any], browser: Any
) -> None:
    moves = recorded_moves()
    table_id, tokens = recorded_table(server, ["Ann", "Bob", "Cy"])
    player = server.http.get(f"/api/tables/{table_id}/state", headers={"Authorization": f"Bearer {tokens[0]}"}).json()
    for label in moves[:TURN]:
        answer = act(server, table_id, tokens[player["to_move"]], label)
        assert answer.status_code == 200, (label, answer.text)
        player = answer.json()
    assert server.table(table_id)["version"] == TURN and player["to_move"] == 0
    bob = seat_page(browser, open_page, server, table_id, 1, tokens[1])
    ann = seat_page(browser, open_page, server, table_id, 0, tokens[0])
    log_length(bob, TURN)
    bobs_board = bob.evaluate(BOARD)

    boards = [ann.evaluate(BOARD)]
    for label in moves[TURN:PREVIEW]:
        play_listed(ann, server, table_id, tokens[0], label)
        assert ann.locator("#undo").is_visible()
        boards.append(ann.evaluate(BOARD))
    assert len(set(boards)) == len(boards)  # each step changed Ann's board
    # Nobody else saw any of it: the table is still at the turn's start, Bob's board and log unchanged.
    assert server.table(table_id)["version"] == TURN
    assert bob.evaluate(BOARD) == bobs_board and bob.locator("#log > li").count() == TURN
    assert ann.locator("#log > li").count() == TURN  # tentative steps are not logged

    # A reload mid-turn (or a lost connection) finds the same tentative steps, still undoable.
    ann.reload()
    ann.wait_for_selector("#undo:not([hidden])")
    ann.wait_for_function("document.querySelector('#turn.mine') !== null")
    assert ann.evaluate(BOARD) == boards[-1]
    log_length(ann, TURN)

    # Undo takes back the last step, then the one before: the board returns step by step.
    for back in (2, 1):
        ann.click("#undo")
        ann.wait_for_function(f"(board) => ({BOARD})() === board", arg=boards[back])
    assert ann.locator("#undo").is_visible()
    assert server.table(table_id)["version"] == TURN

    # Played again and followed by the preview, which shows a hidden tile: every step is committed.
    for label in moves[TURN + 1 : PREVIEW + 1]:
        play_listed(ann, server, table_id, tokens[0], label)
    ann.wait_for_selector("#undo", state="hidden")
    assert server.table(table_id)["version"] == PREVIEW + 1
    log_length(bob, PREVIEW + 1)
    log_length(ann, PREVIEW + 1)
    assert bob.evaluate(BOARD) != bobs_board
    # Still Ann's turn, but nothing of it can be taken back any more, and nothing changes.
    refused = server.http.post(f"/api/tables/{table_id}/undo", headers={"Authorization": f"Bearer {tokens[0]}"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "nothing_to_undo"
    assert server.table(table_id)["version"] == PREVIEW + 1
    assert ann.locator("#turn.mine").count() == 1


def test_once_the_turn_passes_its_steps_stay(server: Server, open_page: Callable[..., Any]) -> None:
    page = open_page(server.url + "/")
    table_id = create_from_lobby(page, "yamatai", ["random"], seed=3)
    token = page.evaluate(f"JSON.parse(localStorage.getItem('parlour.seat.{table_id}')).token")

    def actors() -> list[int]:
        return [step["actor"] for step in server.http.get(f"/api/tables/{table_id}/log").json()["steps"]]

    page.wait_for_selector("#turn")
    page.evaluate(TURN_TEXTS)
    clicks, held = 0, False
    # Click through the first turn: some of its steps are held (Undo shown) until the turn passes.
    while True:
        page.wait_for_function(MY_TURN_OR_OVER)
        held = held or page.locator("#undo").is_visible()
        if 1 in actors():  # the bot has played its turn: Ann's first turn is over
            break
        assert clicks < 60, "the first turn did not end"
        click_one(page, clicks)
        clicks += 1
    assert held, "no step of the turn was held tentative"
    # The held steps come back as updates when the turn is committed: the page never offers the
    # turn again in between ("Your turn" and then, with no move of Ann's, "Waiting for" the bot).
    texts = [text.split(":")[0] for text in page.evaluate("window.__turns")]
    flashes = [i for i in range(1, len(texts)) if texts[i].startswith("Waiting") and texts[i - 1] == "Your turn"]
    assert not flashes, texts
    first_turn = actors().index(1)
    assert first_turn >= 2 and set(actors()[:first_turn]) == {0}  # every step of it, each once
    log_length(page, len(actors()))
    assert page.locator("#undo").is_hidden()
    # Ann to move again: nothing of her last turn can be taken back, and nothing changes.
    before = server.table(table_id)["version"]
    refused = server.http.post(f"/api/tables/{table_id}/undo", headers={"Authorization": f"Bearer {token}"})
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "nothing_to_undo"
    assert server.table(table_id)["version"] == before
    assert actors()[:first_turn] == [0] * first_turn
