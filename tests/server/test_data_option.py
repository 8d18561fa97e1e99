"""A game's `data` option (a folder on the host) is never taken from a client nor offered in the lobby."""

from __future__ import annotations

from pathlib import Path

from parlour.engine.data import export

from .conftest import LiveServer


def test_a_client_cannot_choose_a_data_folder(server: LiveServer, tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    export("parlour.games.hanbok_runway.data", folder)  # a real, loadable folder: refused all the same
    body = {"game": "hanbok_runway", "seats": ["human", "random"], "options": {"data": str(folder)}}
    response = server.http.post("/api/tables", json=body)
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_option"
    assert "option data is set where parlour runs, not by a client" in error["message"]
    assert server.http.get("/api/tables").json() == []


def test_the_lobby_does_not_offer_the_data_option(server: LiveServer) -> None:
    games = {game["name"]: game for game in server.http.get("/api/games").json()}
    assert "data" not in {option["name"] for option in games["hanbok_runway"]["options"]}
    assert "safety_turn_cap" in {option["name"] for option in games["hanbok_runway"]["options"]}
