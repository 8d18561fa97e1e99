"""The docs name things that exist: every file path, every dotted name in parlour (`parlour.x.y`),
every link between docs and its anchor; and
they name what exists: every module of the server's layers in docs/architecture.md, every module
of the browser client in docs/web.md.

A path in README.md or docs/*.md is read from the doc's own folder, the repository's root, from `src/`, `src/parlour/`,
`src/parlour/server/`, `src/parlour/games/` or `src/parlour/web/` (the docs write `server/db/store.py`
and `js/api.js` for short); a path with a placeholder (`<game>`, `*`) is not checked.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BASES = [ROOT, ROOT / "src", *(ROOT / "src" / "parlour" / sub for sub in ("", "server", "games", "web"))]
SUFFIXES = "py|js|json|toml|md|html|css|yml|yaml|npz|png|svg"
# A path: folders then a file with a known suffix, or a folder of parlour's own tree (`parlour/server/db/migrations`).
PATH = re.compile(
    rf"(?<![\w/.<*-])((?:[\w.-]+/)+[\w.-]+\.(?:{SUFFIXES})|(?:src/)?parlour/\w+/[\w/]*\w)(?![\w<>*/-])(?!\.\w)"
)
LINK = re.compile(r"\]\(([^)\s]+)\)")
# Where a doc names a file someone makes (a run's output, a folder of their own), not one of parlour's.
NOT_OURS = ("runs/", "study/", "DIR/", "mine/", "base/", "runs\\")


def _lines(doc: Path) -> list[tuple[int, str]]:
    """The doc's numbered lines, code blocks included (they name paths too)."""
    return list(enumerate(doc.read_text(encoding="utf-8").splitlines(), 1))


def named_paths(text: str) -> list[str]:
    return [p for p in PATH.findall(text) if not p.startswith(NOT_OURS) and "://" not in p]


def exists(path: str, doc: Path = ROOT) -> bool:
    """Found from one of the bases, or beside the doc that names it (its images)."""
    return any((base / path).exists() for base in (*BASES, doc.parent))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(doc: Path) -> set[str]:
    found: set[str] = set()
    counts: dict[str, int] = {}
    fenced = False
    for line in doc.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            base = slug(line.lstrip("#"))
            n = counts.get(base, 0)
            counts[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def test_the_path_finder_reads_the_forms_the_docs_use() -> None:
    text = "see `server/db/store.py`, (src/parlour/engine/rng.py), `parlour/server/db/migrations` and <game>/x.py"
    assert named_paths(text) == ["server/db/store.py", "src/parlour/engine/rng.py", "parlour/server/db/migrations"]
    assert exists("server/db/store.py") and exists("js/api.js") and exists("parlour/server/db/migrations")
    assert not exists("server/hub.py") and not exists("server/store.py") and not exists("parlour/server/migrations")


def test_every_path_the_docs_name_exists() -> None:
    missing = [
        f"{doc.relative_to(ROOT)}:{number}: {path}"
        for doc in DOCS
        for number, line in _lines(doc)
        for path in named_paths(line)
        if not exists(path, doc)
    ]
    assert not missing, "paths named in the docs that do not exist:\n" + "\n".join(missing)


def test_the_slug_is_githubs() -> None:
    assert slug("Limits on tables, bots and memory") == "limits-on-tables-bots-and-memory"
    assert slug("The websocket: `GET /api/tables/{id}/ws`") == "the-websocket-get-apitablesidws"
    assert slug("My games and profiles") == "my-games-and-profiles"


def prose(doc: Path) -> list[tuple[int, str]]:
    """The doc's numbered lines outside its code blocks (where `f["a"](b)` is no link)."""
    lines, fenced = [], False
    for number, line in _lines(doc):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append((number, line))
    return lines


def test_every_link_between_docs_reaches_its_file_and_heading() -> None:
    broken = []
    for doc in DOCS:
        for number, line in prose(doc):
            for target in LINK.findall(line):
                if target.startswith(("http://", "https://", "mailto:")):
                    continue
                file, _, anchor = target.partition("#")
                linked = (doc.parent / file).resolve() if file else doc
                if not linked.exists():
                    broken.append(f"{doc.relative_to(ROOT)}:{number}: {target} (no such file)")
                elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
                    broken.append(f"{doc.relative_to(ROOT)}:{number}: {target} (no such heading)")
    assert not broken, "links in the docs that lead nowhere:\n" + "\n".join(broken)


def test_architecture_names_every_module_of_the_servers_layers() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## The server's layers")[1].split("\n## ")[0]
    server = ROOT / "src" / "parlour" / "server"
    unnamed = [
        f"{module.parent.name}/{module.name}"
        for layer in ("authority", "db", "cluster", "edge", "features")
        for module in sorted((server / layer).glob("*.py"))
        if module.stem != "__init__" and not re.search(rf"\b{module.stem}\b", section)
    ]
    assert not unnamed, "server modules the layers' section of docs/architecture.md does not name: " + ", ".join(
        unnamed
    )


def test_web_names_every_module_of_the_browser_client() -> None:
    text = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    section = text.split("## Code")[1].split("\n## ")[0]
    web = ROOT / "src" / "parlour" / "web"
    unnamed = [str(m.relative_to(web)) for m in sorted(web.rglob("*.js")) if str(m.relative_to(web)) not in section]
    assert not unnamed, "browser modules the Code section of docs/web.md does not name: " + ", ".join(unnamed)


DOTTED = re.compile(r"`(parlour(?:\.\w+)+)")
PACKAGE = ROOT / "src" / "parlour"


def resolves(name: str) -> bool:
    """`parlour.a.b.C.d`: the longest prefix that is one of parlour's modules, then attributes of it.
    A name whose first part is no module of parlour's (`parlour.sqlite`, a file) is not one."""
    parts = name.split(".")
    if not ((PACKAGE / f"{parts[1]}.py").exists() or (PACKAGE / parts[1]).is_dir()):
        return True
    for cut in range(len(parts), 1, -1):
        path = ROOT / "src" / Path(*parts[:cut])
        if path.with_suffix(".py").exists() or (path / "__init__.py").exists():
            try:
                found: object = importlib.import_module(".".join(parts[:cut]))
            except ImportError as error:
                # An optional library not installed here (pyspiel, ray) leaves the name unjudged.
                return not (error.name or "").startswith("parlour")
            for attribute in parts[cut:]:
                if not hasattr(found, attribute):
                    return False
                found = getattr(found, attribute)
            return True
    return False


def test_the_dotted_name_check_tells_a_moved_name() -> None:
    assert resolves("parlour.server.edge.guard.GuardedH11") and resolves("parlour.engine.tensor")
    assert not resolves("parlour.server.guard.GuardedH11") and not resolves("parlour.server.hub")


def test_every_dotted_name_the_docs_give_resolves() -> None:
    unresolved = [
        f"{doc.relative_to(ROOT)}:{number}: {name}"
        for doc in DOCS
        for number, line in _lines(doc)
        for name in DOTTED.findall(line)
        if not resolves(name)
    ]
    assert not unresolved, "names in parlour the docs give that do not exist:\n" + "\n".join(unresolved)


def test_architecture_names_every_package_and_module_of_parlour() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    tree = text.split("```")[1]
    parts = [p for p in sorted(PACKAGE.iterdir()) if p.suffix == ".py" or (p / "__init__.py").exists()]
    named = [p.name + ("/" if p.is_dir() else "") for p in parts if p.name != "__init__.py"]
    unnamed = [name for name in named if name not in tree]
    assert not unnamed, (
        "parts of src/parlour/ the layout at the top of docs/architecture.md does not name: " + ", ".join(unnamed)
    )
