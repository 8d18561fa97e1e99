"""docs/interop.md stays true: its layout section is the encoders' own, and its examples run."""

from __future__ import annotations

import itertools
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import parlour
from parlour.engine import Rng
from parlour.interop.encoding import bounds, layout, layout_document, observation_size, observation_tensor

DOC = Path(__file__).resolve().parents[2] / "docs" / "interop.md"


def test_the_documented_layouts_are_the_encoders() -> None:
    text = DOC.read_text(encoding="utf-8")
    documented = text.split("<!-- layout: begin -->")[1].split("<!-- layout: end -->")[0]
    assert documented.strip() == layout_document().strip(), "run: python -m parlour.interop.encoding"


@pytest.mark.parametrize("name", ["hatflings", "hanbok_runway", "hatairo", "yamatai"])
def test_layout_blocks_cover_the_tensor_and_bounds_hold(name: str) -> None:
    game = parlour.load_game(name)
    blocks = layout(game)
    assert blocks[0].offset == 0 and all(b.size > 0 for b in blocks)
    assert all(a.offset + a.size == b.offset for a, b in itertools.pairwise(blocks))
    assert blocks[-1].offset + blocks[-1].size == observation_size(game)
    low, high = bounds(game)
    assert np.isfinite(high).sum() > 0.5 * len(high), "most slots are flags, bounded to [0, 1]"
    assert np.isfinite(low).sum() > 0.8 * len(low), "few quantities can be negative"
    state, rng = game.new_state(seed=2), Rng(2)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        tensor = observation_tensor(game, state.view(0), 0)
        assert np.all(tensor >= low) and np.all(tensor <= high)


def test_the_examples_run() -> None:
    """Each Python example of docs/interop.md, as a researcher would paste it (the searches with
    fewer simulations and the training with fewer steps, to keep the test short; the masked-PPO
    example only where the optional rl extra is installed)."""
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 5
    try:
        import sb3_contrib  # noqa: F401 - the masked-PPO example needs the optional rl extra
    except ImportError:
        blocks = [block for block in blocks if "sb3_contrib" not in block]
        assert len(blocks) == 3  # the masked-PPO and self-play examples need it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for block in blocks:
            shorter = block.replace(", 50,", ", 4,").replace("n_steps=256", "n_steps=32").replace("2_048", "32")
            shorter = shorter.replace("total_timesteps=1_024", "total_timesteps=32")
            exec(compile(shorter, str(DOC), "exec"), {})


def test_encoders_live_in_their_game_packages_and_use_the_standard_library_only() -> None:
    import ast

    for name, cls in parlour.game_classes().items():
        if not cls.__module__.startswith("parlour.games."):
            continue
        path = Path(__file__).resolve().parents[2] / "src" / "parlour" / "games" / name / "encoder.py"
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module if node.module.startswith("parlour") else node.module.split(".")[0])
        outside = {module for module in imported if not module.startswith("parlour")}
        assert outside <= set(sys.stdlib_module_names) | {"__future__"}, (name, outside)
        assert "numpy" not in imported and "parlour.interop.encoding" not in imported
