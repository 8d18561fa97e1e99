# Sourced by `make test`: start Debian's PostgreSQL with a test database, and export
# PARLOUR_TEST_POSTGRES_URL so that the server's tests run against it as well as SQLite.
export DEBIAN_FRONTEND=noninteractive
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi
pg_version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | awk -v v="$pg_version" '$1 == v && $2 == "main" { found = 1 } END { exit !found }'; then
  pg_createcluster "$pg_version" main >/dev/null
fi
pg_port=$(pg_lsclusters -h | awk -v v="$pg_version" '$1 == v && $2 == "main" { print $3 }')
pg_ctlcluster "$pg_version" main start 2>/dev/null || true  # "already running" is fine
for _ in $(seq 60); do
  pg_isready -q -h 127.0.0.1 -p "$pg_port" && break
  sleep 1
done
pg_isready -h 127.0.0.1 -p "$pg_port"
runuser -u postgres -- psql -q -p "$pg_port" -v ON_ERROR_STOP=1 <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'parlour') THEN
    CREATE ROLE parlour LOGIN PASSWORD 'parlour';
  END IF;
END $$;
SELECT 'CREATE DATABASE parlour_test OWNER parlour'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'parlour_test') \gexec
SQL
export PARLOUR_TEST_POSTGRES_URL="postgresql://parlour:parlour@127.0.0.1:${pg_port}/parlour_test"
