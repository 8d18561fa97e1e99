"""Which build of parlour runs: the hot modules compiled to C by mypyc, or everything interpreted.

The same source runs both ways, move for move identical. A wheel (`python -m build`, `pip install`
from a built wheel) and `make`'s own build in build/compiled carry a C extension for each module
named by `COMPILED`, beside its .py file, which the extension shadows; a developer's editable
install (`pip install -e .`) stays interpreted, so an edited .py file is what runs.

setup.py reads this file with runpy (before parlour can be imported) for the list to compile, so
this module imports nothing of parlour.
"""

from __future__ import annotations

import fnmatch
import importlib
import importlib.machinery
from pathlib import Path

COMPILED: tuple[str, ...] = (
    "engine/actions.py",
    "engine/game.py",
    "engine/hidden.py",
    "engine/rng.py",
    "games/*/*.py",
    "agents/base.py",
    "agents/greedy.py",
    "agents/mcts.py",
)
"""The modules compiled, as paths below src/parlour: the engine's hot path, every game's rules
and the search bots (each a pattern; `LEFT_INTERPRETED` takes some back out)."""

LEFT_INTERPRETED: dict[str, str] = {
    # (engine/tensor.py, the observation tensor builder, matches no pattern: it is off the hot path,
    # since the encoders' `write` fills a tensor without it, and its Vocabulary subclasses tuple.)
    "*/__init__.py": "a package's set-up, run once at import",
    "games/*/components.py": "component data read once at import; tests replace the CSV reader it calls",
}
"""Modules matched by `COMPILED` that stay interpreted, each with the reason."""

ROOT = Path(__file__).resolve().parent


def compiled_sources(root: Path = ROOT) -> list[Path]:
    """The .py files below `root` (a parlour package folder) that the compiled build compiles."""
    found = {path for pattern in COMPILED for path in root.glob(pattern) if path.suffix == ".py"}
    return sorted(path for path in found if not _left_out(path.relative_to(root).as_posix()))


def _left_out(relative: str) -> bool:
    return any(fnmatch.fnmatchcase(relative, pattern) for pattern in LEFT_INTERPRETED)


def compiled_module_names(root: Path = ROOT) -> list[str]:
    """The dotted names of the modules the compiled build compiles (`parlour.engine.game`, ...)."""
    return ["parlour." + ".".join(path.relative_to(root).with_suffix("").parts) for path in compiled_sources(root)]


def is_extension(module_name: str) -> bool:
    """Whether the module runs as a compiled C extension (importing it if need be)."""
    loader = getattr(importlib.import_module(module_name), "__loader__", None)
    return isinstance(loader, importlib.machinery.ExtensionFileLoader)


def compiled() -> bool:
    """Whether this parlour is the compiled build: its engine runs as a C extension."""
    return is_extension("parlour.engine.game")


def build_name() -> str:
    """'compiled' or 'interpreted', for reports and benchmark records."""
    return "compiled" if compiled() else "interpreted"
