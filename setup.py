"""parlour's build: the metadata is in pyproject.toml; this file adds the compiled modules.

Building a wheel (`python -m build`, `pip wheel .`, `pip install .`) or running `setup.py build`
compiles the modules src/parlour/native.py names with mypyc into C extensions beside the .py
files. An editable install (`pip install -e .`) never compiles, so a developer's checkout stays
interpreted and an edited .py file is what runs.

PARLOUR_COMPILE chooses: `auto` (the default) compiles when a C compiler is found and otherwise
builds pure Python with a one-line notice; `1` requires the compiled build (a missing compiler or a
failed compile is an error); `0` builds pure Python.
"""

from __future__ import annotations

import os
import runpy
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent
BUILDING = {"bdist_wheel", "build", "build_ext", "install"}
"""The setup commands that produce installable modules; metadata-only ones never compile."""
EDITABLE = {"editable_wheel", "develop"}
MODES = ("auto", "0", "1")


def compile_mode() -> str:
    mode = os.environ.get("PARLOUR_COMPILE", "auto").strip().lower() or "auto"
    if mode not in MODES:
        sys.exit(f"PARLOUR_COMPILE must be one of {', '.join(MODES)}, got {mode!r}")
    return mode


def notice(text: str) -> None:
    print(f"parlour: {text}", file=sys.stderr, flush=True)


def compiler_found() -> bool:
    command = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(command)
    return bool(words) and shutil.which(words[0]) is not None


def extensions(mode: str) -> list[Any]:
    """The mypyc extensions to build, or none (pure Python) when they cannot or must not be."""
    commands = set(sys.argv[1:])
    if mode == "0" or commands & EDITABLE or not commands & BUILDING:
        return []
    if not compiler_found():
        if mode == "1":
            sys.exit("parlour: PARLOUR_COMPILE=1 but no C compiler was found (set CC or install gcc)")
        notice("no C compiler found, building pure Python (slower; install gcc for the compiled build)")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        if mode == "1":
            raise
        notice("mypyc (part of mypy) is not installed, building pure Python")
        return []
    native = runpy.run_path(str(HERE / "src" / "parlour" / "native.py"))
    sources = [path.relative_to(HERE).as_posix() for path in native["compiled_sources"](HERE / "src" / "parlour")]
    # One shared library for all modules (calls between them stay native); its C is split one
    # file per module so that `build_ext -j` compiles in parallel and an edit recompiles little.
    return list(mypycify(sources, opt_level="3", multi_file=True, target_dir="build/mypyc-c"))


class OptionalBuildExt(build_ext):
    """Falls back to pure Python with a notice when compiling fails, unless PARLOUR_COMPILE=1."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # the compiler's own error types vary by platform
            if compile_mode() == "1" or not self.extensions:
                raise
            notice(f"compiling failed ({error}), building pure Python")
            for extension in self.extensions:  # a shim left without its shared library cannot import
                Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)
            self.extensions = []


# `make compiled` (setup.py build) and a wheel built in this checkout share one build folder, so the
# wheel reuses the compiled modules when no source changed instead of compiling them again.
BUILD_FOLDERS = {"build_lib": "build/compiled", "build_temp": "build/compiled-temp"}

setup(
    ext_modules=extensions(compile_mode()),
    cmdclass={"build_ext": OptionalBuildExt},
    options={"build": BUILD_FOLDERS},
)
