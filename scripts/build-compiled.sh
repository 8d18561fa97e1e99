#!/usr/bin/env bash
# The compiled build (`make compiled`): the package as it installs, with the modules
# src/parlour/native.py names compiled by mypyc, in build/compiled. `make serve` and the full test
# suite put that folder first on PYTHONPATH; .venv's editable install stays interpreted.
# With a C compiler the build must compile (PARLOUR_COMPILE=1: a failed compile stops here);
# without one it is pure Python, with a one-line notice. build/compiled.expect says which
# (1 compiled, 0 interpreted), for the test that checks the build the suite runs on.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-.venv/bin/python}"
OUT=build/compiled
mkdir -p build  # a fresh clone has no build folder yet
CC_COMMAND="$("$PYTHON" -c 'import os, shlex, sysconfig; print(shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")[0])')"
if command -v "$CC_COMMAND" >/dev/null 2>&1; then MODE=1; else MODE=0; fi
start=$SECONDS
STARTED="$(mktemp)"  # the stamp gets the start's time: a file edited during the build is newer
trap 'rm -f "$STARTED"' EXIT
if [[ $MODE == 1 ]]; then
  echo "build-compiled: compiling the engine, the games' rules and the bots to C (a first build takes" \
    "2 to 6 minutes on two cores; later ones rebuild only what changed)"
fi
PARLOUR_COMPILE=$MODE "$PYTHON" setup.py --quiet build --parallel "${JOBS:-2}" >build/compiled.log 2>&1 &
BUILD=$!
trap 'rm -f "$STARTED"; kill "$BUILD" 2>/dev/null || true' EXIT  # Ctrl-C stops the build too
# Progress while it runs: mypyc first translates the modules to C (one step, no count to show),
# then the C files are compiled one by one into build/compiled-temp.
progress() {
  local written compiled
  # Neither folder exists yet early in a first build (and pipefail would stop the script).
  written=$({ find build/mypyc-c -name '*.c' -newer "$STARTED" 2>/dev/null || true; } | wc -l)
  compiled=$({ find build/compiled-temp -name '*.o' -newer "$STARTED" 2>/dev/null || true; } | wc -l)
  if [[ $written == 0 ]]; then
    echo "build-compiled: translating to C ($((SECONDS - start)) s)"
  else
    echo "build-compiled: compiling C, $compiled of $written files done ($((SECONDS - start)) s)"
  fi
}
while kill -0 "$BUILD" 2>/dev/null; do
  for _ in $(seq 15); do kill -0 "$BUILD" 2>/dev/null && sleep 1; done
  if kill -0 "$BUILD" 2>/dev/null && [[ $MODE == 1 ]]; then progress; fi
done
wait "$BUILD" \
  || { tail -40 build/compiled.log >&2; echo "compiled build failed; the whole log is build/compiled.log" >&2; exit 1; }
grep '^parlour: ' build/compiled.log >&2 || true  # the fallback's notice
# A module moved out of the compiled list, or deleted, must not leave an extension shadowing its source.
"$PYTHON" - "$OUT" "$MODE" <<'PY'
import runpy
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

out, mode = Path(sys.argv[1]), sys.argv[2]
native = runpy.run_path("src/parlour/native.py")
wanted = set(native["compiled_module_names"](Path("src/parlour"))) if mode == "1" else set()
shared = sorted(out.glob("*__mypyc.*"), key=lambda path: path.stat().st_mtime)
for path in shared[:-1]:  # a changed list of modules gets a new shared library; the old one goes
    path.unlink()
for path in (out / "parlour").rglob("*"):
    suffix = next((s for s in EXTENSION_SUFFIXES if path.name.endswith(s)), None)
    if suffix is None:
        continue
    name = ".".join(path.relative_to(out).parts)[: -len(suffix)]
    if name not in wanted:
        path.unlink()
        print(f"build-compiled: removed the stale extension of {name}", file=sys.stderr)
PY
echo "$MODE" > "$OUT.expect"
touch -r "$STARTED" "$OUT.expect"
echo "build-compiled: $OUT ready ($([[ $MODE == 1 ]] && echo compiled || echo pure Python), $((SECONDS - start)) s)"
