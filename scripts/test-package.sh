#!/usr/bin/env bash
# Packaging test (`make test-package`): build parlour's wheel, install it into a fresh virtual
# environment and run it from there, far from the source tree: `parlour games`, `parlour rules` of
# every game, and a short `parlour serve` answering the rules, a board module and the client.
# The wheel must be the compiled build (every module src/parlour/native.py names a C extension)
# wherever `make compiled` found a C compiler, as build/compiled.expect records.
# Offline: the wheel is built without build isolation and installed without dependencies; the fresh
# environment borrows the dependencies from .venv's site-packages (not its editable parlour).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV_PYTHON="$PWD/.venv/bin/python"
EXPECT_COMPILED="$(cat build/compiled.expect 2>/dev/null || echo 1)"
WORK="$(mktemp -d)"
SERVER=""
cleanup() {
  if [[ -n "$SERVER" ]]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "test-package: building the wheel"
"$VENV_PYTHON" -m pip wheel --quiet --no-deps --no-build-isolation --wheel-dir "$WORK/dist" .
WHEEL="$(ls "$WORK"/dist/parlour-*.whl)"
"$VENV_PYTHON" scripts/check_wheel.py "$WHEEL"

echo "test-package: installing it into a fresh virtual environment"
python3 -m venv --without-pip "$WORK/venv"
FRESH="$WORK/venv/bin"
purelib() { "$1" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'; }
purelib "$VENV_PYTHON" > "$(purelib "$FRESH/python")/parlour-dependencies.pth"
"$VENV_PYTHON" -m pip --python "$FRESH/python" install --quiet --no-deps "$WHEEL"

cd "$WORK"  # nothing of the checkout on the path from here on
"$FRESH/python" - "$WORK/venv" <<'PY'
import sys
import parlour
assert parlour.__file__.startswith(sys.argv[1]), f"parlour imported from {parlour.__file__}, not the wheel"
PY
"$FRESH/python" - "$EXPECT_COMPILED" <<'PY'
import sys
from parlour import native
names = native.compiled_module_names()
extensions = [name for name in names if native.is_extension(name)]
if sys.argv[1] == "1":
    missing = sorted(set(names) - set(extensions))
    assert names and not missing, f"the wheel's modules {missing} are not compiled"
    print(f"test-package: the wheel is the compiled build ({len(extensions)} modules are C extensions)")
else:
    assert not extensions, f"a pure-Python wheel was expected, but {extensions} are compiled"
    print("test-package: the wheel is pure Python (no C compiler was found)")
PY
"$FRESH/parlour" games > games.txt
GAMES="$("$FRESH/python" -c 'from parlour.engine.registry import game_classes; print(*game_classes())')"
for game in $GAMES; do
  "$FRESH/parlour" rules "$game" > "rules-$game.txt"
  [[ -s "rules-$game.txt" ]] || { echo "parlour rules $game printed nothing" >&2; exit 1; }
done
echo "test-package: parlour games and parlour rules of $GAMES ran from the wheel"

PORT="$("$FRESH/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$FRESH/parlour" serve --port "$PORT" --db "$WORK/parlour.sqlite" --log-level warning > serve.log 2>&1 &
SERVER=$!
"$FRESH/python" - "$PORT" "$SERVER" $GAMES <<'PY'
import json
import sys
import time
import urllib.error
import urllib.request

port, server, games = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
base = f"http://127.0.0.1:{port}"


def get(path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(base + path, timeout=5) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


deadline = time.monotonic() + 30
while True:  # until the server answers, or it died, or 30 s passed
    try:
        status, body = get("/api/games")
        break
    except OSError:
        if time.monotonic() > deadline or not running(server):
            sys.exit("parlour serve did not start; see serve.log")
        time.sleep(0.2)
assert status == 200 and {game["name"] for game in json.loads(body)} == set(games), body
for game in games:
    status, body = get(f"/api/games/{game}/rules")
    assert status == 200 and body.startswith("#"), (game, status, body[:200])
status, body = get("/games/hatflings/board.js")
assert status == 200 and "export default" in body, (status, body[:200])
status, body = get("/")
assert status == 200 and "/js/app.js" in body, (status, body[:200])
print(f"test-package: parlour serve answered the games, the rules of {len(games)} games, a board and the client")
PY
