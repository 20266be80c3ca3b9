"""What the Python scripts here share: `boyi` itself, asked through its commands (they speak
no engine protocol of their own; `boyi analyze --player 'cmd:"…"@protocol'` does)."""
import json
import os
import re
import subprocess
import sys


def analyze(boyi, spec, moves, ms=None, depth=None, game="gomoku", variant="freestyle"):
    """`boyi analyze` of the position after `moves` by player `spec` (None: the game's
    default), for `ms` milliseconds or to `depth`: (its score text — a number, `mate N`,
    `mate -N` or `none` —, its move)."""
    cmd = [boyi, "analyze", game, "--moves", ",".join(moves)]
    if spec is not None:
        cmd += ["--player", spec]
    if game == "gomoku":
        cmd += ["--variant", variant]
    if ms is not None:
        cmd += ["--movetime", str(ms)]
    if depth is not None:
        cmd += ["--depth", str(depth)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    found = re.search(r"^score (.*) bestmove (\S+)$", done.stdout, re.M)
    if done.returncode != 0 or found is None:
        sys.exit(f"{boyi} analyze with {spec} gave no move: {done.stderr.strip()}")
    return found[1], found[2]


def engine_spec(engine, protocol="gomocup"):
    """An external engine as a Boyi player spec, started in its own directory (Rapfi reads its
    configuration there)."""
    path = os.path.abspath(engine)
    return f"cmd:\"sh -c 'cd {os.path.dirname(path)} && exec {path}'\"@{protocol}"


def plies_value(score):
    """A score text as Rapfi writes values: a number, `M<plies>` for a win of the side to
    move, `-M<plies>` for its loss. An engine that gave no value found a win at once (Rapfi
    answers one without a line): `M1`."""
    if score == "none":
        return "M1"
    if score.startswith("mate -"):
        return f"-M{2 * int(score[6:])}"
    if score.startswith("mate "):
        return f"M{2 * int(score[5:]) - 1}"
    return score


def records(boyi, directory):
    """The games of the record files in `directory` as `boyi record dump` gives them."""
    done = subprocess.run([boyi, "record", "dump", directory], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{boyi} record dump {directory}: {done.stderr.strip()}")
    return [json.loads(line) for line in done.stdout.splitlines()]
