"""Fewest keys under a per-sample tolerance: bounded-greedy decimation of many tracks at once.

A track is one channel's samples — its own keys, and points between them where the original curve bends
(CUBICSPLINE) — in a metric space (values scaled so that a distance is a world-space displacement). Only keys
may be kept; every sample is checked. Each pass computes, for every kept key that changed neighbours, the
largest error over every sample its removal would leave between its two kept neighbours, fitted the way the
output will play (lerp, slerp, STEP hold, or a cubic Hermite with least-squares tangents), then removes an
independent set of the keys within tolerance: no two neighbours in one pass, so each removal's span is exactly
the one it was judged on, and every dropped key has been checked against the final segments.

Why greedy and not optimal: the exact fewest-keys polyline is O(n²) per channel (a 36 000-key mocap channel is
10⁹ span tests); a greedy pass over all tracks is a few dozen numpy calls however many tracks there are.
Cubic segments are independent (glTF stores an in- and an out-tangent per key), so each span is fitted alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_PASSES = 200
BUCKETS = 4.0  # cost buckets per tolerance: alternate keys go first within one, so a straight run halves a pass
SINGULAR = 1e-6  # a span's 2×2 system is solved as rank 1 below this determinant over its trace²


@dataclass
class Tracks:
    """Tracks of one metric and width, concatenated. ``values`` is (n, W); rotations are unit quaternions,
    consecutive samples in one hemisphere. ``key``: the sample may be kept; ``fixed``: it must be (each
    track's first and last key, so a removal's span never leaves its track)."""

    times: np.ndarray
    values: np.ndarray
    key: np.ndarray
    fixed: np.ndarray
    tol: np.ndarray  # (n,) the track's tolerance, repeated per sample
    metric: str  # "l2", "l1", "linf" or "angle" (radians)


@dataclass
class Fit:
    kept: np.ndarray  # (n,) bool
    tangents: np.ndarray | None  # cubic: (n, 2, W) in- and out-tangent per second at each kept key
    error: np.ndarray | None  # (n,) each sample's error against the final curve; None when not asked for


def distance(x: np.ndarray, y: np.ndarray, metric: str) -> np.ndarray:
    """Per row (component-major arrays, (W, k)): how far apart, in the track's metric."""
    if metric == "angle":
        x = x / np.maximum(np.sqrt(np.einsum("ij,ij->j", x, x)), 1e-300)
        s = np.where(np.einsum("ij,ij->j", x, y) < 0.0, -1.0, 1.0)
        d, p = x - s * y, x + s * y
        # |x − y| and |x + y| are 2 sin and 2 cos of half the 4D angle; the rotation turns twice that angle
        return 4.0 * np.arctan2(np.sqrt(np.einsum("ij,ij->j", d, d)), np.sqrt(np.einsum("ij,ij->j", p, p)))
    diff = np.abs(x - y)
    if metric == "l2":
        return np.sqrt(np.einsum("ij,ij->j", diff, diff))
    return diff.sum(axis=0) if metric == "l1" else diff.max(axis=0, initial=0.0)


def _basis(u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The Hermite tangent bases h10, h11: the curve is lerp + h10·y0 + h11·y1 for tangents (chord + y)·Δt."""
    u2 = u * u
    return u2 * u - 2.0 * u2 + u, u2 * u - u2


def _solve(group: np.ndarray, m: int, u: np.ndarray, resid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least-squares y0, y1 (W, m) per group from its samples' residuals against the chord (W, k). A span with
    one inside sample (or all at one u) has a rank-1 system: its minimum-norm solution, A·r / trace(A)², fits
    that sample exactly with the smallest tangents; none at all leaves the straight line."""
    h10, h11 = _basis(u)
    a = np.bincount(group, h10 * h10, m)
    b = np.bincount(group, h10 * h11, m)
    c = np.bincount(group, h11 * h11, m)
    r0 = np.stack([np.bincount(group, h10 * r, m) for r in resid])
    r1 = np.stack([np.bincount(group, h11 * r, m) for r in resid])
    trace = a + c
    det = a * c - b * b
    full = det > SINGULAR * trace * trace
    det = np.where(full, det, 1.0)
    flat = np.where(trace > 0, trace * trace, 1.0)
    y0 = np.where(full, (c * r0 - b * r1) / det, (a * r0 + b * r1) / flat)
    y1 = np.where(full, (a * r1 - b * r0) / det, (b * r0 + c * r1) / flat)
    return y0, y1


def _curve_at(scheme, values, times, a, b, k, group, m):
    """The output curve at samples k of spans (a, b) (component-major), and cubic tangent offsets per group."""
    va, vb = np.take(values, a, axis=1), np.take(values, b, axis=1)
    span = times[b] - times[a]
    u = (times[k] - times[a]) / np.where(span > 0, span, 1.0)
    if scheme == "step":
        return np.where(k == b, vb, va), None
    if scheme == "slerp":
        dot = np.einsum("ij,ij->j", va, vb)
        vb = vb * np.where(dot < 0.0, -1.0, 1.0)
        d, p = va - vb, va + vb
        theta = 2.0 * np.arctan2(np.sqrt(np.einsum("ij,ij->j", d, d)), np.sqrt(np.einsum("ij,ij->j", p, p)))
        theta = np.maximum(theta, 1e-12)  # the 4D angle between the keys, which slerp's weights are sines of
        inv = 1.0 / np.sin(theta)
        return np.sin((1.0 - u) * theta) * inv * va + np.sin(u * theta) * inv * vb, None
    line = va + u * (vb - va)
    if scheme == "linear":
        return line, None
    y0, y1 = _solve(group, m, u, np.take(values, k, axis=1) - line)
    h10, h11 = _basis(u)
    return line + h10 * y0[:, group] + h11 * y1[:, group], (y0, y1)


def _pairs(kept: np.ndarray, check: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(candidate kept position, sample) for every sample a removal would span: a sample at or after kept key q
    is spanned by removing q and, when it is not kept itself, q + 1."""
    q = (np.cumsum(kept) - 1)[check]
    loose = ~kept[check]
    return np.concatenate([q, q[loose] + 1]), np.concatenate([check, check[loose]])


def decimate(tr: Tracks, scheme: str, final: bool = True) -> Fit:
    """Keys to keep so the ``scheme`` curve through them ("linear", "slerp", "step" or "cubic") is within each
    sample's tolerance of every sample; with cubic, the tangents that make it so. ``final=False`` skips the
    last evaluation of every sample against the kept curve (``Fit.error`` None, no tangents) for callers that
    only count the keys: on a long take it is most of the time."""
    n = len(tr.times)
    values = np.ascontiguousarray(np.asarray(tr.values, np.float64).reshape(n, -1).T)
    kept = tr.key.copy()
    check = np.arange(n)
    if scheme != "cubic" and n > 2:  # inside a run of equal samples every key goes free (its ends bound it)
        same = (values[:, 1:] == values[:, :-1]).all(axis=0)
        inner = np.zeros(n, dtype=bool)
        inner[1:-1] = same[:-1] & same[1:] & ~tr.fixed[1:-1]
        kept &= ~inner
        check = np.flatnonzero(~inner | ~tr.key)
    cost = np.zeros(n)
    dirty = kept.copy()
    for _ in range(MAX_PASSES):
        idx = np.flatnonzero(kept)
        m = len(idx)
        free = ~tr.fixed[idx]
        if not free.any():
            break
        cand, k = _pairs(kept, check)
        ok = (cand >= 1) & (cand <= m - 2)
        ok[ok] = free[cand[ok]] & dirty[idx[cand[ok]]]
        cand, k = cand[ok], k[ok]
        if len(cand):
            present = np.bincount(cand, minlength=m) > 0  # group ids without a sort: ranks among the present
            local = np.flatnonzero(present)
            group = (np.cumsum(present) - 1)[cand]
            at, _ = _curve_at(scheme, values, tr.times, idx[cand - 1], idx[cand + 1], k, group, len(local))
            err = distance(at, np.take(values, k, axis=1), tr.metric)
            worst = np.zeros(len(local))
            np.maximum.at(worst, group, err)
            cost[idx[local]] = worst
        dirty[idx] = False
        share = cost[idx] / np.maximum(tr.tol[idx], 1e-300)
        removable = free & (cost[idx] <= tr.tol[idx])
        if not removable.any():
            break
        gone = _independent(removable, share)
        kept[idx[gone]] = False
        near = np.flatnonzero(gone)
        dirty[idx[np.clip(np.concatenate([near - 1, near + 1]), 0, m - 1)]] = True
    return _final(tr, scheme, values, kept) if final else Fit(kept, None, None)


def _final(tr: Tracks, scheme: str, values: np.ndarray, kept: np.ndarray) -> Fit:
    """Each sample's error against the kept curve, and the cubic's per-second tangents at the kept keys."""
    n = len(tr.times)
    idx = np.flatnonzero(kept)
    seg = np.clip((np.cumsum(kept) - 1), 0, len(idx) - 2)  # the segment each sample lies in (its end included)
    a, b = idx[seg], idx[np.minimum(seg + 1, len(idx) - 1)]
    k = np.arange(n)
    at, ys = _curve_at(scheme, values, tr.times, a, b, k, seg, max(len(idx) - 1, 1))
    error = distance(at, values, tr.metric) if n else np.zeros(0)
    tangents = None
    if scheme == "cubic":
        y0, y1 = ys
        tangents = np.zeros((n, 2, values.shape[0]))
        s = np.arange(len(idx) - 1)
        if len(s):
            pa, pb = idx[s], idx[s + 1]
            dt = tr.times[pb] - tr.times[pa]
            dt = np.where(dt > 0, dt, 1.0)
            chord = values[:, pb] - values[:, pa]
            tangents[pa, 1] = ((chord + y0[:, s]) / dt).T  # out-tangent of the segment's first key
            tangents[pb, 0] = ((chord + y1[:, s]) / dt).T  # in-tangent of its last
    return Fit(kept, tangents, error)


def _independent(removable: np.ndarray, share: np.ndarray) -> np.ndarray:
    """Removable keys none of whose removable neighbours ranks below it (cheapest bucket, then alternate
    positions, then index): no two neighbours are chosen, and the cheapest removable key always is. Ranks are
    compared with the neighbours only, as one integer each, so no sort is needed."""
    m = len(removable)
    pos = np.arange(m, dtype=np.int64)
    bucket = np.minimum(np.floor(share * BUCKETS), BUCKETS + 1).astype(np.int64)
    r = np.where(removable, (bucket * 2 + pos % 2) * m + pos, np.iinfo(np.int64).max)
    left = np.concatenate([[np.iinfo(np.int64).max], r[:-1]])
    right = np.concatenate([r[1:], [np.iinfo(np.int64).max]])
    return removable & (r < left) & (r < right)
