#!/bin/sh
# Several `boyi serve` instances behind a load balancer: starts PostgreSQL and HAProxy on
# loopback (installing them with apt-get if absent; with BOYI_NO_INSTALL=1 a missing one is
# an error naming the install command), a fresh
# database, three instances behind the balancer (round robin, no sticky sessions), then plays
# GAMES (default 300) games of all four games through it — scripted people on both seats
# (a random legal move after up to THINK milliseconds, default 500; 0 plays as fast as the
# machine allows), the computer on white in every fifth — kills the second instance with
# SIGKILL after KILL_AFTER seconds (default 10), and checks every game in the database against
# what its seats saw. Then the same games on one instance on SQLite, for comparison.
#   scripts/cluster-test.sh [games] [kill-after-seconds] [think-ms]
set -eu
cd "$(dirname "$0")/.."
games=${1:-300}
kill_after=${2:-10}
think=${3:-500}
export CLUSTER_TEST_VERBOSE=1
need() {
    if ! command -v "$1" >/dev/null 2>&1 && [ ! -x "/usr/sbin/$1" ]; then
        if [ "${BOYI_NO_INSTALL:-0}" = 1 ]; then
            echo "cluster test: $1 is missing; install it with: sudo apt-get install -y $2" >&2
            exit 1
        fi
        sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y "$2"
    fi
}
need haproxy haproxy
need pg_ctlcluster postgresql
# The PostgreSQL server: Debian's cluster, started if it is not running.
as_postgres() { if [ "$(id -u)" = 0 ]; then su postgres -c "$1"; else sudo -u postgres sh -c "$1"; fi; }
if ! as_postgres "psql -qAtc 'SELECT 1'" >/dev/null 2>&1; then
    if [ "${BOYI_NO_INSTALL:-0}" = 1 ]; then
        echo "cluster test: PostgreSQL is not running; start it with: sudo service postgresql start" >&2
        exit 1
    fi
    sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo service postgresql start
fi
db=boyi_cluster_test
as_postgres "psql -qc \"DO \\\$\\\$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'boyi') THEN CREATE ROLE boyi LOGIN PASSWORD 'boyi'; END IF; END\\\$\\\$\""
as_postgres "dropdb --if-exists $db && createdb -O boyi $db"
url="postgres://boyi:boyi@localhost/$db"

# BOYI_BIN_DIR: where `boyi` and `examples/cluster_test` are built already (the slow-tier
# test); otherwise they are built here.
bin=${BOYI_BIN_DIR:-./target/debug}
if [ -z "${BOYI_BIN_DIR:-}" ]; then
    cargo build --profile test -p boyi
    cargo build --profile test -p boyi-server --example cluster_test
fi
dir=$(mktemp -d)
base=$((20000 + $$ % 1000 * 5))
pids=""
cleanup() { kill $pids 2>/dev/null || true; [ -z "${BOYI_KEEP_LOGS:-}" ] || cp "$dir"/*.log "$BOYI_KEEP_LOGS"; rm -rf "$dir"; }
trap cleanup EXIT
limits="--max-connections-per-ip 10000 --connects-per-minute 1000000 --messages-per-second 10000 --message-burst 10000 --computer-seats 1000 --computer-seats-per-connection 1000"
for i in 1 2 3; do
    # shellcheck disable=SC2086
    "$bin/boyi" serve --addr 127.0.0.1:$((base + i)) --db "$url" $limits \
        --trusted-proxy 127.0.0.1 2>"$dir/instance$i.log" &
    pids="$pids $!"
    eval "pid$i=$!"
done
cat >"$dir/haproxy.cfg" <<EOF
global
    maxconn 4000
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    option forwardfor
frontend boyi
    bind 127.0.0.1:$base
    default_backend instances
backend instances
    balance roundrobin
    option httpchk GET /api/meta
    default-server check inter 500ms fall 2 rise 2
    server one 127.0.0.1:$((base + 1))
    server two 127.0.0.1:$((base + 2))
    server three 127.0.0.1:$((base + 3))
EOF
haproxy=$(command -v haproxy || echo /usr/sbin/haproxy)
"$haproxy" -f "$dir/haproxy.cfg" -db >"$dir/haproxy.log" 2>&1 &
pids="$pids $!"
sleep 2
echo "three instances on PostgreSQL behind HAProxy (127.0.0.1:$base); killing instance two after ${kill_after}s"
# shellcheck disable=SC2154
"$bin/examples/cluster_test" 127.0.0.1:$base "$url" "$games" "$think" "$pid2" "$kill_after"
kill $pids 2>/dev/null || true
pids=""

echo "one instance on SQLite, for comparison"
"$bin/boyi" serve --addr 127.0.0.1:$((base + 4)) --db "$dir/one.sqlite" $limits \
    2>"$dir/sqlite.log" &
pids="$!"
sleep 1
"$bin/examples/cluster_test" 127.0.0.1:$((base + 4)) "$dir/one.sqlite" "$games" "$think"
