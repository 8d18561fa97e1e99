"""The optional `rl` extra can sit on a CPU build of PyTorch: it names no CUDA package, and a CPU
build installed first satisfies every bound, so pip keeps it rather than fetching a CUDA build."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
CPU_TORCH = "2.13.0+cpu"  # the build docs/interop.md installs


def rl_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [Requirement(text) for text in project["project"]["optional-dependencies"]["rl"]]


def test_the_rl_extra_names_no_cuda_package() -> None:
    names = {requirement.name.lower() for requirement in rl_requirements()}
    assert {"sb3-contrib", "stable-baselines3", "torch"} <= names
    assert not [name for name in names if name.startswith("nvidia") or "cuda" in name]


def test_a_cpu_build_of_pytorch_satisfies_the_rl_extra() -> None:
    torch = next(requirement for requirement in rl_requirements() if requirement.name == "torch")
    assert torch.specifier.contains(CPU_TORCH, prereleases=False)
    assert not torch.extras and torch.url is None


def test_the_docs_install_the_cpu_build_before_the_extra() -> None:
    text = (ROOT / "docs" / "interop.md").read_text(encoding="utf-8")
    baselines = text.split("## Baselines", 1)[1]
    assert baselines.index("pip install torch==2.13.0") < baselines.index("pip install -e '.[rl]'")
