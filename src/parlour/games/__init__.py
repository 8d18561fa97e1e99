"""One package per game; each exposes GAME, its Game class, for the registry."""
