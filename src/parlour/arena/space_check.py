"""The search space checked against the game before the first trial of `parlour tune`.

Each parameter's values (every value of a short integer range, else its bounds and values spread
between them; `Parameter.probes`) are written into the base data one parameter at a time, the
others at their base values, and the game is built and dealt from them. A value the game refuses
stops the study before it starts, with the space file's line, the parameter, the value and the
game's own message, and the values of the range the game did accept; otherwise a sampler would
spend trial after trial on values that can never play.

What this cannot see: values refused only together (one count that must stay below another).
Such a combination still fails its trial alone, with the game's message, when a trial draws it.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parlour.arena.space import Number, Parameter, SpaceError
from parlour.engine.errors import ParlourError

if TYPE_CHECKING:
    from parlour.arena.tune import Setup


def check_space(setup: Setup) -> None:
    """Raise SpaceError naming the first parameter with values the game refuses."""
    base = {p.label: p.base for p in setup.space.parameters}
    with tempfile.TemporaryDirectory(prefix="parlour-space-") as folder:
        for parameter in setup.space.parameters:
            refused: dict[Number, str] = {}
            for value in parameter.probes():
                problem = refusal(setup, {**base, parameter.label: value}, Path(folder))
                if problem:
                    refused[value] = problem
            if refused:
                raise SpaceError(_message(setup, parameter, refused))


def refusal(setup: Setup, values: Mapping[str, Number], folder: Path) -> str:
    """The game's message refusing these values, or "" when it builds and deals a game from them."""
    from parlour.arena.tune import tournament_for, write_data

    data = None
    if setup.base_files:
        data = folder / "data"
        write_data(data, setup.space.apply(setup.base_files, values))
    try:
        tournament = tournament_for(setup, values, data)
        tournament.load().new_state(seed=tournament.game_seed(0))
    except ParlourError as error:
        return str(error)
    return ""


def _message(setup: Setup, parameter: Parameter, refused: Mapping[Number, str]) -> str:
    value, problem = next(iter(refused.items()))
    probes = parameter.probes()
    accepted = [v for v in probes if v not in refused]
    where = f"{setup.space.path}" + (f" line {parameter.line}" if parameter.line else "")
    head = f"{where}: parameter {parameter.number} ({parameter.label}), range {parameter.low}..{parameter.high}:"
    told = _values(list(refused), probes)
    if accepted:
        hint = f"the game accepts {_values(accepted, probes)}; narrow low and high to those"
    else:
        hint = "the game accepts none of the values tried; check the parameter's place and bounds"
    return f"{head} {setup.game} refuses {told} (at {value}: {_short(problem)}); {hint}"


def _values(chosen: Sequence[Any], probes: Sequence[Any]) -> str:
    """`0`, `0, 7` or `1..6`: consecutive probes shown as a run."""
    positions = [probes.index(v) for v in chosen]
    if len(chosen) > 2 and positions == list(range(positions[0], positions[0] + len(positions))):
        return f"{chosen[0]}..{chosen[-1]}"
    return ", ".join(str(v) for v in chosen)


def _short(problem: str) -> str:
    """The game's message without the temporary folder it was loaded from."""
    head, sep, rest = problem.partition(": ")
    return rest if sep and head.startswith("data folder ") else problem
