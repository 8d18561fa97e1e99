#!/usr/bin/env bash
# Installs the Debian packages the full test suite needs when they are missing: Chromium for the
# browser tests and PostgreSQL for the server's database tests. Needs root (CI runs as root).
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
command -v fc-list >/dev/null 2>&1 || need+=(fonts-dejavu-core)
command -v npm >/dev/null 2>&1 || need+=(npm)  # the browser client's assets (package.json)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "system-deps: these Debian packages are needed and only root can install them: ${need[*]}" >&2
  exit 1
fi
echo "system-deps: installing ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
