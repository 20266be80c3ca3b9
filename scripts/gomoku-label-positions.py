#!/usr/bin/env python3
"""Labels positions of recorded Gomoku games with a reference Gomocup engine's judgement.

From every finished freestyle 15x15 record in the RECORD_DIRs, `--per` positions are drawn at
random (after the record's `opening` stones and at least four stones, before the last move).
Each is given to the reference engine for `--ms` (`boyi analyze --player
'cmd:"ENGINE"@gomocup'`, which reads Rapfi's `Eval` from its `MESSAGE` lines), and its value
becomes the side to move's expected score:
a proven win (`M9`) 0.99, a proven loss (`-M9`) 0.01, and a number v the logistic
1 / (1 + e^(-v/S)), with the scale S the one that predicts the games' results best. With
`--result-weight W` the game's result (1, 1/2, 0 for the side to move) is mixed in.

Writes one line per position, `moves score eval result`, for `gomoku_tune --positions`,
which keeps the quiet positions.

The records are read through `boyi record dump` (`--boyi BIN`, default `boyi` on the path),
so any record format Boyi reads will do.

Usage: gomoku-label-positions.py ENGINE OUT RECORD_DIR... [--ms 60] [--per 3] [--seed 1]
       [--jobs 2] [--result-weight 0] [--boyi BIN]
"""
import argparse
import math
import os
import random
import sys
from concurrent.futures import ThreadPoolExecutor

from boyi_tools import analyze, engine_spec, plies_value, records


def draw(boyi_bin, dirs, per, rng):
    """(moves, result for the side to move) of positions drawn from the records."""
    positions = []
    for d in dirs:
        for rec in records(boyi_bin, d):
            if rec["game"] != "gomoku" or rec["variant"] != "freestyle" or rec["set_up"] \
                    or (rec["size"] or 15) != 15 or rec["result"] is None:
                continue
            result = rec["result"]["winner"] or "draw"
            moves = [m["text"] for m in rec["moves"]]
            opening = int(rec["tags"].get("OpeningPlies", "0"))
            first = max(opening, 4)
            plies = range(first, len(moves) - 1)
            for n in rng.sample(plies, min(per, len(plies))):
                me = "black" if n % 2 == 0 else "white"
                score = 0.5 if result == "draw" else float(result == me)
                positions.append((moves[:n], score))
    rng.shuffle(positions)
    return positions


def logistic(v, s):
    """1 / (1 + e^(-v/s)), without overflow for large |v/s|."""
    x = v / s
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def scale(labelled):
    """The S of `logistic(v, S)` with the least logistic loss against the results."""
    numbers = [(int(v), r) for _, v, r in labelled if "M" not in v]
    if not numbers:
        return 100

    def loss(s):
        total = 0.0
        for v, r in numbers:
            q = min(max(logistic(v, s), 1e-6), 1 - 1e-6)
            total -= r * math.log(q) + (1 - r) * math.log(1 - q)
        return total / len(numbers)

    return min(range(25, 2001, 25), key=loss)


def expected(value, s):
    if value.startswith("-M"):
        return 0.01
    if value.startswith("M"):
        return 0.99
    return logistic(int(value), s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("out")
    ap.add_argument("records", nargs="+")
    ap.add_argument("--boyi", default="boyi", help="the boyi binary (reads the records)")
    ap.add_argument("--ms", type=int, default=60)
    ap.add_argument("--per", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--result-weight", type=float, default=0.0)
    args = ap.parse_args()
    if not 0.0 <= args.result_weight <= 1.0:
        ap.error("--result-weight must lie between 0 and 1")
    if args.per < 1 or args.ms < 1 or args.jobs < 1:
        ap.error("--per, --ms and --jobs must be at least 1")
    if not (os.path.isfile(args.engine) and os.access(args.engine, os.X_OK)):
        ap.error(f"{args.engine}: not an executable file")
    positions = draw(args.boyi, args.records, args.per, random.Random(args.seed))
    if not positions:
        sys.exit(f"no finished freestyle 15x15 game in {' '.join(args.records)}")
    print(f"{len(positions)} positions", file=sys.stderr, flush=True)

    def label(position):
        moves, result = position
        score, _ = analyze(args.boyi, engine_spec(args.engine), moves, ms=args.ms)
        return moves, plies_value(score), result

    with ThreadPoolExecutor(args.jobs) as pool:
        labelled = list(pool.map(label, positions))
    s = scale(labelled)
    mates = sum("M" in v for _, v, _ in labelled)
    print(f"scale S {s}; {mates} of {len(labelled)} proven wins or losses", file=sys.stderr)
    w = args.result_weight
    with open(args.out, "w") as out:
        for moves, value, result in labelled:
            score = w * result + (1 - w) * expected(value, s)
            out.write(f"{','.join(moves)} {score:.4f} {value} {result:g}\n")


if __name__ == "__main__":
    main()
