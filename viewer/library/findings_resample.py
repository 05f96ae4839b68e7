"""Redundant keys: how many keys of each channel a linear resample through the others reproduces.

Dense baked curves (one key a frame) are what most exporters write; an animator or a pipeline that wants
lighter files needs to know how much of it is slack. A key is redundant when interpolating the kept keys the
way the file plays them (lerp; slerp for rotations, as glTF 2.0 Appendix C does) lands within a tolerance of
it: ``1e-5 + 1e-4 × the channel's largest |value|`` per component for translations, scales, weights and
other floats; 0.01° for rotations. STEP channels lose the keys equal to the key before them. CUBICSPLINE
channels are not judged (their tangents are part of what the keys say).

``decimate`` removes keys in passes, all channels of a clip at once: each pass computes, for every interior
kept key, the largest error over every original key its removal would leave between its two kept
neighbours, then removes an independent set of the keys within tolerance (no two neighbours in one pass, so
each removal's span is exactly the one it was judged on). After any number of passes every original key is
within tolerance of the kept polyline; passes stop when nothing changes (at most ``MAX_PASSES``).
"""

from __future__ import annotations

import numpy as np

from viewer.base import math3d
from viewer.library.findings_keys import Place
from viewer.library.report import Finding

ABS_TOL, REL_TOL = 1e-5, 1e-4  # scene units (or the property's own) + a share of the channel's largest value
ANGLE_TOL_DEGREES = 0.01
MAX_PASSES = 64
MIN_KEYS, MIN_SHARE = 2, 0.1  # report a channel only when this many keys, and this share of them, could go
# Cost buckets per tolerance: within one bucket the pass prefers alternate kept keys, so a straight run loses
# half its keys a pass (log2 passes) instead of one local minimum a pass.
BUCKETS = 4.0


def decimate(
    times: np.ndarray,
    values: np.ndarray,
    fixed: np.ndarray,
    tol: np.ndarray,
    rotation: bool,
    max_passes: int = MAX_PASSES,
) -> np.ndarray:
    """Which keys to keep so that interpolating the kept ones reproduces every key within ``tol``.

    Args:
        times: (n,) key times, strictly increasing within each channel (channels concatenated).
        values: (n, W) key values (unit quaternions [x, y, z, w] when ``rotation``).
        fixed: (n,) keys that stay whatever they cost; must include every channel's first and last key, which
            also keeps each removal's span inside one channel.
        tol: (n,) the tolerance of each key's channel (per component; degrees for rotations).

    Returns:
        (n,) bool, True for the keys kept.
    """
    n = len(times)
    values = np.ascontiguousarray(np.asarray(values, np.float64).reshape(n, -1).T)
    # Inside a run of equal keys every key goes at no cost, and need never be checked again: against any
    # line (or slerp arc shorter than a half turn) its error lies between those of the run's two ends, which
    # stay checked. Held poses of baked curves are such runs; a still channel of a million keys is one pass.
    inner = np.zeros(n, dtype=bool)
    if n > 2:
        same = (values[:, 1:] == values[:, :-1]).all(axis=0)
        inner[1:-1] = same[:-1] & same[1:] & ~fixed[1:-1]
    kept = ~inner
    keys = np.flatnonzero(kept)  # the keys whose error is checked
    for _ in range(max_passes):
        idx = np.flatnonzero(kept)
        m = len(idx)
        free = ~fixed[idx]
        if not free.any():
            break
        # Each key lies at or after kept key q: removing kept key q would span it, and, if it is not kept
        # itself, so would removing kept key q + 1.
        q = (np.cumsum(kept) - 1)[keys]
        loose = ~kept[keys]
        cand = np.concatenate([q, q[loose] + 1])
        k = np.concatenate([keys, keys[loose]])
        ok = (cand >= 1) & (cand <= m - 2)
        ok[ok] = free[cand[ok]]
        cand, k = cand[ok], k[ok]
        err = _errors(times, values, idx[cand - 1], idx[cand + 1], k, rotation)
        cost = np.zeros(m)
        np.maximum.at(cost, cand, err)
        limit = tol[idx]
        removable = free & (cost <= limit)
        if not removable.any():
            break
        kept[idx[_independent(removable, cost / limit)]] = False
    return kept


def _errors(times, values, a, b, k, rotation: bool) -> np.ndarray:
    """How far key k lies from the interpolation between keys a and b at its time (per key; largest
    component, or the rotation angle in degrees). ``values`` is component-major (W, n): gathering and
    reducing whole rows is an order of magnitude faster than over a short last axis."""
    u = (times[k] - times[a]) / (times[b] - times[a])
    va, vb, vk = (np.take(values, i, axis=1) for i in (a, b, k))
    if not rotation:
        return np.abs(va + u * (vb - va) - vk).max(axis=0, initial=0.0)
    dot = np.einsum("ij,ij->j", va, vb)
    vb = vb * np.where(dot < 0.0, -1.0, 1.0)  # the shortest arc (Appendix C)
    # arccos loses ~1e-8 rad near 0: three orders under the 0.01° tolerance, and half the cost of atan2.
    theta = np.maximum(np.arccos(np.minimum(np.abs(dot), 1.0)), math3d.MIN_SLERP_ANGLE)
    inv_sin = 1.0 / np.sin(theta)
    q = np.sin((1.0 - u) * theta) * inv_sin * va + np.sin(u * theta) * inv_sin * vb
    return np.degrees(2.0 * np.arccos(np.minimum(np.abs(np.einsum("ij,ij->j", q, vk)), 1.0)))  # q ≡ −q


def _independent(removable: np.ndarray, share: np.ndarray) -> np.ndarray:
    """Removable keys none of whose removable neighbours ranks below it (cheapest bucket, then alternate
    positions, then index): no two neighbours are chosen, and the cheapest removable key always is."""
    m = len(removable)
    pos = np.arange(m)
    order = np.lexsort((pos, pos % 2, np.floor(share * BUCKETS)))
    rank = np.empty(m, dtype=np.int64)
    rank[order] = pos
    r = np.where(removable, rank, m)
    left = np.concatenate([[m], r[:-1]])
    right = np.concatenate([r[1:], [m]])
    return removable & (r < left) & (r < right)


def channel_tolerance(values: np.ndarray, rotation: bool) -> float:
    """The error a kept polyline may make on this channel's keys."""
    if rotation:
        return ANGLE_TOL_DEGREES
    return ABS_TOL + REL_TOL * float(np.abs(values).max(initial=0.0))


def kept_keys(times: np.ndarray, values: np.ndarray, rotation: bool) -> np.ndarray:
    """One LINEAR channel's kept keys (bool per key) at its own tolerance."""
    times, values = np.asarray(times, np.float64), _as_values(values, rotation)
    fixed = np.zeros(len(times), dtype=bool)
    fixed[[0, -1]] = True
    tol = np.full(len(times), channel_tolerance(values, rotation))
    return decimate(times, values, fixed, tol, rotation)


def _as_values(values: np.ndarray, rotation: bool) -> np.ndarray:
    v = np.asarray(values, np.float64)
    v = v.reshape(len(v), -1)
    return math3d.quat_normalize(v) if rotation else v


def removable_counts(places: list[Place]) -> np.ndarray:
    """(len(places),) how many keys of each channel could go (0 for CUBICSPLINE and short channels).

    LINEAR channels are decimated together, rotations in one batch and everything else in another (values
    zero-padded to one width: padding never adds error), so a clip costs a few dozen numpy passes, not one
    Python loop per key or per channel.
    """
    counts = np.zeros(len(places), dtype=np.int64)
    for i, p in enumerate(places):
        if p.mode == "step" and len(p.curve.times) > 2:
            v = np.asarray(p.curve.values, np.float64).reshape(len(p.curve.times), -1)
            counts[i] = int(np.all(v[1:-1] == v[:-2], axis=1).sum())  # never the last: it sets the end
    for rotation in (True, False):
        batch = [
            i
            for i, p in enumerate(places)
            if p.mode == "linear" and p.curve.rotation == rotation and len(p.curve.times) > 2
        ]
        if batch:
            counts[batch] = _linear_batch([places[i] for i in batch], rotation)
    return counts


def _linear_batch(places: list[Place], rotation: bool) -> np.ndarray:
    vals = [_as_values(p.curve.values, rotation) for p in places]
    width = max(v.shape[1] for v in vals)
    values = np.concatenate([np.pad(v, ((0, 0), (0, width - v.shape[1]))) for v in vals])
    times = np.concatenate([np.asarray(p.curve.times, np.float64) for p in places])
    lengths = np.array([len(v) for v in vals])
    starts = np.cumsum(lengths) - lengths
    fixed = np.zeros(len(times), dtype=bool)
    fixed[starts] = fixed[starts + lengths - 1] = True
    tol = np.repeat([channel_tolerance(v, rotation) for v in vals], lengths)
    kept = decimate(times, values, fixed, tol, rotation)
    return lengths - np.add.reduceat(kept.astype(np.int64), starts)


def redundant_keys(places: list[Place]) -> list[Finding | None]:
    """Per place: a ``redundant-keys`` finding where at least 2 keys and 10 % of them could go, else None.

    Why it matters: every key is stored, loaded, searched and (in engines without a curve cache) evaluated
    each frame; a file that is mostly redundant keys is larger and slower than its motion needs, and a dense
    bake hides the animator's real poses from anyone who edits the curves later.
    """
    out: list[Finding | None] = []
    for p, removable in zip(places, removable_counts(places)):
        n = len(p.curve.times)
        if removable < MIN_KEYS or removable < MIN_SHARE * n:
            out.append(None)
            continue
        if p.mode == "step":
            how = "STEP keys repeat the key before them"
        elif p.curve.rotation:
            how = f"keys are reproduced within {ANGLE_TOL_DEGREES:g}° by slerp through the others"
        else:
            tol = channel_tolerance(_as_values(p.curve.values, False), False)
            how = f"keys are reproduced within {tol:.2g} by linear interpolation through the others"
        out.append(p.finding("redundant-keys", p.sampler_pointer(), f"{removable} of {n} {how}", removable))
    return out
