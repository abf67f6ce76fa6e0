#!/usr/bin/env bash
# The README's first command on the tree as it is (CI: a clean clone, before `npm test` compiles or
# builds anything): `npm start` must build, seed and serve on its own, print the demo logins, serve
# the PWA and accept a demo login. The store is a temporary folder, so nothing is left behind.
set -euo pipefail
cd "$(dirname "$0")/.."
port=${SMOKE_PORT:-8799}
data=$(mktemp -d)
log=$(mktemp)
PORT=$port CASTAWAY_DATA_DIR="$data/pg" setsid npm start >"$log" 2>&1 &
pid=$!
stop() {
  # setsid made npm the leader of its own process group: stop npm, its shell and the server.
  kill -TERM -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  rm -rf "$data" "$log"
}
trap stop EXIT

for _ in $(seq 1 240); do
  grep -q 'newbie@example.com' "$log" && break
  kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "npm start exited before serving"; exit 1; }
  sleep 1
done
grep -q 'newbie@example.com' "$log" || { cat "$log"; echo "npm start printed no demo logins in 240 s"; exit 1; }
grep -E 'Castaway Studio on|demo@example.com' "$log"

page=$(curl -fsS "http://127.0.0.1:$port/")
grep -q 'id="root"' <<<"$page" || { echo "GET / is not the PWA's page"; exit 1; }
status=$(curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' \
  -d '{"Email":"demo@example.com","Password":"castaway-demo"}' "http://127.0.0.1:$port/api/internal/session/login")
[ "$status" = 200 ] || { echo "demo login answered $status"; exit 1; }
ready=$(curl -s "http://127.0.0.1:$port/readyz")
grep -q '"Status":"ready"' <<<"$ready" || { echo "GET /readyz: $ready"; exit 1; }
# The request log: one JSON line per request, with its id.
grep -q '"route":"/api/internal/session/login".*"msg":"request"' "$log" || { echo "npm start logged no JSON line for the sign-in"; exit 1; }
echo "npm start: PWA served, demo login accepted, ready and logging on port $port"
