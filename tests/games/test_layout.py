"""Every game package has the same modules, and no import cycle runs between a game's modules.

An import counts when it runs: at module level or inside a function (a function-local import is
still a cycle, only deferred until the call). Imports under `if TYPE_CHECKING:` never run.
"""

from __future__ import annotations

import ast
from importlib import resources
from pathlib import Path

import pytest

GAMES = ("hatflings", "hanbok_runway", "hatairo", "yamatai")
# What a newcomer finds in every game: the Game class with its options and action space, the
# position and its protocol, the constants every module may import, the component data and its
# loader, the seat's view, the text rendering, the reasons an action is refused, the heuristic and
# the scoring.
COMMON_MODULES = (
    "__init__.py",
    "game.py",
    "state.py",
    "position.py",
    "constants.py",
    "components.py",
    "view.py",
    "render.py",
    "reasons.py",
    "heuristic.py",
    "scoring.py",
)


def _package_dir(game: str) -> Path:
    return Path(str(resources.files(f"parlour.games.{game}")))


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(tree: ast.AST, package: str) -> set[str]:
    """The modules of `package` this module imports when it runs (TYPE_CHECKING blocks excluded)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == package:
                found.update(alias.name for alias in node.names)
            elif node.module.startswith(package + "."):
                found.add(node.module[len(package) + 1 :].split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(package + "."):
                    found.add(alias.name[len(package) + 1 :].split(".")[0])
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph(game: str) -> dict[str, set[str]]:
    """Module name -> the modules of the same game it imports at run time."""
    package = f"parlour.games.{game}"
    folder = _package_dir(game)
    modules = {path.stem: path for path in folder.glob("*.py") if path.stem != "__init__"}
    return {
        name: _runtime_imports(ast.parse(path.read_text()), package) & modules.keys() - {name}
        for name, path in modules.items()
    }


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A list of modules that import each other in a loop, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for target in sorted(graph[name]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[name] = 2
        return None

    for name in sorted(graph):
        if name not in state and (cycle := visit(name)):
            return cycle
    return None


def test_find_cycle_names_the_loop() -> None:
    assert find_cycle({"game": {"state"}, "state": {"reasons"}, "reasons": {"game"}}) == [
        "game",
        "state",
        "reasons",
        "game",
    ]
    assert find_cycle({"game": {"state"}, "state": {"constants"}, "constants": set()}) is None


def test_runtime_imports_skip_type_checking_but_count_function_imports() -> None:
    source = """
from typing import TYPE_CHECKING
from parlour.games.g.constants import A
if TYPE_CHECKING:
    from parlour.games.g.game import G
def f():
    from parlour.games.g.rules import B
"""
    assert _runtime_imports(ast.parse(source), "parlour.games.g") == {"constants", "rules"}


@pytest.mark.parametrize("game", GAMES)
def test_no_import_cycle_runs_between_a_games_modules(game: str) -> None:
    assert find_cycle(import_graph(game)) is None


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_the_common_modules(game: str) -> None:
    folder = _package_dir(game)
    missing = [name for name in COMMON_MODULES if not (folder / name).is_file()]
    assert not missing, f"{game} lacks {missing}"
    assert (folder / "data").is_dir()
    assert not (folder / "rules.py").exists(), f"{game}: the rules live in game.py, state.py and the phase modules"
