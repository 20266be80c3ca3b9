#!/usr/bin/env python3
"""How a Boyi player's moves in the quiet opening compare with a reference Gomocup engine's.

The reference engine plays each of the first `--count` openings of `--openings` on against
itself (`--line-ms` a move) to `--plies` stones. At every position of those lines from the
opening's last stone on, the Boyi player (`boyi analyze --player SPEC --movetime MS`) chooses
a move; where it differs from the engine's, the engine judges the position after each of the
two moves (`--judge-ms`, through `boyi analyze --player cmd:"ENGINE"@gomocup`). A value is
turned to the mover's side and kept within ±1999; a proven win counts +2000, a proven loss
-2000, and an answer with no `Eval` line a win for the side to move (Rapfi answers a found
win at once).

With `--boyi-plays first` (or `second`) the Boyi player plays the side to move after the
opening (or the other side) in the lines, at `--line-ms` too, and only its own turns are
compared, with the engine asked for its move there.

Prints one line per differing position, then the share of the engine's moves the player
chose by ply, how much worse the engine judged the player's moves where they differed, and
how often one of the two moves was proven lost or won. 15x15 freestyle only (the engine is
told nothing about the rule).

Usage: gomoku-opening-agreement.py ENGINE BOYI [--spec boyi:strong] [--openings FILE]
       [--count 50] [--plies 12] [--line-ms 200] [--ms 200] [--judge-ms 500] [--jobs 2]
       [--boyi-plays first|second]
"""
import argparse
import collections
import os
import re
import statistics
import sys
from concurrent.futures import ThreadPoolExecutor

from boyi_tools import engine_spec
import boyi_tools

HERE = os.path.dirname(os.path.abspath(__file__))

MATE = 2000
EVEN = 150
WORSE = 100


def openings(path, count):
    """The first `count` openings of a file of comma-separated moves (`#` starts a comment)."""
    try:
        with open(path) as f:
            lines = [l.split("#")[0].strip() for l in f]
    except OSError as e:
        sys.exit(f"cannot read the openings {path}: {e.strerror}")
    found = [l.split(",") for l in lines if l]
    if not found:
        sys.exit(f"no openings in {path}")
    for moves in found:
        bad = [m for m in moves if not re.fullmatch(r"[a-o](1[0-5]|[1-9])", m)]
        if bad or len(set(moves)) < len(moves):
            sys.exit(f"{path}: not an opening on a 15x15 board: {','.join(moves)}")
    return found[:count]


def judge(args, moves, ms):
    """The reference engine's (score text, move) after `moves`."""
    return analyze(args.boyi, engine_spec(args.engine), moves, ms)


def analyze(boyi, spec, moves, ms):
    return boyi_tools.analyze(boyi, spec, moves, ms=ms)


def mover_value(args, moves, ms):
    """The engine's value of `moves` for the side that made the last move. No value at all
    is a win found for the side to move (Rapfi answers one at once, without a line)."""
    value, _ = judge(args, moves, ms)
    if value == "none" or (value.startswith("mate ") and not value.startswith("mate -")):
        return -MATE
    if value.startswith("mate -"):
        return MATE
    return max(1 - MATE, min(MATE - 1, -int(value)))


def mate(value):
    """1 for a proven win, -1 for a proven loss, else 0."""
    return (value >= MATE) - (value <= -MATE)


def boyi_turn(args, opening, moves):
    """Whether the Boyi player is to move after `moves` in lines where it plays a side."""
    first = (len(moves) - len(opening)) % 2 == 0
    return args.boyi_plays is not None and first == (args.boyi_plays == "first")


def line(args, opening):
    """The opening played on to `--plies` stones, by the engine and, with `--boyi-plays`,
    the Boyi player."""
    moves = list(opening)
    while len(moves) < args.plies:
        if boyi_turn(args, opening, moves):
            _, reply = analyze(args.boyi, args.spec, moves, args.line_ms)
        else:
            _, reply = judge(args, moves, args.line_ms)
        if reply is None or reply in moves:
            sys.exit(f"no new move after {','.join(moves)}")
        moves.append(reply)
    return moves


def compare(args, position):
    """(ply, the engine's move, the player's, the engine's value after each or None)."""
    moves, preferred = position
    if preferred is None:
        _, preferred = judge(args, moves, args.line_ms)
        if preferred is None:
            sys.exit(f"{args.engine} gave no move after {','.join(moves)}")
    _, chosen = analyze(args.boyi, args.spec, moves, args.ms)
    if chosen == preferred:
        return len(moves), preferred, chosen, None
    values = [mover_value(args, moves + [m], args.judge_ms) for m in (preferred, chosen)]
    return len(moves), preferred, chosen, values


def report(results):
    by_ply = collections.defaultdict(lambda: [0, 0])
    for ply, preferred, chosen, _ in results:
        by_ply[ply][0] += 1
        by_ply[ply][1] += preferred == chosen
    same = sum(s for _, s in by_ply.values())
    print(f"the engine's move chosen in {same} of {len(results)} positions "
          f"({100 * same / len(results):.0f}%); by ply:")
    for ply in sorted(by_ply):
        n, s = by_ply[ply]
        print(f"  ply {ply}: {s} of {n}")
    differ = [v for *_, v in results if v is not None]
    if not differ:
        return
    worse = [engine - player for engine, player in differ]
    even = [engine - player for engine, player in differ if abs(engine) <= EVEN]
    print(f"{len(differ)} differing: the player's move worse by {statistics.median(worse):.0f} "
          f"at the median; from {len(even)} positions within ±{EVEN} after the engine's move, "
          f"{sum(w >= WORSE for w in even)} at least {WORSE} worse and "
          f"{sum(w <= -WORSE for w in even)} at least {WORSE} better")
    proven = collections.Counter((mate(engine), mate(player)) for engine, player in differ)
    print(f"  proven lost: the player's move alone {proven[0, -1]}, the engine's alone "
          f"{proven[-1, 0]}, both {proven[-1, -1]}; proven won: the engine's alone "
          f"{proven[1, 0]}, the player's alone {proven[0, 1]}, both {proven[1, 1]}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("boyi")
    ap.add_argument("--spec", default="boyi:strong")
    ap.add_argument("--openings", default=os.path.join(HERE, "gomoku-openings-15.txt"))
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--plies", type=int, default=12)
    ap.add_argument("--line-ms", type=int, default=200)
    ap.add_argument("--ms", type=int, default=200)
    ap.add_argument("--judge-ms", type=int, default=500)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--boyi-plays", choices=["first", "second"])
    args = ap.parse_args()
    for path in (args.engine, args.boyi):
        if not os.access(path, os.X_OK):
            ap.error(f"{path} is not an executable")
    starts = openings(args.openings, args.count)
    # The first position compared: the opening's end, or the ply after with `second`.
    skip = int(args.boyi_plays == "second")
    if all(len(o) + skip >= args.plies for o in starts):
        ap.error(f"--plies {args.plies} leaves no position to compare after the openings")
    with ThreadPoolExecutor(args.jobs) as pool:
        lines = list(pool.map(lambda o: line(args, o), starts))
        positions = [
            (moves[:k], None if args.boyi_plays else moves[k])
            for opening, moves in zip(starts, lines)
            for k in range(len(opening), len(moves))
            if args.boyi_plays is None or boyi_turn(args, opening, moves[:k])
        ]
        results = []
        for (moves, _), result in zip(positions, pool.map(lambda p: compare(args, p), positions)):
            results.append(result)
            ply, preferred, chosen, values = result
            if values is not None:
                print(f"{','.join(moves)}: engine {preferred} {values[0]}, "
                      f"player {chosen} {values[1]}", flush=True)
    report(results)


if __name__ == "__main__":
    main()
