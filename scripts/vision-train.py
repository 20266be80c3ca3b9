#!/usr/bin/env python3
"""Trains the stone network of boyi-vision (crates/vision/src/net.rs) on CPU with numpy.

Data: patch files written by the `patches` example of boyi-vision, from synthetic photos
(every level, the `real` level's variety of boards among them) and from labelled real
photos outside the held-out set:

    cargo run --profile dev-opt -p boyi-vision --example patches -- syn.bin --synthetic 80
    cargo run --profile dev-opt -p boyi-vision --example patches -- \
        dev.bin --real crates/vision/tests/real --split dev
    python3 scripts/vision-train.py syn.bin dev.bin --out crates/vision/src/stone_net.bin

The network (two 3x3 convolutions, max-pooling, two dense layers; the same shapes as
net.rs) is trained with Adam on all eight symmetries of every patch, with classes weighted
by the inverse square root of their frequency; a tenth of the patches, chosen by a fixed
seed, are kept apart to report accuracy on. Deterministic for a seed. Needs numpy only.
"""

import argparse
import sys

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

CHANNELS, PATCH = 4, 16
C1, C2, HIDDEN = 12, 24, 32
S1 = (PATCH - 2) // 2
S2 = S1 - 2


def load(paths):
    xs, ys = [], []
    for p in paths:
        raw = np.fromfile(p, dtype="<f4").reshape(-1, 1 + CHANNELS * PATCH * PATCH)
        ys.append(raw[:, 0].astype(np.int64))
        xs.append(raw[:, 1:].reshape(-1, CHANNELS, PATCH, PATCH))
        print(f"{p}: {len(raw)} patches, by class {np.bincount(ys[-1], minlength=3)}")
    return np.concatenate(xs), np.concatenate(ys)


def init(rng):
    def he(shape, fan_in):
        return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)

    return {
        "w1": he((C1, CHANNELS, 3, 3), CHANNELS * 9),
        "b1": np.zeros(C1, np.float32),
        "w2": he((C2, C1, 3, 3), C1 * 9),
        "b2": np.zeros(C2, np.float32),
        "f1": he((HIDDEN, C2 * S2 * S2), C2 * S2 * S2),
        "c1": np.zeros(HIDDEN, np.float32),
        "f2": he((3, HIDDEN), HIDDEN),
        "c2": np.zeros(3, np.float32),
    }


def forward(p, x, keep=False):
    b = len(x)
    cols1 = sliding_window_view(x, (3, 3), axis=(2, 3))  # b, C, 14, 14, 3, 3
    cols1 = cols1.transpose(0, 2, 3, 1, 4, 5).reshape(b * (PATCH - 2) ** 2, CHANNELS * 9)
    z1 = (cols1 @ p["w1"].reshape(C1, -1).T + p["b1"]).reshape(b, PATCH - 2, PATCH - 2, C1)
    win = z1.reshape(b, S1, 2, S1, 2, C1)
    pooled = win.max(axis=(2, 4))
    a1 = np.maximum(pooled, 0.0)
    cols2 = sliding_window_view(a1, (3, 3), axis=(1, 2))  # b, 5, 5, C1, 3, 3
    cols2 = cols2.reshape(b * S2 * S2, C1 * 9)
    z2 = (cols2 @ p["w2"].reshape(C2, -1).T + p["b2"]).reshape(b, S2, S2, C2)
    a2 = np.maximum(z2, 0.0)
    flat = a2.transpose(0, 3, 1, 2).reshape(b, -1)
    h = np.maximum(flat @ p["f1"].T + p["c1"], 0.0)
    logits = h @ p["f2"].T + p["c2"]
    if not keep:
        return logits
    return logits, (cols1, win, pooled, a1, cols2, z2, flat, h)


def backward(p, x, cache, dlogits):
    cols1, win, pooled, a1, cols2, z2, flat, h = cache
    b = len(x)
    g = {}
    g["f2"] = dlogits.T @ h
    g["c2"] = dlogits.sum(0)
    dh = (dlogits @ p["f2"]) * (h > 0)
    g["f1"] = dh.T @ flat
    g["c1"] = dh.sum(0)
    dflat = dh @ p["f1"]
    da2 = dflat.reshape(b, C2, S2, S2).transpose(0, 2, 3, 1)
    dz2 = (da2 * (z2 > 0)).reshape(b * S2 * S2, C2)
    g["w2"] = (dz2.T @ cols2).reshape(p["w2"].shape)
    g["b2"] = dz2.sum(0)
    dcols2 = (dz2 @ p["w2"].reshape(C2, -1)).reshape(b, S2, S2, C1, 3, 3)
    da1 = np.zeros_like(a1)
    for ky in range(3):
        for kx in range(3):
            da1[:, ky : ky + S2, kx : kx + S2, :] += dcols2[:, :, :, :, ky, kx]
    dpooled = da1 * (pooled > 0)
    mask = win == pooled[:, :, None, :, None, :]
    dz1 = (mask * dpooled[:, :, None, :, None, :]).reshape(b * (PATCH - 2) ** 2, C1)
    g["w1"] = (dz1.T @ cols1).reshape(p["w1"].shape)
    g["b1"] = dz1.sum(0)
    return g


def softmax(z):
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def symmetry(x, k):
    """One of the eight symmetries of the patches' square."""
    if k & 4:
        x = x[:, :, :, ::-1]
    return np.rot90(x, k & 3, axes=(2, 3))


def accuracy(p, x, y):
    pred = np.concatenate([forward(p, x[i : i + 2048]).argmax(1) for i in range(0, len(x), 2048)])
    per = [float((pred[y == c] == c).mean()) if (y == c).any() else float("nan") for c in range(3)]
    return float((pred == y).mean()), per


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", nargs="+", help="patch files")
    ap.add_argument("--out", required=True, help="weights file to write")
    ap.add_argument("--epochs", type=int, default=10)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--empty-share",
        type=float,
        default=0.35,
        help="share of the empty points' patches kept (most points are empty)",
    )
    a = ap.parse_args()

    rng = np.random.default_rng(a.seed)
    x, y = load(a.data)
    keep = (y != 0) | (rng.random(len(y)) < a.empty_share)
    x, y = x[keep], y[keep]
    order = rng.permutation(len(x))
    held = order[: len(x) // 10]
    train = order[len(x) // 10 :]
    counts = np.bincount(y[train], minlength=3).astype(np.float64)
    weight = (1.0 / np.sqrt(np.maximum(counts, 1)))
    weight = (weight / (weight * counts).sum() * counts.sum()).astype(np.float32)
    print(f"train {len(train)}, held apart {len(held)}, class weights {weight}")

    p = init(rng)
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v = {k: np.zeros_like(v) for k, v in p.items()}
    t = 0
    for epoch in range(a.epochs):
        lr = a.lr * (0.5 ** (epoch // 3))
        perm = rng.permutation(train)
        loss_sum = 0.0
        for i in range(0, len(perm), a.batch):
            idx = perm[i : i + a.batch]
            xb = np.ascontiguousarray(symmetry(x[idx], int(rng.integers(8))))
            xb = xb + rng.normal(0, 0.01, xb.shape).astype(np.float32)
            yb = y[idx]
            logits, cache = forward(p, xb, keep=True)
            prob = softmax(logits)
            wb = weight[yb]
            loss_sum += float(-(wb * np.log(prob[np.arange(len(yb)), yb] + 1e-9)).sum())
            d = prob
            d[np.arange(len(yb)), yb] -= 1.0
            d *= wb[:, None] / len(yb)
            g = backward(p, xb, cache, d.astype(np.float32))
            t += 1
            for k in p:
                m[k] = 0.9 * m[k] + 0.1 * g[k]
                v[k] = 0.999 * v[k] + 0.001 * g[k] ** 2
                mh = m[k] / (1 - 0.9**t)
                vh = v[k] / (1 - 0.999**t)
                p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        acc, per = accuracy(p, x[held], y[held])
        print(
            f"epoch {epoch + 1}: loss {loss_sum / len(train):.4f}, held-apart accuracy "
            f"{acc:.5f} (empty {per[0]:.5f}, black {per[1]:.5f}, white {per[2]:.5f})",
            flush=True,
        )
    order_out = ["w1", "b1", "w2", "b2", "f1", "c1", "f2", "c2"]
    np.concatenate([p[k].astype("<f4").ravel() for k in order_out]).tofile(a.out)
    print(f"wrote {a.out}")


if __name__ == "__main__":
    sys.exit(main())
