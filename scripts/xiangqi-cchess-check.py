#!/usr/bin/env python3
"""Checks that the Xiangqi PGN and XQF files Boyi writes read in `cchess` (PyPI) to the same
moves and result as in Boyi.

Plays short random Xiangqi matches with BOYI (`boyi match --out DIR --format F` for PGN with
ICCS, WXF and Chinese moves, and XQF), then reads every file twice: with `boyi record dump`
(Boyi's own reading) and with cchess (`read_from_pgn` / `read_from_xqf`), and compares the
main line in ICCS coordinates and the result (1-0, 0-1, 1/2-1/2, *). `--bare` also writes
each game again without thinking times, comments or evaluations (from the dump, through Boyi
text and `boyi record convert`), which tells a reader that fails on PGN comments from one
that misreads moves.

Not part of CI: cchess is installed by hand, e.g.
    python3 -m venv /tmp/cchess && /tmp/cchess/bin/pip install cchess
    /tmp/cchess/bin/python scripts/xiangqi-cchess-check.py target/release/boyi

Usage: xiangqi-cchess-check.py BOYI [--games 6] [--plies 120] [--seed 1] [--dir DIR] [--bare]
Prints one line per file that differs and a summary per format; exits 1 if any differs.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import cchess

FORMATS = ["pgn", "pgn-wxf", "pgn-chinese", "xqf"]
RESULTS = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2", None: "*"}


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: {done.stderr.strip()}")
    return done.stdout


def boyi_games(boyi, path):
    """{file name: (ICCS moves, result token)} as Boyi reads the records at `path`."""
    out = {}
    for line in run([boyi, "record", "dump", path]).splitlines():
        rec = json.loads(line)
        result = rec["result"]
        token = "*" if result is None else RESULTS[result["winner"] or "draw"]
        out[os.path.basename(rec["file"])] = ([m["text"] for m in rec["moves"]], token)
    return out


def cchess_game(path):
    """(ICCS moves of the main line, result token) as cchess reads `path`; (None, why) when
    it fails."""
    try:
        game = cchess.read_from_xqf(path) if path.endswith(".xqf") else cchess.read_from_pgn(path)
    except Exception as e:  # cchess raises whatever its parser meets
        return None, f"{type(e).__name__}: {e}"
    if game is None:
        return None, "no game"
    lines = game.dump_iccs_moves()
    moves = [str(m).lower() for m in lines[0]] if lines else []
    return moves, game.info.get("result", "*")


def bare_copies(boyi, src, dst, fmt):
    """The games of `src` again as `fmt`, without times, clocks, comments or evaluations."""
    os.makedirs(dst, exist_ok=True)
    for line in run([boyi, "record", "dump", src]).splitlines():
        rec = json.loads(line)
        name = os.path.splitext(os.path.basename(rec["file"]))[0]
        result = rec["result"]
        tags = [
            '[Game "xiangqi"]',
            f'[Result "{"*" if result is None else (result["winner"] or "draw")}"]',
        ]
        if result is not None and result["reason"] != "unknown":
            tags.append(f'[Reason "{result["reason"]}"]')
        if rec["set_up"]:
            tags.append(f'[Start "{rec["start"]}"]')
        moves = [f"{i + 1}. {m['text']}" for i, m in enumerate(rec["moves"])]
        boyi_text = os.path.join(dst, name + ".boyi")
        with open(boyi_text, "w") as f:
            f.write("\n".join(tags) + "\n\n" + "\n".join(moves) + "\n")
        ext = "xqf" if fmt == "xqf" else "pgn"
        run([boyi, "record", "convert", boyi_text, os.path.join(dst, f"{name}.{ext}"), "--to", fmt])
        os.remove(boyi_text)


def compare(boyi, directory, label):
    ours = boyi_games(boyi, directory)
    same = 0
    for name in sorted(ours):
        moves, token = ours[name]
        theirs, their_token = cchess_game(os.path.join(directory, name))
        if theirs == moves and their_token == token:
            same += 1
            continue
        if theirs is None:
            print(f"{label} {name}: cchess failed ({their_token})")
            continue
        first = next((i for i, (a, b) in enumerate(zip(moves, theirs)) if a != b), None)
        where = f"first difference at ply {first + 1}" if first is not None else "a prefix"
        print(
            f"{label} {name}: Boyi {len(moves)} plies {token}, cchess {len(theirs)} plies "
            f"{their_token} ({where})"
        )
    print(f"{label}: {same} of {len(ours)} files read the same", flush=True)
    return same == len(ours)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("boyi")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--plies", type=int, default=120)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dir", help="where the records go (default: a temporary directory)")
    ap.add_argument("--bare", action="store_true", help="also check copies without annotations")
    args = ap.parse_args()
    root = args.dir or tempfile.mkdtemp(prefix="boyi-cchess-")
    ok = True
    for fmt in FORMATS:
        out = os.path.join(root, fmt)
        run([args.boyi, "match", "xiangqi", "--a", "boyi:random", "--b", "boyi:random",
             "--games", str(args.games), "--max-plies", str(args.plies), "--seed", str(args.seed),
             "--out", out, "--format", fmt, "--no-record"])
        ok &= compare(args.boyi, out, fmt)
        if args.bare:
            bare = os.path.join(root, fmt + "-bare")
            bare_copies(args.boyi, out, bare, fmt)
            ok &= compare(args.boyi, bare, fmt + " (bare)")
    print(f"records in {root}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
