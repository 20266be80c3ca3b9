#!/usr/bin/env python3
"""Player A's results by opening and colour over several runs of the same match.

Reads the output of `boyi match` runs (one file each) that played the same openings file:
the arena plays opening k (from 0) in games 2k+1 and 2k+2, each colour once. For every game
number it averages A's result over the runs, then reports how many games had the same result
in at least `--fixed` of the runs, how the openings fall into classes by A's result with each
colour (W won, L lost, ? varied), A's score with white and with black, and the openings where
A did worst (with `--openings`, their moves).

Runs that did not finish, played another number of games than most, or gave A other colours
than the first run are left out.

Usage: gomoku-opening-results.py [--fixed 0.9] [--worst 8] [--openings FILE] LOG...
"""
import argparse
import collections
import re
import sys

GAME = re.compile(r"^game (\d+): A .*? \((white|black)\) vs .*: (white wins|black wins|draw)")


def results(path):
    """{game number: (A's colour, A's points)} of one run, or None if it did not finish."""
    games = {}
    finished = False
    try:
        f = open(path, encoding="utf-8", errors="replace")
    except OSError as e:
        sys.exit(f"cannot read {path}: {e.strerror}")
    with f:
        for line in f:
            m = GAME.match(line)
            if m:
                colour, outcome = m.group(2), m.group(3)
                points = 0.5 if outcome == "draw" else float(outcome.startswith(colour))
                games[int(m.group(1))] = (colour, points)
            elif line.startswith("W ") and " score " in line:
                finished = True
    return games if finished and games else None


def opening_lines(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [s.strip() for s in f if s.strip() and not s.lstrip().startswith("#")]
    except (OSError, UnicodeDecodeError) as e:
        sys.exit(f"cannot read the openings file {path}: {e}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("logs", nargs="+")
    ap.add_argument("--fixed", type=float, default=0.9)
    ap.add_argument("--worst", type=int, default=8)
    ap.add_argument("--openings")
    args = ap.parse_args()
    if not 0.5 < args.fixed <= 1:
        sys.exit(f"--fixed must lie above 0.5 and at most 1, not {args.fixed}")
    moves = opening_lines(args.openings) if args.openings else []

    runs = [r for r in map(results, args.logs) if r]
    if not runs:
        sys.exit("no finished run among the files given")
    count = collections.Counter(len(r) for r in runs).most_common(1)[0][0]
    runs = [r for r in runs if len(r) == count and set(r) == set(range(1, count + 1))]
    if not runs or count < 2:
        sys.exit("no finished run of two games or more, numbered from 1, among the files given")
    # A run that gave A the other colour in some game played other openings or another arena.
    colour = {g: c for g, (c, _) in runs[0].items()}
    runs = [r for r in runs if all(r[g][0] == colour[g] for g in colour)]
    n = len(runs)
    mean = {g: sum(r[g][1] for r in runs) / n for g in range(1, count + 1)}

    def mark(p):
        """W or L for a result the same in `--fixed` of the runs, ? for one that varied."""
        return "W" if p >= args.fixed else "L" if p <= 1 - args.fixed else "?"

    print(f"runs {n} of {count} games; A scored {100 * sum(mean.values()) / count:.1f}%")
    print(f"games with the same result in {100 * args.fixed:.0f}% of the runs: "
          f"{sum(mark(p) != '?' for p in mean.values())} of {count}")

    by_opening = []
    for k in range(count // 2):
        pair = {colour[g]: mean[g] for g in (2 * k + 1, 2 * k + 2)}
        by_opening.append((k, pair.get("white", 0.0), pair.get("black", 0.0)))
    classes = collections.Counter(mark(w) + mark(b) for _, w, b in by_opening)
    print("openings by A's result (white, black): "
          + ", ".join(f"{c} {classes[c]}" for c in sorted(classes)))
    whites = [w for _, w, _ in by_opening]
    blacks = [b for _, _, b in by_opening]
    print(f"A with white {100 * sum(whites) / len(whites):.1f}%, "
          f"with black {100 * sum(blacks) / len(blacks):.1f}%")
    for k, w, b in sorted(by_opening, key=lambda o: o[1] + o[2])[: args.worst]:
        name = moves[k % len(moves)] if moves else ""
        print(f"opening {k} {name}: A with white {100 * w:.0f}%, with black {100 * b:.0f}%")


if __name__ == "__main__":
    main()
