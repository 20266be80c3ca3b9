#!/usr/bin/env python3
"""Balanced Gomoku openings for `boyi match --openings`: three stones (black, white, black)
in the central 7x7 square of a 15x15 board, white to move, distinct up to the board's eight
symmetries, kept when `boyi analyze` scores the position near even: the mean of fixed depths
D-1 and D, since an odd depth flatters the side to move and an even one the other side.

Usage: gomoku-openings.py [--count N] [--depth D] [--limit UNITS] [--seed S]
       [--variant V] [--jobs J] [--boyi PATH] > openings.txt
"""
import argparse
import random
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

SIZE = 15
C = SIZE // 2


def text(p):
    return f"{'abcdefghijklmno'[p[0]]}{p[1] + 1}"


def symmetries(stones):
    out = []
    for flip in (False, True):
        for rot in range(4):
            ps = []
            for x, y in stones:
                dx, dy = x - C, y - C
                if flip:
                    dx = -dx
                for _ in range(rot):
                    dx, dy = -dy, dx
                ps.append((dx + C, dy + C))
            out.append((tuple(sorted(ps[0::2])), ps[1]))
    return min(out)


def score(boyi, variant, moves, depth):
    r = subprocess.run(
        [boyi, "analyze", "gomoku", "--variant", variant, "--moves", ",".join(moves), "--depth", str(depth)],
        capture_output=True, text=True, check=True)
    m = re.match(r"score (mate )?(-?\d+) ", r.stdout.splitlines()[-1])
    return None if m[1] else int(m[2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--depth", type=int, default=5)
    ap.add_argument("--limit", type=int, default=150)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="freestyle")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--boyi", default="boyi")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    seen = set()
    print(f"# {a.count} balanced 3-stone openings (black, white, black; white to move), "
          f"|score| <= {a.limit} at depths {a.depth - 1}-{a.depth}, {a.variant}, seed {a.seed}")

    def candidates():
        while True:
            cells = rng.sample([(x, y) for x in range(C - 3, C + 4) for y in range(C - 3, C + 4)], 3)
            key = symmetries(cells)
            if key not in seen:
                seen.add(key)
                yield [text(p) for p in cells]

    def balanced(moves):
        s = [score(a.boyi, a.variant, moves, d) for d in (a.depth - 1, a.depth)]
        return None not in s and abs(sum(s)) <= 2 * a.limit

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
