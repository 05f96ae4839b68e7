"""Redundant keys: how many keys of each channel a linear resample through the others reproduces.

Dense baked curves (one key a frame) are what most exporters write; an animator or a pipeline that wants
lighter files needs to know how much of it is slack. A key is redundant when interpolating the kept keys the
way the file plays them (lerp; slerp for rotations, as glTF 2.0 Appendix C does) lands within a tolerance of
it: ``1e-5 + 1e-4 × the channel's largest |value|`` per component for translations, scales, weights and
other floats; 0.01° for rotations. STEP channels lose the keys equal to the key before them. CUBICSPLINE
channels are not judged (their tangents are part of what the keys say).

``decimate`` is ``animview reduce``'s decimation (``viewer.reduce.fit``), all channels of a clip at once,
judged at the keys in the channel's own units: every original key ends within tolerance of the kept polyline.
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


def decimate(
    times: np.ndarray,
    values: np.ndarray,
    fixed: np.ndarray,
    tol: np.ndarray,
    rotation: bool,
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

    Returns:
        (n,) bool, True for the keys kept.
    """
    n = len(times)
    tracks = fit.Tracks(
        np.asarray(times, np.float64),
        np.asarray(values, np.float64).reshape(n, -1),
        np.ones(n, dtype=bool),
        np.asarray(fixed, bool),
        np.radians(tol) if rotation else np.asarray(tol, np.float64),
        "angle" if rotation else "linf",
    )
    return fit.decimate(tracks, "slerp" if rotation else "linear").kept


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
