"""The browser client's modules import one another without a cycle.

A cycle among ES modules runs, but a module in it may see another's exports before they are
defined, depending on which page loaded first; the client keeps its imports one-way instead.
Read from the files themselves, so no browser is needed.
"""

from __future__ import annotations

import re
from pathlib import Path

import parlour

WEB = Path(parlour.__file__).resolve().parent / "web" / "js"
IMPORT = re.compile(r"""^\s*import\s[^;]*?from\s+["'](\./[^"']+)["']""", re.MULTILINE | re.DOTALL)


def _imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module in WEB.rglob("*.js"):
        name = module.relative_to(WEB).as_posix()
        targets = set()
        for target in IMPORT.findall(module.read_text(encoding="utf-8")):
            targets.add((module.parent / target).resolve().relative_to(WEB.resolve()).as_posix())
        graph[name] = targets
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        for target in sorted(graph.get(node, ())):
            found = visit(target, [*path, node])
            if found:
                return found
        done.add(node)
        return None

    for start in sorted(graph):
        found = visit(start, [])
        if found:
            return found
    return None


def test_the_reader_finds_the_imports() -> None:
    graph = _imports()
    assert "rules.js" in graph["table.js"]
    assert "table.js" in graph["app.js"]


def test_no_module_of_the_client_imports_itself_back() -> None:
    cycle = _cycle(_imports())
    assert cycle is None, " -> ".join(cycle or [])


def test_a_cycle_is_found_when_there_is_one() -> None:
    assert _cycle({"a.js": {"b.js"}, "b.js": {"c.js"}, "c.js": {"a.js"}}) == ["a.js", "b.js", "c.js", "a.js"]
