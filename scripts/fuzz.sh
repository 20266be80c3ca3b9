#!/usr/bin/env bash
# Runs the cargo-fuzz targets in fuzz/: the served protocol loops (serve_protocols) and the
# record readers (read_records), each for a while, from a seed corpus made here (protocol
# sessions, and mutated record files from fuzz/mutate-records.py).
#
#   scripts/fuzz.sh [--time SECONDS] [TARGET...]      (default: 300 s each, every target)
#
# Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). Crashes are kept
# in fuzz/artifacts/TARGET/; `cargo +nightly fuzz run TARGET ARTIFACT` replays one.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

time=300
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --time) time="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(serve_protocols read_records)

command -v cargo-fuzz >/dev/null || { echo "cargo-fuzz is missing: cargo install cargo-fuzz" >&2; exit 1; }
rustup run nightly rustc --version >/dev/null 2>&1 || { echo "a nightly toolchain is missing: rustup toolchain install nightly" >&2; exit 1; }

seed_protocols() {
  local dir=corpus/serve_protocols n=0
  mkdir -p "$dir"
  # The first byte picks the protocol: 0 Gomocup, 1 SAU, 2 UCI, 3 UCCI, 4 uci-fsf.
  while IFS='|' read -r pick session; do
    printf "\\x0$pick$session" > "$dir/seed-$n"
    n=$((n + 1))
  done <<'SESSIONS'
0|START 3\nBEGIN\nTURN 1,1\nTAKEBACK 1,1\nBOARD\n0,0,1\n2,2,2\nDONE\nINFO timeout_turn 100\nYXSTOP\nABOUT\nRESTART\nEND\n
0|START 3\nINFO time_left 5000\nBOARD\n1,1,2\n0,0,2\n0,1,2\nDONE\nTAKEBACK 0,0\nSWAP2BOARD\nDONE\n
1|name?\nnew black\nmove BB\nmove AC\nend\nnew white\nmove CC\nerror\nquit\n
2|uci\nisready\nposition startpos moves a1 b2\ngo depth 2\nposition fen 3/1x1/3 w\ngo infinite\nstop\nucinewgame\ngo ponder\nponderhit\nsetoption name Hash value 1\nquit\n
3|ucci\nposition startpos\nbanmoves a1\ngo time 100 increment 5 opptime 100\ngo depth 2 ponder\nstop\nquit\n
4|uci\nsetoption name UCI_Variant value xiangqi\nposition startpos moves h3e3 h8e8\ngo movetime 5\nposition fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\ngo depth 1\nquit\n
SESSIONS
}

for t in "${targets[@]}"; do
  case "$t" in
    serve_protocols) [ -d corpus/serve_protocols ] || seed_protocols; max_len=4096 ;;
    read_records) [ -d corpus/read_records ] || ./mutate-records.py --count 2000; max_len=65536 ;;
    *) echo "unknown target $t (serve_protocols, read_records)" >&2; exit 2 ;;
  esac
  echo "== $t for ${time}s"
  cargo +nightly fuzz run "$t" "corpus/$t" -- -max_total_time="$time" -max_len="$max_len" -print_final_stats=1
done
