#!/usr/bin/env python3
"""Boyi and a UCI Xiangqi engine side by side on the positions of `boyi bench xiangqi`.

For each position (read from crates/engines/src/xiangqi/mod.rs, the bench's own list) and each
time per move, runs `boyi analyze xiangqi --position FEN --movetime MS` and the peer's
`go movetime MS` (UCI, `UCI_Variant xiangqi`, one thread, its defaults otherwise), and prints
the depth, nodes and nodes per second each reported last, as a Markdown table.

    scripts/xiangqi-side-by-side.py --boyi target/release/boyi --peer /usr/games/fairy-stockfish \
        [--times 1000,2000,5000]

Run on a quiet machine (the load average is printed before and after); one engine runs at a
time.
"""

import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def bench_positions():
    src = open(os.path.join(ROOT, "crates/engines/src/xiangqi/mod.rs"), encoding="utf-8").read()
    block = src[src.index("const BENCH:"):]
    block = block[:block.index("];")]
    return re.findall(r'"([^"]+ [wb] [^"]*)"', block)


def last_info(lines):
    depth = nodes = nps = None
    for line in lines:
        words = line.split()
        if not words or words[0] != "info" or "nodes" not in words:
            continue
        fields = {words[i]: words[i + 1] for i in range(len(words) - 1)}
        if "depth" in fields:
            depth = int(fields["depth"])
        nodes = int(fields["nodes"])
        if "nps" in fields:
            nps = int(fields["nps"])
    return depth, nodes, nps


def boyi(path, fen, ms):
    out = subprocess.run(
        [path, "analyze", "xiangqi", "--position", fen, "--movetime", str(ms)],
        capture_output=True, text=True, check=True,
    )
    return last_info(out.stdout.splitlines() + out.stderr.splitlines())


def peer(path, fen, ms):
    p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        seen = []
        for line in p.stdout:
            seen.append(line.strip())
            if line.startswith(prefix):
                return seen
        raise RuntimeError(f"{path} ended before {prefix!r}")

    send("uci")
    until("uciok")
    send("setoption name UCI_Variant value xiangqi")
    send("setoption name Threads value 1")
    send("isready")
    until("readyok")
    send(f"position fen {fen}")
    send(f"go movetime {ms}")
    lines = until("bestmove")
    send("quit")
    p.wait()
    return last_info(lines)


def load():
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boyi", default=os.path.join(ROOT, "target/release/boyi"))
    ap.add_argument("--peer", required=True, help="a UCI engine that plays Xiangqi")
    ap.add_argument("--times", default="1000,2000,5000", help="milliseconds per move")
    args = ap.parse_args()
    times = [int(t) for t in args.times.split(",")]
    print(f"load average before: {load()}", file=sys.stderr)
    print("| position | ms | Boyi depth | Boyi nodes | Boyi nps | peer depth | peer nodes | peer nps |")
    print("|---|---|---|---|---|---|---|---|")
    totals = {}
    for i, fen in enumerate(bench_positions(), 1):
        for ms in times:
            b = boyi(args.boyi, fen, ms)
            f = peer(args.peer, fen, ms)
            cells = [str(x) if x is not None else "?" for x in (*b, *f)]
            print(f"| {i} | {ms} | " + " | ".join(cells) + " |", flush=True)
            t = totals.setdefault(ms, [0, 0, 0, 0, 0])
            t[0] += 1
            t[1] += b[0] or 0
            t[2] += b[1] or 0
            t[3] += f[0] or 0
            t[4] += f[1] or 0
    for ms, (n, bd, bn, fd, fn) in totals.items():
        print(f"| mean | {ms} | {bd / n:.1f} | {bn // n} | {bn * 1000 // (n * ms)} | "
              f"{fd / n:.1f} | {fn // n} | {fn * 1000 // (n * ms)} |")
    print(f"load average after: {load()}", file=sys.stderr)


if __name__ == "__main__":
    main()
