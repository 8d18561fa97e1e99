"""The steps of a turn, as the state machine numbers them (section 4 of the spec)."""

INITIAL_DRAW, DRAW, SETS, OVAL_CHOICE, DISCARD, OVER = range(6)
PHASE_NAMES = ("initial draw", "draw", "sets", "oval", "discard", "over")
