#!/usr/bin/env python3
"""Collects mate-in-1..4 positions from Boyi game records, verified by Fairy-Stockfish.

Usage: xiangqi-mate-suite.py RECORD_DIR... > positions.txt
The records (any format Boyi reads) are read through `boyi record dump`; BOYI names the
binary (default `boyi` on the path).
Each output line: `<fen>;<mate in N>;<Fairy-Stockfish's first move>` (ranks 0-9).
Positions come from the last plies of games that ended in checkmate; Fairy-Stockfish must
report `mate N` (1 <= N <= 4) for the side to move at depth 16.
"""
import json
import os
import re
import subprocess
import sys

FSF = os.environ.get("FAIRY_STOCKFISH", "fairy-stockfish")
BOYI = os.environ.get("BOYI", "boyi")


def records(directory):
    """The records of `directory` as `boyi record dump` gives them."""
    done = subprocess.run([BOYI, "record", "dump", directory], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{BOYI} record dump {directory}: {done.stderr.strip()}")
    return [json.loads(line) for line in done.stdout.splitlines()]


def to_fsf(mv):
    return f"{mv[0]}{int(mv[1]) + 1}{mv[2]}{int(mv[3]) + 1}"


def from_fsf(mv):
    m = re.fullmatch(r"([a-i])(\d+)([a-i])(\d+)", mv)
    return f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"


class Engine:
    def __init__(self):
        self.p = subprocess.Popen([FSF], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name UCI_Variant value xiangqi")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        lines = []
        while True:
            line = self.p.stdout.readline().strip()
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def fen(self, start, moves):
        self.send(f"position fen {start} moves {' '.join(to_fsf(m) for m in moves)}")
        self.send("d")
        for line in self.wait("Checkers"):
            if line.startswith("Fen: "):
                return line[5:]

    def mate(self, fen):
        self.send("ucinewgame")
        self.send(f"position fen {fen}")
        self.send("go depth 16")
        lines = self.wait("bestmove")
        mate = None
        for line in lines:
            m = re.search(r" score mate (-?\d+)", line)
            if m and " upperbound" not in line and " lowerbound" not in line:
                mate = int(m[1])
        best = lines[-1].split()[1]
        return mate, best


def main():
    eng = Engine()
    seen = set()
    for d in sys.argv[1:]:
        for rec in records(d):
            result = rec["result"]
            if rec["game"] != "xiangqi" or result is None or result["reason"] != "checkmate":
                continue
            moves = [m["text"] for m in rec["moves"]]
            for back in range(1, 9, 2):
                if back > len(moves):
                    break
                fen = eng.fen(rec["start"], moves[: len(moves) - back])
                key = " ".join(fen.split()[:2])
                if key in seen:
                    continue
                seen.add(key)
                mate, best = eng.mate(fen)
                if mate is not None and 1 <= mate <= 4:
                    print(f"{fen};{mate};{from_fsf(best)}", flush=True)


if __name__ == "__main__":
    main()
