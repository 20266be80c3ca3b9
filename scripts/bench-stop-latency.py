#!/usr/bin/env python3
"""How soon a served engine answers `stop`, `isready`, `YXSTOP` and `quit` during a search.

For each case a `boyi engine` process starts a search far longer than the run (`go infinite`,
a ten-minute Gomocup turn, a SAU search capped by a long --movetime), waits until the search
is under way (its first thinking line, then --settle ms), sends lines that must wait for the
move (a `position`, `ucinewgame`, `INFO`) and then the urgent line, and times the answer:
`readyok`, `bestmove`, the Gomocup move, or the process's exit. The goal is under 50 ms.

    scripts/bench-stop-latency.py [--boyi target/release/boyi] [--runs 20] [--settle 300]

Figures need a quiet machine: the load average is printed before and after.
"""

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
import queue

CASES = [
    # (name, args, set-up, waiting lines, urgent line, answer prefix or None for exit)
    ("uci stop", ["xiangqi", "--protocol", "uci"],
     "uci\nposition startpos\ngo infinite\n", "position startpos moves h2e2\nucinewgame\n",
     "stop\n", "bestmove"),
    ("uci isready", ["xiangqi", "--protocol", "uci"],
     "uci\nposition startpos\ngo infinite\n", "position startpos moves h2e2\n",
     "isready\n", "readyok"),
    ("uci quit", ["xiangqi", "--protocol", "uci"],
     "uci\nposition startpos\ngo infinite\n", "ucinewgame\n", "quit\n", None),
    ("ucci stop", ["xiangqi", "--protocol", "ucci"],
     "ucci\nposition startpos\ngo depth 1000\n", "position startpos moves h2e2\n",
     "stop\n", "bestmove"),
    ("gomocup YXSTOP", ["gomoku", "--protocol", "gomocup"],
     "START 15\nINFO timeout_turn 600000\nINFO time_left 600000\nBOARD\n7,7,2\n8,8,1\n6,8,2\nDONE\n",
     "INFO time_left 590000\n", "YXSTOP\n", "move"),
    ("gomocup END", ["gomoku", "--protocol", "gomocup"],
     "START 15\nINFO timeout_turn 600000\nBOARD\n7,7,2\n8,8,1\n6,8,2\nDONE\n",
     "INFO time_left 590000\n", "END\n", None),
    ("sau quit", ["connect6", "--protocol", "sau", "--movetime", "600000"],
     "new white\nmove JJ@@\n", "name?\n", "quit\n", None),
]


def is_gomocup_move(line: str) -> bool:
    parts = line.split(",")
    return len(parts) == 2 and all(p.isdigit() for p in parts)


def answered(line: str, prefix: str) -> bool:
    if prefix == "move":
        return is_gomocup_move(line)
    return line.startswith(prefix)


def thinking(line: str) -> bool:
    return line.startswith("info depth") or line.startswith("MESSAGE")


def one_run(boyi, case, settle):
    name, args, setup, waiting, urgent, prefix = case
    p = subprocess.Popen([boyi, "engine", *args], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    lines = queue.Queue()

    def read():
        for raw in p.stdout:
            lines.put((time.perf_counter(), raw.decode("utf-8", "replace").strip()))
        lines.put((time.perf_counter(), None))

    threading.Thread(target=read, daemon=True).start()
    p.stdin.write(setup.encode())
    p.stdin.flush()
    # SAU prints no thinking: the search is under way once the setup is read.
    if not name.startswith("sau"):
        while True:
            _, line = lines.get(timeout=60)
            if line is None:
                raise RuntimeError(f"{name}: the engine exited during set-up")
            if thinking(line):
                break
    time.sleep(settle / 1000)
    p.stdin.write(waiting.encode())
    p.stdin.flush()
    sent = time.perf_counter()
    p.stdin.write(urgent.encode())
    p.stdin.flush()
    try:
        if prefix is None:
            p.wait(timeout=60)
            got = time.perf_counter()
        else:
            while True:
                got, line = lines.get(timeout=60)
                if line is None:
                    raise RuntimeError(f"{name}: the engine exited before answering")
                if answered(line, prefix):
                    break
    finally:
        try:
            p.stdin.close()
        except BrokenPipeError:
            pass
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
    return (got - sent) * 1000


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boyi", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "boyi"))
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--settle", type=int, default=300, help="ms of search before the urgent line")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print(f"{'case':16} {'runs':>4} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    worst = 0.0
    for case in CASES:
        times = sorted(one_run(args.boyi, case, args.settle) for _ in range(args.runs))
        p95 = times[min(len(times) - 1, int(round(0.95 * (len(times) - 1))))]
        worst = max(worst, times[-1])
        print(f"{case[0]:16} {len(times):>4} {statistics.median(times):>10.1f} {p95:>8.1f} {times[-1]:>8.1f}")
    print(f"load average after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    print("goal < 50 ms:", "met" if worst < 50 else f"missed (worst {worst:.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
