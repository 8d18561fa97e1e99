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
    assert own == [
        *(f"Ann: keep {flag} in palette | You keep {flag} in your palette" for flag in flags),
        *(
            f"Ann: {label} | You put your {tile} tile under column {column}"
            for label, (tile, column) in zip(played[3:], tiles, strict=True)
        ),
    ]
    assert theirs == [*["Ann moved | Red keeps a card"] * 3, *["Ann moved | Red lays a topography tile"] * 3]
