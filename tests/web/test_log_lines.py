"""The game log in a player's words: her own secret reads as a sentence to her ("You keep Peru in
your atelier"), and the others read that a card was kept or a tile laid, never which nor where."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .conftest import Server

ENTRIES = """async ([seats, steps]) => {
  const { logEntry } = await import("/js/table.js");
  return steps.map((step) => {
    const entry = logEntry(seats, step);
    const lines = [...entry.querySelectorAll("li")].map((line) => line.textContent);
    entry.querySelector("ul")?.remove();
    return [entry.textContent, ...lines].join(" | ");
  });
}"""


def test_the_set_up_reads_as_sentences_to_the_player_and_as_cards_and_tiles_to_the_others(
    server: Server, open_page: Callable[..., Any]
) -> None:
    created = server.http.post("/api/tables", json={"game": "hatairo", "seats": ["human", "human"]}).json()
    url = f"/api/tables/{created['id']}"
    joined = [
        server.http.post(f"{url}/join", json={"name": name, "seat": seat}).json()
        for seat, name in enumerate(["Ann", "Bea"])
    ]
    headers = [{"Authorization": f"Bearer {seat['token']}"} for seat in joined]
    played = []
    while server.table(created["id"])["to_move"] == 0:  # Ann's whole set-up: three cards, three tiles
        legal = server.http.get(f"{url}/state", headers=headers[0]).json()["legal"]
        label = next((a["label"] for a in legal if a["label"].endswith(" in palette")), legal[0]["label"])
        assert server.http.post(f"{url}/actions", json={"action": label}, headers=headers[0]).status_code == 200
        played.append(label)
    page = open_page(server.url + "/")
    seats = server.table(created["id"])["seats"]
    own, theirs = (
        page.evaluate(ENTRIES, [seats, server.http.get(f"{url}/log", headers=h).json()["steps"]]) for h in headers
    )
    flags = [label.removeprefix("keep ").removesuffix(" in palette") for label in played[:3]]
    tiles = [label.removeprefix("topography ").split(" under column ") for label in played[3:]]
    # One line per move, in the game's sentence (not the move's label and then the sentence).
    assert own == [
        *(f"You keep {flag} in your palette" for flag in flags),
        *(f"You put your {tile} tile under column {column}" for tile, column in tiles),
    ]
    # Another seat's secret move reads as what it did, never as "Ann moved".
    assert theirs == [*["Red keeps a card"] * 3, *["Red lays a topography tile"] * 3]


GOING_ON = ("end trading", "stop placing boats", "stop collecting", "recruit no specialist", "end the turn")


def test_a_step_that_only_ends_a_phase_reads_to_the_others_in_the_games_words(
    server: Server, open_page: Callable[..., Any]
) -> None:
    """Ending trading or boat placing early is a public choice: the rival's log says so rather than
    that a move was made with no public details."""
    created = server.http.post("/api/tables", json={"game": "yamatai", "seats": ["human", "human"]}).json()
    url = f"/api/tables/{created['id']}"
    joined = [
        server.http.post(f"{url}/join", json={"name": name, "seat": seat}).json()
        for seat, name in enumerate(["Ann", "Bea"])
    ]
    headers = [{"Authorization": f"Bearer {seat['token']}"} for seat in joined]
    for _ in range(24):  # two turns each: fleet tile, then going on at every step that allows it
        mover = server.table(created["id"])["to_move"]
        legal = [a["label"] for a in server.http.get(f"{url}/state", headers=headers[mover]).json()["legal"]]
        label = next((label for label in legal if label in GOING_ON), legal[0])
        assert server.http.post(f"{url}/actions", json={"action": label}, headers=headers[mover]).status_code == 200
    page = open_page(server.url + "/")
    seats = server.table(created["id"])["seats"]
    theirs = page.evaluate(ENTRIES, [seats, server.http.get(f"{url}/log", headers=headers[1]).json()["steps"]])
    anns = [entry for entry in theirs if entry.startswith("Ann")]
    assert "Ann (blue) ends trading" in anns and "Ann (blue) stops placing boats" in anns
    assert not any(" moved" in entry for entry in theirs)
    assert not any(entry.endswith("(no public details)") for entry in theirs)
