#!/usr/bin/env bash
# Starts Debian's PostgreSQL (installed by .ci/run) and prints a URL for the test database.
# Tests create their own databases from it, so the role may CREATE DATABASE.
set -euo pipefail
ver=$(ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -n 1)
if [ -z "$ver" ]; then
  echo "PostgreSQL is not installed: apt-get install -y postgresql (see .ci/run)" >&2
  exit 1
fi
if ! pg_lsclusters -h 2>/dev/null | grep -q .; then
  pg_createcluster "$ver" main >/dev/null
fi
cluster=$(pg_lsclusters -h | head -n 1 | awk '{print $1" "$2}')
port=$(pg_lsclusters -h | head -n 1 | awk '{print $3}')
pg_ctlcluster $cluster start >/dev/null 2>&1 || true
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p "$port" && break
  sleep 0.5
done
su postgres -c "psql -q -p $port -c \"ALTER USER postgres PASSWORD 'castaway'\"" >/dev/null
su postgres -c "psql -p $port -tAc \"SELECT 1 FROM pg_database WHERE datname='castaway_test'\"" | grep -q 1 \
  || su postgres -c "psql -q -p $port -c 'CREATE DATABASE castaway_test'" >/dev/null
echo "postgres://postgres:castaway@127.0.0.1:$port/castaway_test"
