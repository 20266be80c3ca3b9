#!/usr/bin/env python3
"""Where the games a player lost were decided, judged by a reference Gomocup engine.

For every game record in RECORD_DIR (any record format Boyi reads: `boyi match --out`'s
files, read through `boyi record dump`) that PLAYER lost (a substring of its black or white
player's spec or name, e.g. `boyi:strong`), each position where PLAYER was to move after the record's
`opening` stones is given to the reference engine (a fresh process per position, `INFO timeout_turn MS`). The engine's last
`Eval` of its `MESSAGE` lines (Rapfi prints them; `Eval M9` / `Eval -M9` is a proven win or
loss in 9 plies) tells whether PLAYER was already lost there. A position answered with no
`Eval` line at all is counted as won for the side to move (Rapfi answers a found win at once).

Prints one line per lost game: the first ply where PLAYER stood lost, PLAYER's move before it
and the reference engine's choice there; then how many games were first lost in each range of
plies. 15x15 freestyle records only (the engine is told nothing about the rule).

With `--retry SPEC...` (and `--boyi`, the path of a `boyi` binary) the decisive positions —
those before a move of PLAYER's that differed from the engine's choice and after which PLAYER
was proven lost a turn later — are given to each Boyi player spec for `--retry-ms`
(`boyi analyze`), and its move is judged: the same move again, another move after which the
engine proves a win against it, or a move not proven lost. A quick way to see whether a
change to the engine avoids the moves that lost.

Usage: gomoku-lost-turns.py ENGINE PLAYER RECORD_DIR [--ms 300] [--jobs 2] [--boyi BIN]
       [--retry SPEC... [--retry-ms 200]]
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

SIZE = 15


def gomocup(move):
    """Boyi's `h8` as Gomocup's `x,y` from the top-left corner."""
    return ord(move[0]) - ord("a"), SIZE - int(move[1:])


def boyi(x, y):
    return f"{chr(ord('a') + x)}{SIZE - y}"


def judge(engine, moves, ms):
    """The engine's verdict for the side to move: (eval text or None, its move)."""
    side = len(moves) % 2
    lines = ["START 15", "INFO timeout_match 0", f"INFO timeout_turn {ms}", "BOARD"]
    for j, m in enumerate(moves):
        x, y = gomocup(m)
        lines.append(f"{x},{y},{1 if j % 2 == side else 2}")
    lines.append("DONE")
    # END only after the answer: Rapfi stops thinking at any command read while it searches.
    proc = subprocess.Popen(
        [engine],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=os.path.dirname(os.path.abspath(engine)),
    )
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()
    value, reply = None, None
    for line in proc.stdout:
        if m := re.search(r"Eval (-?M?\d+)", line):
            value = m[1]
        if m := re.fullmatch(r"(\d+),(\d+)", line.strip()):
            reply = boyi(int(m[1]), int(m[2]))
            break
    proc.communicate("END\n", timeout=10)
    return value, reply


def lost(value):
    return value is not None and value.startswith("-M")


def records(boyi_bin, directory):
    """Every freestyle 15x15 game of the record files in `directory`, as
    (file, black, white, result, moves, opening plies); `boyi record dump` reads them."""
    done = subprocess.run([boyi_bin, "record", "dump", directory], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{boyi_bin} record dump {directory}: {done.stderr.strip()}")
    games = []
    for line in done.stdout.splitlines():
        rec = json.loads(line)
        name = os.path.basename(rec["file"])
        if rec["game"] != "gomoku" or rec["variant"] != "freestyle" or rec["set_up"] \
                or (rec["size"] or 15) != 15:
            print(f"{name}: not freestyle Gomoku on 15x15 from the empty board, skipped",
                  file=sys.stderr)
            continue
        result = rec["result"]
        winner = "unfinished" if result is None else (result["winner"] or "draw")
        player = lambda side: rec[side]["spec"] or rec[side]["name"]
        moves = [m["text"] for m in rec["moves"]]
        opening = int(rec["tags"].get("OpeningPlies", "0"))
        games.append((name, player("black"), player("white"), winner, moves, opening))
    return games


def first_lost(engine, player, game, ms):
    """The first ply where `player` stood proven lost (None: never), and its turn before."""
    _, black, _, _, moves, opening = game
    colour = 0 if player in black else 1
    previous = None
    for ply in range(colour, len(moves), 2):
        if ply < opening:
            continue
        value, reply = judge(engine, moves[:ply], ms)
        if lost(value):
            return ply, previous
        previous = (ply, moves[ply], reply, value)
    return None, previous


def boyi_move(boyi_bin, spec, moves, ms):
    """The move a Boyi player chooses after `moves` in `ms` (`boyi analyze`)."""
    done = subprocess.run(
        [boyi_bin, "analyze", "gomoku", "--player", spec, "--moves", ",".join(moves),
         "--movetime", str(ms)],
        capture_output=True, text=True,
    )
    found = re.search(r"^score .* bestmove (\S+)$", done.stdout, re.M)
    if done.returncode != 0 or found is None:
        sys.exit(f"{boyi_bin} analyze with {spec} gave no move: {done.stderr.strip()}")
    return found[1]


def retry(engine, boyi_bin, spec, case, ms, retry_ms):
    """How `spec` fares in a decisive position: "again", "lost" or "held"."""
    moves, played = case
    move = boyi_move(boyi_bin, spec, moves, retry_ms)
    if move == played:
        return "again"
    value, _ = judge(engine, moves + [move], ms)
    # The opponent moves next: a win proven for it, or an answer with no Eval line at all.
    return "lost" if value is None or value.startswith("M") else "held"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("engine")
    ap.add_argument("player")
    ap.add_argument("records")
    ap.add_argument("--ms", type=int, default=300)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--boyi", default="boyi", help="the boyi binary (reads the records)")
    ap.add_argument("--retry", nargs="+", default=[], metavar="SPEC")
    ap.add_argument("--retry-ms", type=int, default=200)
    args = ap.parse_args()
    games = []
    for game in records(args.boyi, args.records):
        _, black, white, result = game[:4]
        loser = {"black": white, "white": black}.get(result)
        if loser is not None and args.player in loser:
            games.append((game[0], game))
    ranges = collections.Counter()
    cases = []
    with ThreadPoolExecutor(args.jobs) as pool:
        found = pool.map(lambda g: first_lost(args.engine, args.player, g[1], args.ms), games)
        for (path, game), (ply, before) in zip(games, found):
            ranges["never" if ply is None else f"{ply // 4 * 4}-{ply // 4 * 4 + 3}"] += 1
            verdict = "never proven lost" if ply is None else f"first lost at ply {ply}"
            if before:
                at, played, preferred, value = before
                note = f"before it ply {at}: played {played}, engine {preferred} (eval {value})"
                if ply is not None and played != preferred:
                    cases.append((game[4][:at], played))
            else:
                note = "no turn of its own judged" if ply is None else "lost at its first turn"
            print(f"{path}: {verdict}; {note}", flush=True)
    print(f"{len(games)} games lost by {args.player}; first lost at plies:")
    key = lambda k: (k == "never", int(k.split("-")[0]) if k != "never" else 0)
    for k in sorted(ranges, key=key):
        print(f"  {k}: {ranges[k]}")
    for spec in args.retry:
        with ThreadPoolExecutor(args.jobs) as pool:
            verdicts = collections.Counter(
                pool.map(
                    lambda c: retry(args.engine, args.boyi, spec, c, args.ms, args.retry_ms),
                    cases,
                )
            )
        print(
            f"{spec} at {args.retry_ms} ms, {len(cases)} decisive positions: the same move "
            f"{verdicts['again']}, another move proven lost {verdicts['lost']}, "
            f"not proven lost {verdicts['held']}",
            flush=True,
        )


if __name__ == "__main__":
    main()
