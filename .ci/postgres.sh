# Sourced by `make test`: start Debian's PostgreSQL with a test database, and export
# PARLOUR_TEST_POSTGRES_URL so that the server's tests run against it as well as SQLite.
# Every step that matters returns non-zero on failure, whatever the caller's `set -e`.
parlour_start_postgres() {
  export DEBIAN_FRONTEND=noninteractive
  if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
    apt-get update -qq || return 1
    apt-get install -y -qq postgresql >/dev/null || return 1
  fi
  local version port
  version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" { found = 1 } END { exit !found }'; then
    pg_createcluster "$version" main >/dev/null || return 1
  fi
  port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" { print $3 }')
  pg_ctlcluster "$version" main start >/dev/null 2>&1 || true  # "already running" is fine
  for _ in $(seq 60); do
    pg_isready -q -h 127.0.0.1 -p "$port" && break
    sleep 1
  done
  pg_isready -q -h 127.0.0.1 -p "$port" || return 1
  runuser -u postgres -- psql -q -p "$port" -v ON_ERROR_STOP=1 <<'SQL' || return 1
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'parlour') THEN
    CREATE ROLE parlour LOGIN PASSWORD 'parlour';
  END IF;
END $$;
SELECT 'CREATE DATABASE parlour_test OWNER parlour'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'parlour_test') \gexec
SQL
  export PARLOUR_TEST_POSTGRES_URL="postgresql://parlour:parlour@127.0.0.1:${port}/parlour_test"
}
parlour_start_postgres || { echo "error: PostgreSQL for the server's tests could not be started" >&2; return 1; }
