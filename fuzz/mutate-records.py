#!/usr/bin/env python3
"""Writes mutated copies of game record files: the seed corpus of the read_records fuzz
target, and a stress set for any reader (`boyi record validate DIR` must report, not crash).

Each output file is one sample with a few mutations: bytes flipped, removed, duplicated or
inserted (brackets, quotes, separators, bytes that are not UTF-8), numbers replaced by huge or
negative ones, lines shuffled, cut short, or spliced with another sample. The first byte of
every file written to a fuzz corpus picks the reader (see fuzz_targets/read_records.rs);
with --plain the files are the mutated records alone.

    fuzz/mutate-records.py [--samples DIR] [--out DIR] [--count N] [--seed S] [--plain]
"""

import argparse
import os
import random
import re
import sys

SPECIAL = [b"[", b"]", b"(", b")", b";", b":", b",", b"\"", b"\\", b"\n", b"\r\n", b"\x00",
           b"\xff", b"\xc3\x28", b"\xe4\xb8", b"%", b"{", b"}", b"-", b"+", b" x ", b"*", b"@"]
NUMBERS = [b"0", b"-1", b"99999999999999999999", b"18446744073709551616", b"4294967296",
           b"2147483648", b"1e308", b"NaN", b"00", b"-0", b"255", b"256", b"65536"]



def mutate(data: bytes, other: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(9)
        at = rng.randrange(len(b) + 1)
        if kind == 0 and b:  # flip a byte
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        elif kind == 1 and b:  # remove a range
            end = min(len(b), at + rng.randint(1, 16))
            del b[at:end]
        elif kind == 2 and b:  # duplicate a range
            end = min(len(b), at + rng.randint(1, 64))
            b[at:at] = b[at:end]
        elif kind == 3:  # insert a special token
            b[at:at] = rng.choice(SPECIAL)
        elif kind == 4:  # replace a number
            nums = list(re.finditer(rb"\d+", bytes(b)))
            if nums:
                m = rng.choice(nums)
                b[m.start():m.end()] = rng.choice(NUMBERS)
        elif kind == 5:  # shuffle two lines
            lines = bytes(b).split(b"\n")
            if len(lines) > 2:
                i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
                b = bytearray(b"\n".join(lines))
        elif kind == 6:  # cut short
            del b[at:]
        elif kind == 7 and other:  # splice with another sample
            j = rng.randrange(len(other) + 1)
            b = b[:at] + bytearray(other[j:])
        else:  # repeat a line many times
            lines = bytes(b).split(b"\n")
            i = rng.randrange(len(lines))
            lines[i:i + 1] = [lines[i]] * rng.randint(2, 200)
            b = bytearray(b"\n".join(lines))
    return bytes(b)


def main() -> int:
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--samples", default=os.path.join(here, "..", "crates", "records", "tests", "data"))
    ap.add_argument("--out", default=os.path.join(here, "corpus", "read_records"))
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plain", action="store_true", help="no reader-picking first byte")
    args = ap.parse_args()
    samples = []
    for name in sorted(os.listdir(args.samples)):
        path = os.path.join(args.samples, name)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                samples.append((name, f.read()))
    if not samples:
        print(f"no samples in {args.samples}", file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)
    for n in range(args.count):
        name, data = samples[n % len(samples)]
        other = rng.choice(samples)[1]
        body = mutate(data, other, rng)
        head = b"" if args.plain else bytes([rng.randrange(256)])
        stem, ext = os.path.splitext(name)
        with open(os.path.join(args.out, f"{stem}-{n:05}{ext}"), "wb") as f:
            f.write(head + body)
    print(f"{args.count} mutated records from {len(samples)} samples in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
