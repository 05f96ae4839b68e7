"""Redundant keys: how many keys of each channel a linear resample through the others reproduces.

Dense baked curves (one key a frame) are what most exporters write; an animator or a pipeline that wants
lighter files needs to know how much of it is slack. A key is redundant when interpolating the kept keys the
way the file plays them (lerp; slerp for rotations, as glTF 2.0 Appendix C does) lands within a tolerance of
it: ``1e-5 + 1e-4 × the channel's largest |value|`` per component for translations, scales, weights and
other floats; 0.01° for rotations. STEP channels lose the keys equal to the key before them. CUBICSPLINE
channels are not judged (their tangents are part of what the keys say).

``decimate`` is ``animview reduce``'s decimation (``viewer.reduce.fit``), all channels of a clip at once,
judged at the keys in the channel's own units: every original key ends within tolerance of the kept polyline.
"At once" has a bound: the decimation holds a score of arrays the size of its keys, so a clip's channels go in
runs of at most ``KEY_BATCH`` keys, and a longer channel in pieces of that many that share their end keys; each
shared key is then offered once more for removal between its kept neighbours (``_stitch``), so a still
channel of millions of keys comes out at its two ends, as a whole-channel decimation leaves it (a moving
one may differ by a few keys: the greedy's choices depend on the keys it sees together). A clip whose
channels are all shorter is decimated as before, and an hour of capture never needs gigabytes of arrays.
"""

from __future__ import annotations

import numpy as np

from viewer.base import math3d
from viewer.library.findings_keys import Place
from viewer.library.report import Finding
from viewer.reduce import fit

ABS_TOL, REL_TOL = 1e-5, 1e-4  # scene units (or the property's own) + a share of the channel's largest value
ANGLE_TOL_DEGREES = 0.01
MIN_KEYS, MIN_SHARE = 2, 0.1  # report a channel only when this many keys, and this share of them, could go
KEY_BATCH = 1 << 16  # keys decimated together (~27 MB; the greedy's choices depend on the run's other keys)


def decimate(
    times: np.ndarray,
    values: np.ndarray,
    fixed: np.ndarray,
    tol: np.ndarray,
    rotation: bool,
    key: np.ndarray | None = None,
) -> np.ndarray:
    """Which keys to keep so that interpolating the kept ones reproduces every key within ``tol``: ``reduce``'s
    bounded-greedy decimation (``viewer.reduce.fit``), judged at the keys, per component (the largest) or, for
    rotations, by the angle in degrees.

    Args:
        times: (n,) key times, strictly increasing within each channel (channels concatenated).
        values: (n, W) key values (unit quaternions [x, y, z, w] when ``rotation``).
        fixed: (n,) keys that stay whatever they cost; must include every channel's first and last key, which
            also keeps each removal's span inside one channel.
        tol: (n,) the tolerance of each key's channel (per component; degrees for rotations).
        key: (n,) the keys that may be kept at all (default every one); the others are only checked.

    Returns:
        (n,) bool, True for the keys kept.
    """
    n = len(times)
    tracks = fit.Tracks(
        np.asarray(times, np.float64),
        np.asarray(values, np.float64).reshape(n, -1),
        np.ones(n, dtype=bool) if key is None else np.asarray(key, bool),
        np.asarray(fixed, bool),
        np.radians(tol) if rotation else np.asarray(tol, np.float64),
        "angle" if rotation else "linf",
    )
    return fit.decimate(tracks, "slerp" if rotation else "linear", final=False).kept


def channel_tolerance(values: np.ndarray, rotation: bool) -> float:
    """The error a kept polyline may make on this channel's keys."""
    if rotation:
        return ANGLE_TOL_DEGREES
    if not np.size(values):
        return ABS_TOL
    largest = max(float(np.max(values)), -float(np.min(values)))  # max |value|, without a copy of the values
    return ABS_TOL + REL_TOL * largest


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
    zero-padded to one width: padding never adds error; each batch in runs of ``KEY_BATCH`` keys), so a clip
    costs a few dozen numpy passes per run, not one Python loop per key or per channel.
    """
    counts = np.zeros(len(places), dtype=np.int64)
    for i, p in enumerate(places):
        if p.mode == "step" and len(p.curve.times) > 2:
            v = np.asarray(p.curve.values, np.float64).reshape(len(p.curve.times), -1)
            counts[i] = int(np.all(v[1:-1] == v[:-2], axis=1).sum())  # never the last: it sets the end
    for rotation in (True, False):
        pieces = [
            (i, a, b)
            for i, p in enumerate(places)
            if p.mode == "linear" and p.curve.rotation == rotation and len(p.curve.times) > 2
            for a, b in _spans(len(p.curve.times))
        ]
        tol = {i: channel_tolerance(_as_values(places[i].curve.values, False), rotation) for i, _, _ in pieces}
        long = {i: np.zeros(len(places[i].curve.times), bool) for i, a, _ in pieces if a > 0}  # kept keys
        for run in _runs(pieces):
            kept = _linear_run(places, run, tol, rotation)
            at = 0
            for i, a, b in run:
                if i in long:
                    long[i][a:b] |= kept[at : at + b - a]
                else:
                    counts[i] = b - a - int(kept[at : at + b - a].sum())
                at += b - a
        for i, kept in long.items():
            _stitch(places[i], kept, tol[i], rotation)
            counts[i] = len(kept) - int(kept.sum())
    return counts


def _stitch(place: Place, kept: np.ndarray, tol: float, rotation: bool) -> None:
    """Each key two pieces of a long channel share (``_spans``), removed in place where a whole-channel
    decimation would have let it go: inside a run of equal keys (the decimation frees those first), or where
    the keys between its kept neighbours stay within ``tol`` of the line (or slerp) joining them, judged when
    those neighbours are within two pieces of it."""
    values = place.curve.values
    for b in range(KEY_BATCH, len(kept) - 1, KEY_BATCH):
        if np.array_equal(values[b - 1], values[b]) and np.array_equal(values[b], values[b + 1]):
            kept[b] = False
            continue
        low, high = max(0, b - 2 * KEY_BATCH), min(len(kept), b + 2 * KEY_BATCH)
        before, after = np.flatnonzero(kept[low:b]), np.flatnonzero(kept[b + 1 : high])
        if not (before.size and after.size):
            continue
        left, right = low + int(before[-1]), b + 1 + int(after[0])
        key = np.zeros(right + 1 - left, bool)
        key[[0, b - left, -1]] = True
        fixed = key.copy()
        fixed[b - left] = False
        times = np.asarray(place.curve.times[left : right + 1], np.float64)
        span = _as_values(values[left : right + 1], rotation)
        kept[b] = decimate(times, span, fixed, np.full(len(key), tol), rotation, key)[b - left]


def _spans(keys: int) -> list[tuple[int, int]]:
    """A channel's pieces: all its keys, or runs of ``KEY_BATCH`` intervals that share their end keys."""
    if keys <= KEY_BATCH:
        return [(0, keys)]
    return [(a, min(keys, a + KEY_BATCH + 1)) for a in range(0, keys - 1, KEY_BATCH)]


def _runs(pieces: list[tuple[int, int, int]]) -> list[list[tuple[int, int, int]]]:
    """``(place, first key, stop)`` pieces in consecutive runs of at most ``KEY_BATCH`` keys (one over it alone)."""
    runs: list[list[tuple[int, int, int]]] = []
    size = 0
    for piece in pieces:
        n = piece[2] - piece[1]
        if not runs or size + n > KEY_BATCH:
            runs.append([])
            size = 0
        runs[-1].append(piece)
        size += n
    return runs


def _linear_run(places: list[Place], run: list[tuple[int, int, int]], tol: dict, rotation: bool) -> np.ndarray:
    """The kept keys of one run (its pieces end to end), decimated together with each piece's end keys fixed."""
    vals = [_as_values(places[i].curve.values[a:b], rotation) for i, a, b in run]
    width = max(v.shape[1] for v in vals)
    values = np.concatenate([np.pad(v, ((0, 0), (0, width - v.shape[1]))) for v in vals])
    times = np.concatenate([np.asarray(places[i].curve.times[a:b], np.float64) for i, a, b in run])
    lengths = np.array([len(v) for v in vals])
    starts = np.cumsum(lengths) - lengths
    fixed = np.zeros(len(times), dtype=bool)
    fixed[starts] = fixed[starts + lengths - 1] = True
    return decimate(times, values, fixed, np.repeat([tol[i] for i, _, _ in run], lengths), rotation)


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
