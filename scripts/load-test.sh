#!/bin/sh
# Load test of `boyi serve`: starts an optimised server on loopback with a fresh database, plays
# GAMES (default 200) concurrent games of random moves from one client process, prints
# moves/s and p50/p99 move latency, and checks every game in the database afterwards.
# BOYI_DB=postgres://USER:PASSWORD@HOST/DB runs it on that PostgreSQL database instead of a
# fresh SQLite file (the database must exist; its games are added to what it holds).
#   scripts/load-test.sh [games] [gomoku,xiangqi]
set -eu
cd "$(dirname "$0")/.."
games=${1:-200}
kinds=${2:-gomoku,xiangqi}
# The test profile: optimised like release, without the long link-time optimisation.
# (Two commands: a target selection such as --example applies to every -p of one command.)
cargo build --profile test -p boyi
cargo build --profile test -p boyi-server --example load_test
dir=$(mktemp -d)
port=$((19000 + $$ % 1000))
db=${BOYI_DB:-$dir/boyi.sqlite}
./target/debug/boyi serve --addr 127.0.0.1:$port --db "$db" \
    --max-connections-per-ip 10000 --connects-per-minute 1000000 \
    --messages-per-second 10000 --message-burst 10000 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$dir"' EXIT
sleep 1
./target/debug/examples/load_test 127.0.0.1:$port "$db" "$games" "$kinds"
