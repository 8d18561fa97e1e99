"""One module per game: `encode(view, seat, game) -> Features`, a fixed-length tensor of the view."""
