"""Every game package has the same modules and the same seam names (SEAMS), builds on the engine
alone, and no import cycle runs between a game's modules.

An import counts when it runs: at module level or inside a function (a function-local import is
still a cycle, only deferred until the call). Imports under `if TYPE_CHECKING:` never run.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from importlib import resources
from pathlib import Path
from types import ModuleType

import pytest

import parlour
from parlour.engine.conformance import state_fields
from parlour.engine.data import parsed
from parlour.engine.rng import Rng

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


# The seams every game shows by the same name (docs/architecture.md, "A game package").
SEAMS = """
view.py        view(state, seat): the JSON-able view of `seat` (None: a spectator)
position.py    to_move: the field holding the seat to move; set_up(game, seed): the starting position
constants.py   PHASE_NAMES (a name for each phase number) and OVER (the phase of a finished game)
components.py  load_components(data): the validated components of a data set
game.py        game.components: those of the game's data set; new_state(seed) via set_up
state.py       no determinize of its own: `hidden` declares what the engine's determinize re-draws
"""


def _module(game: str, name: str) -> ModuleType:
    return importlib.import_module(f"parlour.games.{game}.{name}")


def _defines(game: str, module: str) -> set[str]:
    tree = ast.parse((_package_dir(game) / f"{module}.py").read_text())
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef | ast.ClassDef)}


@pytest.mark.parametrize("game", GAMES)
def test_every_game_names_its_seams_alike(game: str) -> None:
    view = _module(game, "view").view
    assert list(inspect.signature(view).parameters) == ["state", "seat"]
    constants = _module(game, "constants")
    assert constants.PHASE_NAMES[constants.OVER] in {"over", "game over"}
    assert callable(_module(game, "components").load_components)
    loaded = parlour.load_game(game)
    assert loaded.components is parsed(loaded.data, _module(game, "components").load_components)
    state = loaded.new_state(seed=0)
    state_class = type(state)
    position = next(cls for cls in state_class.__mro__ if cls.__module__ == f"parlour.games.{game}.position")
    assert "to_move" in state_fields(state)
    assert "set_up" in vars(position)
    assert f"return {state_class.__name__}.set_up(self, seed)" in (_package_dir(game) / "game.py").read_text()
    assert "determinize" not in _defines(game, "state") and "determinize" not in _defines(game, "position")
    assert state_class.hidden, f"{game} declares nothing hidden: not even the generator's future?"


@pytest.mark.parametrize("game", GAMES)
def test_the_seat_to_move_is_the_to_move_field(game: str) -> None:
    state = parlour.load_game(game).new_state(seed=3)
    chooser = Rng(4)
    for _ in range(60):
        if state.is_terminal():
            break
        assert state.current_player() == state.to_move  # type: ignore[attr-defined]
        state.apply(chooser.choice(state.legal_actions()))


@pytest.mark.parametrize("game", GAMES)
def test_a_game_builds_on_the_engine_not_on_the_adapters(game: str) -> None:
    for path in _package_dir(game).glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            assert not any(name.startswith("parlour.interop") for name in names), f"{path.name} imports {names}"
