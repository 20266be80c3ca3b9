#!/usr/bin/env bash
# Accuracy and speed of `boyi vision` on synthetic photos, per difficulty level, at webcam
# (640x480) and phone (2048x1536) sizes. Release build; timings are noisy on a shared
# machine, so run it more than once and take the best figures.
#   scripts/bench-vision.sh [PHOTOS_PER_LEVEL]   (default 40 small, 10 large)
set -euo pipefail
cd "$(dirname "$0")/.."
small=${1:-40}
large=$(( (small + 3) / 4 ))
cargo build --release -p boyi-vision --example bench
bench=target/release/examples/bench
"$bench" --seed 0 --count "$small" --width 640 --height 480 2>/dev/null
"$bench" --seed 0 --count "$large" --width 2048 --height 1536 2>/dev/null
