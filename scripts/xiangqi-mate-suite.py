#!/usr/bin/env python3
"""Collects mate-in-1..4 positions from Boyi game records, verified by Fairy-Stockfish.

Usage: xiangqi-mate-suite.py RECORD_DIR... > positions.txt
Each output line: `<fen>;<mate in N>;<Fairy-Stockfish's first move>` (ranks 0-9).
Positions come from the last plies of games that ended in checkmate; Fairy-Stockfish must
report `mate N` (1 <= N <= 4) for the side to move at depth 16.
"""
import glob
import os
import re
import subprocess
import sys

FSF = os.environ.get("FAIRY_STOCKFISH", "fairy-stockfish")


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
        for path in sorted(glob.glob(os.path.join(d, "*.txt"))):
            rec = dict(
                line.split(" ", 1) for line in open(path).read().splitlines() if " " in line and not line.startswith("#")
            )
            if rec.get("reason") != "checkmate" or "moves" not in rec:
                continue
            moves = rec["moves"].split(",")
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
