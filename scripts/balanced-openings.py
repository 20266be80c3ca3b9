#!/usr/bin/env python3
"""Balanced openings for `boyi match --openings`, kept when `boyi analyze` scores the position
near even: the mean of fixed depths D-1 and D (an odd depth flatters the side to move and an
even one the other side), and neither depth sees a forced win.

- gomoku: three stones (black, white, black) in the central 7x7 square of a 15x15 board,
  white to move, distinct up to the board's eight symmetries.
- connect6: black's first stone within two points of the centre of the 19x19 board, then one
  turn of two stones each within two points of that stone, white to move, distinct up to
  the eight symmetries about the first stone.

`--judge ENGINE` (gomoku) also asks a Gomocup engine that prints its evaluation (Rapfi's
`MESSAGE ... Eval V` lines) to judge each candidate that passed, for `--judge-ms` a position;
the opening is kept when that evaluation is within `--judge-limit` of even and no forced win.
A judge stronger than Boyi's own search leaves out openings that one colour wins whoever
plays it, which pull a match's score toward even.

`--unscored` keeps every distinct candidate without scoring it: random openings of the same
shape, for games to fit an evaluation to (`examples/connect6_tune.rs`).

Usage: balanced-openings.py [--game gomoku|connect6] [--count N] [--depth D] [--limit UNITS]
       [--seed S] [--variant V] [--jobs J] [--boyi PATH] [--unscored]
       [--judge ENGINE [--judge-ms MS] [--judge-limit UNITS]] > openings.txt
"""
import argparse
import os
import random
from concurrent.futures import ThreadPoolExecutor

from boyi_tools import analyze, engine_spec, plies_value


LETTERS = "abcdefghijklmnopqrstuvwxyz"
# Centre points (0-based column and row) of the 15x15 Gomoku and 19x19 Connect6 boards.
GOMOKU_CENTRE = 7
CONNECT6_CENTRE = 9


def text(p):
    return f"{LETTERS[p[0]]}{p[1] + 1}"


def transforms(stones, c):
    """The stones under each of the eight symmetries about the point (c, c)."""
    for flip in (False, True):
        for rot in range(4):
            ps = []
            for x, y in stones:
                dx, dy = x - c[0], y - c[1]
                if flip:
                    dx = -dx
                for _ in range(rot):
                    dx, dy = -dy, dx
                ps.append((dx, dy))
            yield ps


def gomoku_key(stones):
    c = (GOMOKU_CENTRE, GOMOKU_CENTRE)
    return min((tuple(sorted(ps[0::2])), ps[1]) for ps in transforms(stones, c))


def connect6_key(stones):
    # stones: black's first, white's two, black's two; the two of a turn are unordered.
    return min(
        (tuple(sorted(ps[1:3])), tuple(sorted(ps[3:5]))) for ps in transforms(stones, stones[0])
    )


def gomoku_candidates(rng):
    c = GOMOKU_CENTRE
    cells = [(x, y) for x in range(c - 3, c + 4) for y in range(c - 3, c + 4)]
    while True:
        stones = rng.sample(cells, 3)
        yield gomoku_key(stones), [text(p) for p in stones]


def connect6_candidates(rng):
    c = CONNECT6_CENTRE
    while True:
        first = (c + rng.randint(-2, 2), c + rng.randint(-2, 2))
        near = [(first[0] + dx, first[1] + dy) for dx in range(-2, 3) for dy in range(-2, 3)]
        near.remove(first)
        rest = rng.sample(near, 4)
        stones = [first] + rest
        t = [text(p) for p in stones]
        yield connect6_key(stones), [t[0], f"{t[1]} {t[2]}", f"{t[3]} {t[4]}"]


def score(boyi, game, variant, moves, depth):
    """The default player's value at `depth`; None for a forced win either way."""
    value, _ = analyze(boyi, None, moves, depth=depth, game=game, variant=variant)
    return None if value.startswith("mate") or value == "none" else int(value)


def gomocup_judge(boyi, variant):
    """`judge(engine, moves, ms)`: a Gomocup engine's (value as Rapfi writes it, move)."""
    def judge(engine, moves, ms):
        score, move = analyze(boyi, engine_spec(engine), moves, ms=ms, variant=variant)
        return plies_value(score), move
    return judge


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", choices=("gomoku", "connect6"), default="gomoku")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="freestyle")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--boyi", default="boyi")
    ap.add_argument("--unscored", action="store_true")
    ap.add_argument("--judge")
    ap.add_argument("--judge-ms", type=int, default=1000)
    ap.add_argument("--judge-limit", type=int, default=50)
    a = ap.parse_args()
    if a.judge and a.game != "gomoku":
        ap.error("--judge asks a Gomocup engine: gomoku only")
    if a.judge and not (os.path.isfile(a.judge) and os.access(a.judge, os.X_OK)):
        ap.error(f"--judge {a.judge}: not an executable file")
    judge = gomocup_judge(a.boyi, a.variant) if a.judge else None
    gomoku = a.game == "gomoku"
    depth = a.depth or (5 if gomoku else 4)
    limit = a.limit or (150 if gomoku else 100)
    rng = random.Random(a.seed)
    if a.unscored:
        shape = ("three stones in the central 7x7 square" if gomoku else
                 "black's first stone near the centre, one turn each within two points of it")
        print(f"# {a.count} random {a.game} openings ({shape}), not scored, seed {a.seed}")
    elif gomoku:
        print(f"# {a.count} balanced 3-stone openings (black, white, black; white to move), "
              f"|score| <= {limit} at depths {depth - 1}-{depth}, {a.variant}, seed {a.seed}")
        if a.judge:
            print(f"# and within {a.judge_limit} of even by {os.path.basename(a.judge)} "
                  f"in {a.judge_ms} ms")
    else:
        print(f"# {a.count} balanced Connect6 openings (black's first stone near the centre, one "
              f"turn each within two points of it; white to move), no forced win and\n"
              f"# |score| <= {limit} at depths {depth - 1}-{depth}, seed {a.seed}")
    seen = set()

    def candidates():
        for key, moves in (gomoku_candidates if gomoku else connect6_candidates)(rng):
            if key not in seen:
                seen.add(key)
                yield moves

    def balanced(moves):
        if a.unscored:
            return True
        s = [score(a.boyi, a.game, a.variant, moves, d) for d in (depth - 1, depth)]
        if None in s or abs(sum(s)) > 2 * limit:
            return False
        if not judge:
            return True
        value, _ = judge(a.judge, moves, a.judge_ms)
        return "M" not in value and abs(int(value)) <= a.judge_limit

    # Candidates are scored in batches of `jobs` and kept in the order drawn, so the file
    # depends on the seed alone, not on the number of jobs.
    found = 0
    gen = candidates()
    with ThreadPoolExecutor(a.jobs) as pool:
        while found < a.count:
            batch = [next(gen) for _ in range(a.jobs)]
            for moves, ok in zip(batch, pool.map(balanced, batch)):
                if ok and found < a.count:
                    print(",".join(moves), flush=True)
                    found += 1


if __name__ == "__main__":
    main()
