"""One module per game: `encode(view, seat, game) -> list[float]`, a fixed-length tensor of the view."""
